package dataset

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Crafted files found by the fuzz targets (and the cases around them), each
// an error now: before, each was a panic, a hang or an unbounded allocation.

func TestJSONLNumberOutOfRange(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "x.jsonl", []byte("{\"a\":1}\n{\"a\":{\"b\":[1e400]}}\n"))
	d, err := newRegistry(t).Open(context.Background(), p, WithCacheDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Row(context.Background(), 1)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `field "a"`) || !strings.Contains(err.Error(), "1e400") {
		t.Fatalf("a number beyond float64: got %v, want ErrFormat naming the field and the number", err)
	}
}

// A line index is read from the cache; one that does not fit its data file
// is rebuilt, whatever it claims.
func TestJSONLCorruptIndexRebuilt(t *testing.T) {
	rows := makeRows(5)
	data := jsonlBytes(t, rows)
	header := func(n uint64) []byte {
		b := append([]byte{}, indexMagic[:]...)
		b = binary.LittleEndian.AppendUint64(b, uint64(len(data)))
		return binary.LittleEndian.AppendUint64(b, n)
	}
	negFirst := header(1)
	negFirst = binary.LittleEndian.AppendUint64(negFirst, 1<<63) // offset −2^63
	negFirst = binary.LittleEndian.AppendUint64(negFirst, uint64(len(data)))
	for name, idx := range map[string][]byte{
		"count overflows": header(^uint64(0)), // n+1 == 0 entries fit a bare header
		"count too large": append(header(1<<61), make([]byte, 16)...),
		"negative offset": negFirst,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := writeFile(t, dir, "d.jsonl", data)
			if err := os.WriteFile(p+".idx", idx, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := readIndex(p+".idx", int64(len(data))); err == nil {
				t.Fatal("readIndex accepted the crafted index")
			}
			j, err := openJSONL(context.Background(), p, p+".idx")
			if err != nil {
				t.Fatal(err)
			}
			defer j.close()
			d := &Dataset{url: p, src: j}
			checkAll(t, d, rows)
		})
	}
}

func TestJSONLRowTooLarge(t *testing.T) {
	j := &jsonlRows{offs: []int64{0, MaxRowBytes + 1}}
	if _, err := j.row(0); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a line over MaxRowBytes: got %v, want ErrTooLarge", err)
	}
}

// Crafted Parquet footers: counts and lengths the bytes cannot hold.
func TestParquetCraftedFooter(t *testing.T) {
	good := parquetBytes(t, makeRows(10), 4)
	footer := func(meta []byte) []byte {
		b := append([]byte("PAR1"), meta...)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(meta)))
		return append(b, "PAR1"...)
	}
	for name, file := range map[string][]byte{
		// FileMetaData{1: version i32 1, 2: schema list<struct> of 2^31-1}
		"list longer than the footer": footer([]byte{0x15, 0x02, 0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00}),
		// a binary field claiming 2^40 bytes
		"string longer than the footer": footer([]byte{0x18, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0x00}),
		"nesting too deep":              footer(append(bytes.Repeat([]byte{0x1c}, 100), 0x00)),
		"footer length past the file":   append(good[:len(good)-8:len(good)-8], 0xff, 0xff, 0xff, 0x7f, 'P', 'A', 'R', '1'),
		"no magic":                      good[:len(good)-1],
		"too short":                     []byte("PAR1PAR1"),
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.parquet")
			if err := os.WriteFile(p, file, 0o644); err != nil {
				t.Fatal(err)
			}
			pr, err := openParquet(p, DefaultRowGroupCache)
			if err == nil {
				pr.close()
				t.Fatal("a crafted footer opened")
			}
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("got %v, want ErrFormat", err)
			}
		})
	}
}

// pageHeaderBytes encodes a Thrift compact PageHeader: type DATA_PAGE,
// the two sizes, and a data page header with num_values.
func pageHeaderBytes(uncompressed, compressed, values int64) []byte {
	return pageHeaderStats(uncompressed, compressed, values, -1)
}

// pageHeaderStats is pageHeaderBytes with, when stats ≥ 0, statistics
// whose max value is stats bytes long.
func pageHeaderStats(uncompressed, compressed, values int64, stats int) []byte {
	i32 := func(b []byte, v int64) []byte { return binary.AppendUvarint(b, uint64(v<<1^v>>63)) }
	b := []byte{0x15}
	b = i32(b, 0)
	b = append(b, 0x15)
	b = i32(b, uncompressed)
	b = append(b, 0x15)
	b = i32(b, compressed)
	b = append(b, 0x2c, 0x15) // field 5, a struct; its field 1, i32
	b = i32(b, values)
	if stats >= 0 {
		b = append(b, 0x4c, 0x18) // field 5 (statistics), a struct; its field 1, binary
		b = binary.AppendUvarint(b, uint64(stats))
		b = append(append(b, make([]byte, stats)...), 0x00)
	}
	return append(b, 0x00, 0x00) // stop the data page header, then the page header
}

// Page headers that claim more than their column chunk holds, or more than
// a page may, fail before parquet-go reads (and allocates) them.
func TestParquetCraftedPages(t *testing.T) {
	for _, tc := range []struct {
		name    string
		hdr     []byte
		payload int
		want    error
	}{
		{"valid", pageHeaderBytes(10, 10, 5), 10, nil},
		{"two pages", append(pageHeaderBytes(3, 3, 5), append([]byte("abc"), pageHeaderBytes(4, 4, 5)...)...), 4, nil},
		{"statistics larger than the first read", pageHeaderStats(10, 10, 5, 200<<10), 10, nil},
		{"overruns its chunk", pageHeaderBytes(10, 1000, 5), 10, ErrFormat},
		{"negative size", pageHeaderBytes(10, -1, 5), 10, ErrFormat},
		{"too large uncompressed", pageHeaderBytes(MaxParquetAlloc+1, 10, 5), 10, ErrTooLarge},
		{"too many values", pageHeaderBytes(10, 10, maxPageValues+1), 10, ErrTooLarge},
		{"truncated header", pageHeaderBytes(10, 10, 5)[:5], 0, ErrFormat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := append(append([]byte("PAR1"), tc.hdr...), make([]byte, tc.payload)...)
			end := int64(len(file))
			file = append(file, make([]byte, 8)...) // where the footer would be
			err := checkPages(bytes.NewReader(file), 4, end, int64(len(file)))
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	if err := checkPages(bytes.NewReader(make([]byte, 100)), 4, 200, 100); !errors.Is(err, ErrFormat) {
		t.Errorf("a chunk past the end of the file: %v", err)
	}
}
