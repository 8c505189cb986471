package turnlog

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/schema"
)

// deleteConcurrency bounds the deletes in flight: a batch's log is
// thousands of small objects, one request each on S3.
const deleteConcurrency = 16

// DeleteBatch deletes every turn-log object of a batch and returns how many
// it deleted. Call it only once the batch's manifest is stored: the log is
// then garbage, and the shard's rows are read from nowhere else. Deleting
// again is harmless (a missing object is not an error), so a retried
// commit deletes what an interrupted one left.
func DeleteBatch(ctx context.Context, store blob.Store, job string, batch int) (int, error) {
	infos, err := store.List(ctx, schema.BatchTurnPrefix(job, batch))
	if err != nil {
		return 0, fmt.Errorf("list turn log of batch %d: %w", batch, err)
	}
	keys := make([]string, len(infos))
	for i, in := range infos {
		keys[i] = in.Key
	}
	n, err := deleteKeys(ctx, store, keys)
	if err == nil {
		pruneFolders(store, keys)
	}
	return n, err
}

// Sweep deletes the turn-log objects of the batches committed reports as
// committed, what a commit interrupted before its deletion left, and
// returns how many it deleted. The log of every other batch is kept: a
// rerun resumes those batches' episodes from it.
func Sweep(ctx context.Context, store blob.Store, job string, committed func(batch int) bool) (int, error) {
	infos, err := store.List(ctx, schema.JobTurnPrefix(job))
	if err != nil {
		return 0, fmt.Errorf("list turn log of job %s: %w", job, err)
	}
	var keys []string
	for _, in := range infos {
		if b, ok := schema.TurnKeyBatch(job, in.Key); ok && committed(b) {
			keys = append(keys, in.Key)
		}
	}
	n, err := deleteKeys(ctx, store, keys)
	if err == nil {
		pruneFolders(store, keys)
	}
	return n, err
}

// pruneFolders removes the folders a folder store kept for the deleted keys
// once they are empty, deepest first, up to the job's _turns folder. A
// bucket has no folders; a folder still holding something stays.
func pruneFolders(store blob.Store, keys []string) {
	u, err := url.Parse(store.URL())
	if err != nil || u.Scheme != "file" || len(keys) == 0 {
		return
	}
	dirs := map[string]bool{}
	for _, k := range keys {
		for d := path.Dir(k); strings.Contains(d, "/_turns/"); d = path.Dir(d) {
			dirs[d] = true
		}
	}
	sorted := slices.SortedFunc(maps.Keys(dirs), func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for _, d := range sorted {
		_ = os.Remove(filepath.Join(u.Path, filepath.FromSlash(d))) // fails, harmlessly, when not empty
	}
}

func deleteKeys(ctx context.Context, store blob.Store, keys []string) (int, error) {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(deleteConcurrency)
	for _, k := range keys {
		g.Go(func() error {
			if err := store.Delete(gctx, k); err != nil {
				return fmt.Errorf("delete turn log %s: %w", k, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return 0, err
	}
	return len(keys), nil
}
