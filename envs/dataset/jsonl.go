package dataset

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"sync"
)

// jsonlRows reads rows of a JSON Lines file through an index of line
// offsets: Row(i) is one positioned read and one decode, whatever the size
// of the file.
type jsonlRows struct {
	f    *os.File
	offs []int64 // offs[i] is where row i starts; offs[len-1] is the file size
	cols []string
}

// Index file layout, little-endian: magic, the data file's size, the row
// count n, then n+1 offsets.
var indexMagic = [8]byte{'Q', 'R', 'Y', 'J', 'I', 'X', '0', '1'}

const indexHeader = 24

func openJSONL(ctx context.Context, p, idxPath string) (*jsonlRows, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	offs, err := readIndex(idxPath, fi.Size())
	if err != nil {
		if offs, err = buildIndex(ctx, f, fi.Size()); err != nil {
			f.Close()
			return nil, err
		}
		if err := writeIndex(idxPath, fi.Size(), offs); err != nil {
			f.Close()
			return nil, err
		}
	}
	j := &jsonlRows{f: f, offs: offs}
	if j.len() > 0 {
		first, err := j.row(0)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("row 0: %w", err)
		}
		for k := range first {
			j.cols = append(j.cols, k)
		}
		slices.Sort(j.cols)
	}
	return j, nil
}

// buildIndex finds, in one streaming pass, where every non-blank line
// starts.
func buildIndex(ctx context.Context, f *os.File, size int64) ([]int64, error) {
	buf := make([]byte, 1<<20)
	var offs []int64
	var pos, lineStart int64
	content := false
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
		n, err := f.ReadAt(buf, pos)
		b := buf[:n]
		for len(b) > 0 {
			i := bytes.IndexByte(b, '\n')
			seg := b
			if i >= 0 {
				seg = b[:i]
			}
			if !content && !blank(seg) {
				content = true
			}
			if i < 0 {
				pos += int64(len(b))
				break
			}
			pos += int64(i + 1)
			b = b[i+1:]
			if content {
				offs = append(offs, lineStart)
			}
			lineStart, content = pos, false
		}
		if errors.Is(err, io.EOF) || pos >= size {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
	}
	if content {
		offs = append(offs, lineStart)
	}
	return append(offs, pos), nil
}

func blank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

func writeIndex(p string, size int64, offs []int64) error {
	return writeAtomic(p, func(w io.Writer) error {
		bw := make([]byte, 0, 1<<16)
		bw = append(bw, indexMagic[:]...)
		bw = binary.LittleEndian.AppendUint64(bw, uint64(size))
		bw = binary.LittleEndian.AppendUint64(bw, uint64(len(offs)-1))
		for _, o := range offs {
			if len(bw)+8 > cap(bw) {
				if _, err := w.Write(bw); err != nil {
					return fmt.Errorf("write index: %w", err)
				}
				bw = bw[:0]
			}
			bw = binary.LittleEndian.AppendUint64(bw, uint64(o))
		}
		if _, err := w.Write(bw); err != nil {
			return fmt.Errorf("write index: %w", err)
		}
		return nil
	})
}

// readIndex loads an index written for a data file of the given size; any
// mismatch is an error, and the caller rebuilds.
func readIndex(p string, size int64) ([]int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var h [indexHeader]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return nil, err
	}
	if [8]byte(h[:8]) != indexMagic || int64(binary.LittleEndian.Uint64(h[8:])) != size {
		return nil, errors.New("stale index")
	}
	n := binary.LittleEndian.Uint64(h[16:])
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	// Compare by division: n comes from the file, and 8*(n+1) may overflow.
	body := fi.Size() - indexHeader
	if body < 8 || body%8 != 0 || uint64(body/8) != n+1 || n > uint64(size) {
		return nil, errors.New("truncated index")
	}
	offs := make([]int64, n+1)
	buf := make([]byte, 1<<16)
	for i := 0; i < len(offs); {
		k := min(len(buf)/8, len(offs)-i)
		if _, err := io.ReadFull(f, buf[:8*k]); err != nil {
			return nil, err
		}
		for j := range k {
			offs[i+j] = int64(binary.LittleEndian.Uint64(buf[8*j:]))
		}
		i += k
	}
	if offs[0] < 0 || offs[n] != size || !slices.IsSorted(offs) {
		return nil, errors.New("corrupt index")
	}
	return offs, nil
}

func (j *jsonlRows) len() int          { return len(j.offs) - 1 }
func (j *jsonlRows) columns() []string { return j.cols }
func (j *jsonlRows) close() error      { return j.f.Close() }

// lineBufs holds read buffers for lines of ordinary size.
var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

func (j *jsonlRows) row(i int) (map[string]any, error) {
	start, end := j.offs[i], j.offs[i+1]
	if end-start > MaxRowBytes {
		return nil, fmt.Errorf("line at byte %d is %d bytes, more than the %d a row may hold: %w", start, end-start, MaxRowBytes, ErrTooLarge)
	}
	n := int(end - start)
	var b []byte
	if n <= 64<<10 {
		bp := lineBufs.Get().(*[]byte)
		defer lineBufs.Put(bp)
		b = (*bp)[:n]
	} else {
		b = make([]byte, n)
	}
	if _, err := j.f.ReadAt(b, start); err != nil && !(errors.Is(err, io.EOF)) {
		return nil, fmt.Errorf("read at byte %d: %w", start, err)
	}
	return decodeLine(b, start)
}

func decodeLine(b []byte, at int64) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("line at byte %d is not a JSON object: %w: %w", at, err, ErrFormat)
	}
	if m == nil {
		return nil, fmt.Errorf("line at byte %d is not a JSON object: %w", at, ErrFormat)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("line at byte %d holds more than one JSON value: %w", at, ErrFormat)
	}
	for k, v := range m {
		var err error
		if m[k], err = numbers(v); err != nil {
			return nil, fmt.Errorf("line at byte %d: field %q: %w", at, k, err)
		}
	}
	return m, nil
}

// numbers turns json.Number into int64 when the number is an integer that
// fits, float64 otherwise. A number beyond float64's range is an error: as
// ±Inf it could not be written back as JSON (info, ground truth).
func numbers(v any) (any, error) {
	var err error
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i, nil
		}
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return nil, fmt.Errorf("number %.40s is out of range: %w", x, ErrFormat)
		}
		return f, nil
	case []any:
		for i := range x {
			if x[i], err = numbers(x[i]); err != nil {
				return nil, err
			}
		}
	case map[string]any:
		for k, e := range x {
			if x[k], err = numbers(e); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}
