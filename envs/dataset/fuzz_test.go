package dataset

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// The fuzz targets feed crafted files to the readers a worker runs on
// downloaded data. A crafted file must give an error, never a panic, a hang
// or an allocation beyond what the file's size justifies. `make fuzz` runs
// each for a bounded time.

// shippedSamples are the JSONL samples the project ships: the seed corpus.
var shippedSamples = []string{
	"../dataenv/testdata/sample.jsonl",
	"../mathenv/samples/gsm8k.jsonl",
	"../mathenv/samples/math500.jsonl",
	"../mathenv/testdata/malformed.jsonl",
	"../codeenv/samples/code.jsonl",
	"../qaenv/samples/qa.jsonl",
	"../qaenv/samples/ruletaker-d0.jsonl",
}

// sampleHead returns the first n lines of a shipped sample.
func sampleHead(t testing.TB, p string, n int) []byte {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []byte
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for i := 0; i < n && sc.Scan(); i++ {
		out = append(append(out, sc.Bytes()...), '\n')
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// failOnHang crashes the fuzzing worker when one input runs longer than
// any input should: the fuzzer then reports the input as a failure (it has
// no per-input timeout of its own, and a hang would only stall it).
func failOnHang(t *testing.T) {
	tm := time.AfterFunc(20*time.Second, func() {
		pprof.Lookup("goroutine").WriteTo(os.Stderr, 2)
		panic("one input ran for 20s: a hang")
	})
	t.Cleanup(func() { tm.Stop() })
}

// readSome reads rows spread over the source — the first rows and the
// first and last of every Parquet row group, at most 64 in all, so one
// input stays fast however many rows a crafted file claims. An error is a
// fine answer to a crafted file; a panic or a hang is not.
func readSome(src rowSource) {
	picks := []int{0, 1, 2, src.len() - 1}
	if pr, ok := src.(*parquetRows); ok {
		for g := range len(pr.starts) - 1 {
			picks = append(picks, int(pr.starts[g]), int(pr.starts[g+1])-1)
		}
	}
	for _, i := range picks[:min(len(picks), 64)] {
		if i >= 0 && i < src.len() {
			src.row(i)
		}
	}
}

func FuzzJSONL(f *testing.F) {
	for _, p := range shippedSamples {
		f.Add(sampleHead(f, p, 4))
	}
	f.Add(jsonlBytes(f, makeRows(3)))
	f.Add([]byte("{\"a\":1}\n\n  \n{\"a\":[1,2,{\"b\":1e400}]}\r\n{}"))
	f.Add([]byte(`{"a":1} {"b":2}` + "\n" + `[1]` + "\nnull\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		failOnHang(t)
		dir := t.TempDir()
		p := filepath.Join(dir, "d.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// The line index is built as openJSONL builds it, but not written
		// (a synced file per input would slow the fuzzer to a crawl);
		// FuzzJSONLIndex covers reading and writing it.
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		offs, err := buildIndex(context.Background(), f, int64(len(data)))
		if err != nil {
			t.Fatal(err) // any bytes can be indexed
		}
		j := &jsonlRows{f: f, offs: offs}
		defer j.close()
		// The index covers the file: rows end where the file does.
		if j.offs[len(j.offs)-1] != int64(len(data)) {
			t.Fatalf("index ends at %d, file has %d bytes", j.offs[len(j.offs)-1], len(data))
		}
		for i := range j.len() {
			row, err := j.row(i)
			if err != nil {
				continue
			}
			// A decoded row re-encodes (Extra must stay JSON-serialisable).
			if _, err := json.Marshal(row); err != nil {
				t.Fatalf("row %d does not re-encode: %v", i, err)
			}
		}
	})
}

// FuzzJSONLIndex feeds crafted line indexes (the cache is disk, and disks
// and crashed writers corrupt files) to a JSONL reader over valid data.
func FuzzJSONLIndex(f *testing.F) {
	data := sampleHead(f, shippedSamples[0], 3)
	offs, err := buildIndex(context.Background(), bytesFile(f, data), int64(len(data)))
	if err != nil {
		f.Fatal(err)
	}
	good := filepath.Join(f.TempDir(), "i.idx")
	if err := writeIndex(good, int64(len(data)), offs); err != nil {
		f.Fatal(err)
	}
	idx, err := os.ReadFile(good)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(idx)
	f.Add(idx[:indexHeader])
	huge := bytes.Clone(idx[:indexHeader])
	binary.LittleEndian.PutUint64(huge[16:], ^uint64(0)) // n+1 overflows
	f.Add(huge)
	neg := bytes.Clone(idx)
	binary.LittleEndian.PutUint64(neg[indexHeader:], uint64(1)<<63) // a negative first offset
	f.Add(neg)
	f.Fuzz(func(t *testing.T, index []byte) {
		failOnHang(t)
		dir := t.TempDir()
		p := filepath.Join(dir, "d.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p+".idx", index, 0o644); err != nil {
			t.Fatal(err)
		}
		if offs, err := readIndex(p+".idx", int64(len(data))); err == nil {
			if len(offs) == 0 || offs[0] < 0 || offs[len(offs)-1] != int64(len(data)) {
				t.Fatalf("readIndex accepted offsets %v for %d bytes", offs, len(data))
			}
		}
		j, err := openJSONL(context.Background(), p, p+".idx")
		if err != nil {
			return
		}
		defer j.close()
		readSome(j)
	})
}

func FuzzParquet(f *testing.F) {
	f.Add(parquetBytes(f, makeRows(20), 7))
	nested, _ := arrowParquet(f)
	f.Add(nested)
	for _, p := range shippedSamples[:3] {
		f.Add(sampleParquet(f, sampleHead(f, p, 5)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		failOnHang(t)
		p := filepath.Join(t.TempDir(), "d.parquet")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cache := range []int64{DefaultRowGroupCache, 0} {
			pr, err := openParquet(p, cache)
			if err != nil {
				if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrTooLarge) {
					t.Fatalf("open: an error that is neither ErrFormat nor ErrTooLarge: %v", err)
				}
				return
			}
			readSome(pr)
			pr.close()
		}
	})
}

// sampleParquet converts JSONL rows of problem/answer samples to Parquet,
// compressed with zstd (klauspost/compress decodes it).
func sampleParquet(t testing.TB, jsonl []byte) []byte {
	t.Helper()
	type row struct {
		Problem  string `parquet:"problem" json:"problem"`
		Question string `parquet:"question,optional" json:"question"`
		Answer   string `parquet:"answer,optional" json:"answer"`
	}
	var rows []row
	for _, l := range bytes.Split(bytes.TrimSpace(jsonl), []byte("\n")) {
		var r row
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[row](&buf, parquet.Compression(&parquet.Zstd), parquet.MaxRowsPerRowGroup(2))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// bytesFile writes b to a temporary file and opens it.
func bytesFile(t testing.TB, b []byte) *os.File {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
