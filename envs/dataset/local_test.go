package dataset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func TestJSONLLocal(t *testing.T) {
	rows := makeRows(500)
	dir := t.TempDir()
	p := writeFile(t, dir, "train.jsonl", jsonlBytes(t, rows))
	reg := newRegistry(t)
	d, err := reg.Open(context.Background(), p, WithCacheDir(filepath.Join(dir, "cache")), WithColumns("problem", "answer"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Format() != FormatJSONL || d.Path() != p {
		t.Errorf("format %q path %q", d.Format(), d.Path())
	}
	checkAll(t, d, rows)
	wantCols := []string{"answer", "hard", "id", "metadata", "note", "problem", "score", "tags"}
	if got := d.Columns(); !reflect.DeepEqual(got, wantCols) {
		t.Errorf("Columns = %v, want %v", got, wantCols)
	}
}

func TestJSONLLines(t *testing.T) {
	// Blank lines, CRLF, whitespace-only lines, a last line without a
	// newline; integers stay int64, fractions are float64.
	data := "\n{\"a\": 1, \"b\": [1, 2.5, 1e3], \"c\": {\"d\": 9223372036854775807}}\r\n  \n\t\n{\"a\": -2, \"b\": [], \"c\": null}\n\n{\"a\":3,\"b\":null,\"c\":{}}"
	dir := t.TempDir()
	p := writeFile(t, dir, "x.ndjson", []byte(data))
	d, err := newRegistry(t).Open(context.Background(), "file://"+p, WithCacheDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"a": int64(1), "b": []any{int64(1), 2.5, 1000.0}, "c": map[string]any{"d": int64(9223372036854775807)}},
		{"a": int64(-2), "b": []any{}, "c": nil},
		{"a": int64(3), "b": nil, "c": map[string]any{}},
	}
	if d.Len() != len(want) {
		t.Fatalf("Len = %d, want %d", d.Len(), len(want))
	}
	for i, w := range want {
		got, err := d.Row(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("row %d = %#v, want %#v", i, got, w)
		}
	}
	if _, err := d.Row(context.Background(), 3); err == nil {
		t.Error("row 3 of 3: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := d.Row(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Row with a cancelled context: %v", err)
	}
}

func TestJSONLIndexCachedAndReused(t *testing.T) {
	rows := makeRows(50)
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	p := writeFile(t, dir, "train.jsonl", jsonlBytes(t, rows))
	d, err := newRegistry(t).Open(context.Background(), p, WithCacheDir(cache))
	if err != nil {
		t.Fatal(err)
	}
	idx := indexPath(d.Path(), cache)
	if !strings.HasPrefix(idx, filepath.Join(cache, "index")) {
		t.Fatalf("index of a local file at %s, want it in the cache", idx)
	}
	offs, err := readIndex(idx, int64(len(jsonlBytes(t, rows))))
	if err != nil || len(offs) != len(rows)+1 {
		t.Fatalf("index: %d offsets, %v", len(offs), err)
	}
	// A new process (registry) uses the index as it is: prove it by
	// swapping in a doctored one that skips row 0.
	doctored := append([]int64{}, offs[1:]...)
	if err := os.Remove(idx); err != nil {
		t.Fatal(err)
	}
	if err := writeIndex(idx, int64(len(jsonlBytes(t, rows))), doctored); err != nil {
		t.Fatal(err)
	}
	d2, err := newRegistry(t).Open(context.Background(), p, WithCacheDir(cache))
	if err != nil {
		t.Fatal(err)
	}
	if d2.Len() != len(rows)-1 {
		t.Fatalf("reopened Len = %d: the cached index was not used", d2.Len())
	}
	// A changed file gets a new index.
	rows = makeRows(60)
	writeFile(t, dir, "train.jsonl", jsonlBytes(t, rows))
	d3, err := newRegistry(t).Open(context.Background(), p, WithCacheDir(cache))
	if err != nil {
		t.Fatal(err)
	}
	checkAll(t, d3, rows)
}

func TestJSONLGzip(t *testing.T) {
	rows := makeRows(100)
	dir := t.TempDir()
	p := writeFile(t, dir, "train.jsonl.gz", gzipBytes(t, jsonlBytes(t, rows)))
	d, err := newRegistry(t).Open(context.Background(), p, WithCacheDir(filepath.Join(dir, "cache")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(d.Path(), filepath.Join(dir, "cache")) {
		t.Errorf("rows read from %s, want a decompressed copy in the cache", d.Path())
	}
	checkAll(t, d, rows)
}

func TestParquetLocal(t *testing.T) {
	rows := makeRows(1000)
	for _, tc := range []struct {
		name     string
		perGroup int
		opts     []Option
	}{
		{"one-group", 1000, nil},
		{"groups-cached", 64, nil},
		{"groups-seek", 64, []Option{WithRowGroupCache(0)}},
		{"groups-tiny-cache", 64, []Option{WithRowGroupCache(1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := writeFile(t, dir, "train.parquet", parquetBytes(t, rows, tc.perGroup))
			d, err := newRegistry(t).Open(context.Background(), p, append(tc.opts, WithCacheDir(dir), WithColumns("problem", "answer"))...)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(d.src.(*parquetRows).starts) - 1; n != (1000+tc.perGroup-1)/tc.perGroup {
				t.Fatalf("%d row groups", n)
			}
			checkAll(t, d, rows)
		})
	}
}

func TestParquetArrowNested(t *testing.T) {
	b, wantRows := arrowParquet(t)
	dir := t.TempDir()
	p := writeFile(t, dir, "data", b)
	for _, cache := range []int64{DefaultRowGroupCache, 0} {
		d, err := newRegistry(t).Open(context.Background(), p, WithFormat(FormatParquet), WithCacheDir(dir), WithRowGroupCache(cache))
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range wantRows {
			got, err := d.Row(context.Background(), i)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, w) {
				t.Errorf("cache %d row %d:\n got %#v\nwant %#v", cache, i, got, w)
			}
		}
	}
}

func TestMissingColumns(t *testing.T) {
	dir := t.TempDir()
	rows := makeRows(5)
	for _, name := range []string{"x.jsonl", "x.parquet"} {
		b := jsonlBytes(t, rows)
		if strings.HasSuffix(name, ".parquet") {
			b = parquetBytes(t, rows, 10)
		}
		p := writeFile(t, dir, name, b)
		reg := newRegistry(t)
		_, err := reg.Open(context.Background(), p, WithCacheDir(dir), WithColumns("problem", "question", "solution"))
		var mc *MissingColumnError
		if !errors.As(err, &mc) {
			t.Fatalf("%s: error %v, want a *MissingColumnError", name, err)
		}
		if !reflect.DeepEqual(mc.Missing, []string{"question", "solution"}) {
			t.Errorf("%s: missing %v", name, mc.Missing)
		}
		msg := err.Error()
		for _, s := range []string{`"question"`, `"solution"`, `columns present: "answer", "hard", "id", "metadata", "note", "problem", "score", "tags"`, p} {
			if !strings.Contains(msg, s) {
				t.Errorf("%s: message %q lacks %q", name, msg, s)
			}
		}
		// The handle stays good for callers with other columns.
		d, err := reg.Open(context.Background(), p, WithCacheDir(dir), WithColumns("problem"))
		if err != nil || d.Check("answer") != nil {
			t.Errorf("%s: reopen: %v", name, err)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	reg := newRegistry(t)
	if _, err := reg.Open(ctx, filepath.Join(dir, "absent.jsonl"), WithCacheDir(dir)); !errors.Is(err, ErrNotFound) {
		t.Errorf("absent file: %v", err)
	}
	p := writeFile(t, dir, "rows.csv", []byte("a,b\n"))
	if _, err := reg.Open(ctx, p, WithCacheDir(dir)); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "WithFormat") {
		t.Errorf("unknown extension: %v", err)
	}
	p = writeFile(t, dir, "bad.jsonl", []byte("{\"a\":1}\n[1,2]\n"))
	d, err := reg.Open(ctx, p, WithCacheDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Row(ctx, 1); !errors.Is(err, ErrFormat) {
		t.Errorf("array line: %v", err)
	}
	p = writeFile(t, dir, "bad2.jsonl", []byte("{\"a\":1} {\"a\":2}\n"))
	if _, err := reg.Open(ctx, p, WithCacheDir(dir)); !errors.Is(err, ErrFormat) {
		t.Errorf("two values on a line: %v", err)
	}
	p = writeFile(t, dir, "empty.jsonl", []byte("\n\n"))
	if _, err := reg.Open(ctx, p, WithCacheDir(dir)); !errors.Is(err, ErrFormat) {
		t.Errorf("empty file: %v", err)
	}
	p = writeFile(t, dir, "bad.parquet", []byte("not parquet at all"))
	if _, err := reg.Open(ctx, p, WithCacheDir(dir)); !errors.Is(err, ErrFormat) {
		t.Errorf("not parquet: %v", err)
	}
	for _, u := range []string{"ftp://x/y.jsonl", "hf://models/a/b/c.parquet", "hf://datasets/a", "s3://bucket", "file://host/x.jsonl"} {
		if _, err := reg.Open(ctx, u, WithCacheDir(dir)); err == nil {
			t.Errorf("%s: no error", u)
		}
	}
}

func TestRegistrySharesHandles(t *testing.T) {
	rows := makeRows(20)
	dir := t.TempDir()
	p := writeFile(t, dir, "a.jsonl", jsonlBytes(t, rows))
	reg := newRegistry(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	got := make([]*Dataset, 8)
	for i := range got {
		wg.Go(func() {
			u := p
			if i%2 == 1 {
				u = "file://" + p
			}
			d, err := reg.Open(ctx, u, WithCacheDir(dir))
			if err != nil {
				t.Error(err)
			}
			got[i] = d
		})
	}
	wg.Wait()
	for _, d := range got[1:] {
		if d != got[0] {
			t.Fatal("two opens of one file returned different handles")
		}
	}
	other, err := reg.Open(ctx, p, WithCacheDir(dir), WithFormat(FormatJSONL))
	if err != nil || other == got[0] {
		t.Errorf("a different format option shares the handle (%v)", err)
	}
	if d, err := Open(ctx, p, WithCacheDir(dir)); err != nil || d.Len() != 20 {
		t.Errorf("package Open: %v", err)
	} else if d2, _ := Open(ctx, p, WithCacheDir(dir)); d2 != d {
		t.Error("package Open returned two handles")
	}
}

func TestConcurrentRows(t *testing.T) {
	rows := makeRows(2000)
	dir := t.TempDir()
	files := map[string]string{
		"jsonl":         writeFile(t, dir, "c.jsonl", jsonlBytes(t, rows)),
		"parquet":       writeFile(t, dir, "c.parquet", parquetBytes(t, rows, 100)),
		"parquet-seek":  writeFile(t, dir, "s.parquet", parquetBytes(t, rows, 100)),
		"parquet-evict": writeFile(t, dir, "e.parquet", parquetBytes(t, rows, 100)),
	}
	for name, p := range files {
		t.Run(name, func(t *testing.T) {
			opts := []Option{WithCacheDir(dir)}
			switch name {
			case "parquet-seek":
				opts = append(opts, WithRowGroupCache(0))
			case "parquet-evict":
				opts = append(opts, WithRowGroupCache(3*rowGroupSize(t, p)))
			}
			d, err := newRegistry(t).Open(context.Background(), p, opts...)
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			for g := range 16 {
				wg.Go(func() {
					for k := range 300 {
						i := Index(uint64(g), len(rows), k)
						got, err := d.Row(context.Background(), i)
						if err != nil {
							t.Error(err)
							return
						}
						if !reflect.DeepEqual(got, want(rows[i])) {
							t.Errorf("row %d wrong under concurrency", i)
							return
						}
					}
				})
			}
			wg.Wait()
		})
	}
}

func rowGroupSize(t *testing.T, p string) int64 {
	pr, err := openParquet(p, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.close()
	return pr.sizes[0]
}
