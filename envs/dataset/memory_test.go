package dataset

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestLargeJSONLBoundedMemory opens a ~200 MB JSONL file and reads rows
// across it; the heap must stay a small fraction of the file: the file is
// indexed in one streaming pass and each row is one positioned read.
func TestLargeJSONLBoundedMemory(t *testing.T) {
	start := time.Now()
	dir := t.TempDir()
	p := filepath.Join(dir, "big.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	pad := strings.Repeat("x", 360)
	const rows = 500_000
	for i := range rows {
		fmt.Fprintf(w, "{\"id\":%d,\"problem\":\"p%d %s\",\"answer\":\"%d\"}\n", i, i, pad, i*7)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	t.Logf("wrote %d MB in %v", fi.Size()>>20, time.Since(start))

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)

	t0 := time.Now()
	d, err := newRegistry(t).Open(context.Background(), p, WithCacheDir(filepath.Join(dir, "cache")), WithColumns("problem"))
	if err != nil {
		t.Fatal(err)
	}
	var opened runtime.MemStats
	runtime.ReadMemStats(&opened)
	openAlloc := opened.TotalAlloc - before.TotalAlloc
	t.Logf("indexed %d rows in %v, allocating %.1f MB", d.Len(), time.Since(t0), float64(openAlloc)/(1<<20))
	// Indexing reads through a 1 MB buffer; the offsets are 8 bytes a row
	// (4 MB here), doubled while the slice grows.
	if limit := uint64(fi.Size() / 8); openAlloc > limit {
		t.Errorf("opening allocated %d MB for a %d MB file: the file is being loaded", openAlloc>>20, fi.Size()>>20)
	}
	if d.Len() != rows {
		t.Fatalf("Len = %d, want %d", d.Len(), rows)
	}
	for k := range 20_000 {
		i := Index(9, rows, k)
		r, err := d.Row(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		if r["id"] != int64(i) || r["answer"] != fmt.Sprint(i*7) {
			t.Fatalf("row %d = %v", i, r["id"])
		}
	}
	runtime.ReadMemStats(&after)
	inuse := int64(after.HeapInuse) - int64(before.HeapInuse)
	t.Logf("file %d MB; heap in use +%.1f MB after 20k rows", fi.Size()>>20, float64(inuse)/(1<<20))
	if limit := fi.Size() / 8; inuse > limit {
		t.Errorf("heap in use grew by %d MB for a %d MB file (limit %d MB)", inuse>>20, fi.Size()>>20, limit>>20)
	}
}
