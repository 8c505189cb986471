package schema

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Keys are slash-separated paths relative to the output root (a folder or an
// s3://bucket/prefix). Numbers are zero-padded (batch to 5 digits, episode,
// group and turn to 4) so listings sort in id order; wider numbers still
// work, they only print wider.

// TurnKey is the key of the generate record of one attempt of a turn:
// "<job>/_turns/b00042/e0007/t0003-a1".
func TurnKey(job string, batch, episode, turn, attempt int) string {
	return fmt.Sprintf("%s/_turns/b%05d/e%04d/t%04d-a%d", job, batch, episode, turn, attempt)
}

// ActKey is the key of the act record (env step or tool call) of one attempt
// of a turn's act step: TurnKey + ".act". The two phases are separate
// activities with their own attempts, so each has its own key.
func ActKey(job string, batch, episode, turn, attempt int) string {
	return TurnKey(job, batch, episode, turn, attempt) + ".act"
}

// BundleKey is the key of one attempt of an episode played whole inside one
// activity by a local policy (random, oracle):
// "<job>/_turns/b00042/e0007/bundle-a1.jsonl". See Bundle.
func BundleKey(job string, batch, episode, attempt int) string {
	return fmt.Sprintf("%s/_turns/b%05d/e%04d/bundle-a%d.jsonl", job, batch, episode, attempt)
}

var bundleKeyRE = regexp.MustCompile(`^(.+)/_turns/b(\d+)/e(\d+)/bundle-a(\d+)\.jsonl$`)

// ParseBundleKey is the inverse of BundleKey.
func ParseBundleKey(key string) (job string, batch, episode, attempt int, err error) {
	m := bundleKeyRE.FindStringSubmatch(key)
	if m == nil {
		return "", 0, 0, 0, fmt.Errorf("%q is not a bundle key (<job>/_turns/b00042/e0007/bundle-a1.jsonl)", key)
	}
	n := make([]int, 3)
	for i := range n {
		if n[i], err = strconv.Atoi(m[i+2]); err != nil {
			return "", 0, 0, 0, fmt.Errorf("bundle key %q: %w", key, err)
		}
	}
	return m[1], n[0], n[1], n[2], nil
}

// TurnPrefix is the prefix of every turn-log key of an episode (turn
// records and bundles), for listing and for deleting a job's log once its
// shards are committed.
func TurnPrefix(job string, batch, episode int) string {
	return fmt.Sprintf("%s/_turns/b%05d/e%04d/", job, batch, episode)
}

// BatchTurnPrefix is the prefix of every turn-log key of a batch, for
// deleting its log once the batch is committed.
func BatchTurnPrefix(job string, batch int) string {
	return fmt.Sprintf("%s/_turns/b%05d/", job, batch)
}

// JobTurnPrefix is the prefix of every turn-log key of a job.
func JobTurnPrefix(job string) string { return job + "/_turns/" }

// TurnKeyBatch is the batch a turn-log key (under JobTurnPrefix(job))
// belongs to; false for any other key.
func TurnKeyBatch(job, key string) (int, bool) {
	rest, ok := strings.CutPrefix(key, JobTurnPrefix(job)+"b")
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "/")
	if !ok || digits == "" {
		return 0, false
	}
	b, err := strconv.Atoi(digits)
	return b, err == nil && b >= 0
}

var turnKeyRE = regexp.MustCompile(`^(.+)/_turns/b(\d+)/e(\d+)/t(\d+)-a(\d+)(\.act)?$`)

// ParseTurnKey is the inverse of TurnKey and ActKey.
func ParseTurnKey(key string) (job string, batch, episode, turn, attempt int, phase Phase, err error) {
	m := turnKeyRE.FindStringSubmatch(key)
	if m == nil {
		return "", 0, 0, 0, 0, "", fmt.Errorf("%q is not a turn-log key (<job>/_turns/b00042/e0007/t0003-a1[.act])", key)
	}
	n := make([]int, 4)
	for i := range n {
		if n[i], err = strconv.Atoi(m[i+2]); err != nil {
			return "", 0, 0, 0, 0, "", fmt.Errorf("turn-log key %q: %w", key, err)
		}
	}
	phase = PhaseGenerate
	if m[6] != "" {
		phase = PhaseAct
	}
	return m[1], n[0], n[1], n[2], n[3], phase, nil
}

// Shard names the objects of one batch's shard, in the order they are
// written: Turns and Episodes (immutable data files), Failures (only when
// episodes of the batch failed), then Manifest, the commit record. A shard
// is committed if and only if its manifest exists.
type Shard struct {
	Turns    string // <job>/shards/part-00042.turns.parquet
	Episodes string // <job>/shards/part-00042.episodes.parquet
	Failures string // <job>/_failures/part-00042.jsonl
	Manifest string // <job>/_manifest/part-00042.json
}

// ShardKeys returns the keys of batch's shard.
func ShardKeys(job string, batch int) Shard {
	part := fmt.Sprintf("part-%05d", batch)
	return Shard{
		Turns:    job + "/shards/" + part + ".turns.parquet",
		Episodes: job + "/shards/" + part + ".episodes.parquet",
		Failures: job + "/_failures/" + part + ".jsonl",
		Manifest: job + "/_manifest/" + part + ".json",
	}
}

// SuccessKey is written once every batch of the job is committed; it holds
// the job's totals (Success).
func SuccessKey(job string) string { return job + "/_SUCCESS" }

// ManifestPrefix is listed by consumers that want committed shards only.
func ManifestPrefix(job string) string { return job + "/_manifest/" }

var manifestKeyRE = regexp.MustCompile(`(?:^|/)_manifest/part-(\d+)\.json$`)

// ParseManifestKey returns the batch of a manifest key.
func ParseManifestKey(key string) (batch int, err error) {
	m := manifestKeyRE.FindStringSubmatch(key)
	if m == nil {
		return 0, fmt.Errorf("%q is not a manifest key (<job>/_manifest/part-00042.json)", key)
	}
	return strconv.Atoi(m[1])
}

// RelKey is key relative to the job's folder, as manifests record paths so a
// dataset folder can be moved or renamed.
func RelKey(job, key string) string { return strings.TrimPrefix(key, job+"/") }
