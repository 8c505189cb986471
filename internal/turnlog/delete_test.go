package turnlog_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

func putKeys(t *testing.T, s blob.Store, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if err := blob.PutBytes(context.Background(), s, k, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
}

func keysUnder(t *testing.T, s blob.Store, prefix string) []string {
	t.Helper()
	infos, err := s.List(context.Background(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	var ks []string
	for _, in := range infos {
		ks = append(ks, in.Key)
	}
	return ks
}

// DeleteBatch removes one batch's log and nothing else: not another batch's,
// not another job's whose name it prefixes, not the shards.
func TestDeleteBatch(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	putKeys(t, s,
		schema.TurnKey("j", 1, 0, 0, 1), schema.ActKey("j", 1, 0, 0, 1), schema.BundleKey("j", 1, 3, 2),
		schema.TurnKey("j", 2, 0, 0, 1), schema.TurnKey("j", 10, 0, 0, 1), schema.TurnKey("j2", 1, 0, 0, 1),
		"j/_manifest/part-00001.json")
	n, err := turnlog.DeleteBatch(ctx, s, "j", 1)
	if err != nil || n != 3 {
		t.Fatalf("DeleteBatch = %d, %v; want 3", n, err)
	}
	if left := keysUnder(t, s, schema.BatchTurnPrefix("j", 1)); len(left) != 0 {
		t.Errorf("left in batch 1: %v", left)
	}
	for _, k := range []string{schema.TurnKey("j", 2, 0, 0, 1), schema.TurnKey("j", 10, 0, 0, 1), schema.TurnKey("j2", 1, 0, 0, 1), "j/_manifest/part-00001.json"} {
		if _, err := s.Stat(ctx, k); err != nil {
			t.Errorf("%s deleted: %v", k, err)
		}
	}
	u, _ := url.Parse(s.URL())
	if _, err := os.Stat(filepath.Join(u.Path, "j", "_turns", "b00001")); !os.IsNotExist(err) {
		t.Errorf("the emptied batch folder stays: %v", err)
	}
	if _, err := os.Stat(filepath.Join(u.Path, "j", "_turns", "b00002")); err != nil {
		t.Errorf("another batch's folder went: %v", err)
	}
	if n, err := turnlog.DeleteBatch(ctx, s, "j", 1); err != nil || n != 0 {
		t.Errorf("deleting again = %d, %v; want 0, nil", n, err)
	}
}

// Sweep removes the logs of the batches it is told are committed only.
func TestSweep(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	putKeys(t, s, schema.TurnKey("j", 1, 0, 0, 1), schema.TurnKey("j", 2, 4, 1, 1), schema.BundleKey("j", 3, 0, 1), schema.TurnKey("j", 4, 0, 0, 1))
	n, err := turnlog.Sweep(ctx, s, "j", func(b int) bool { return b == 2 || b == 3 })
	if err != nil || n != 2 {
		t.Fatalf("Sweep = %d, %v; want 2", n, err)
	}
	left := keysUnder(t, s, schema.JobTurnPrefix("j"))
	if len(left) != 2 || left[0] != schema.TurnKey("j", 1, 0, 0, 1) || left[1] != schema.TurnKey("j", 4, 0, 0, 1) {
		t.Errorf("left %v", left)
	}
}

func TestTurnKeyBatch(t *testing.T) {
	for _, c := range []struct {
		key  string
		b    int
		want bool
	}{
		{schema.TurnKey("j", 42, 7, 3, 1), 42, true},
		{schema.BundleKey("j", 100000, 0, 1), 100000, true},
		{"j/_turns/bxyz/e0000/t0000-a1", 0, false},
		{"j/_turns/b00001", 0, false},
		{"j2/_turns/b00001/e0000/t0000-a1", 0, false},
	} {
		if b, ok := schema.TurnKeyBatch("j", c.key); ok != c.want || (ok && b != c.b) {
			t.Errorf("TurnKeyBatch(%q) = %d, %v", c.key, b, ok)
		}
	}
}
