package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// A crafted Parquet file is downloaded bytes, and parquet-go trusts the
// counts and sizes it reads: a Thrift list that claims two billion row
// groups is allocated before one is decoded, a page header that claims a
// four-gigabyte page is too. Before parquet-go sees a file, checkFooter and
// checkPages walk the Thrift structures that drive its allocations and
// refuse any count or size the bytes behind it cannot justify; a panic left
// in the library's decoding is recovered as ErrFormat.

// MaxParquetAlloc bounds what one piece of a Parquet file may ask to be
// held at once: the footer, one page (compressed or not). Writers keep pages
// near a megabyte and footers of the largest public datasets are a few
// megabytes.
const MaxParquetAlloc = 256 << 20

// maxPageValues bounds the values one page may claim (writers keep pages
// to tens of thousands of rows): run-length encoding lets a few bytes claim
// billions of nulls, each of which the reader would allocate.
const maxPageValues = 1 << 20

// maxThriftDepth bounds nesting in a Thrift structure (Parquet's deepest,
// a schema element's logical type, is four levels).
const maxThriftDepth = 32

// recoverFormat turns a panic in the Parquet library into an ErrFormat
// error. Runtime errors that are not panics (out of memory) cannot be
// recovered: the checks before are what prevent them.
func recoverFormat(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: malformed file (%v): %w", what, r, ErrFormat)
	}
}

// checkFooter validates the file's footer: magic, length, and every count
// and length in its Thrift FileMetaData.
func checkFooter(r io.ReaderAt, size int64) error {
	if size < 12 {
		return fmt.Errorf("%d bytes is too short for a Parquet file: %w", size, ErrFormat)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return fmt.Errorf("read footer: %w", err)
	}
	if string(tail[4:]) != "PAR1" {
		return fmt.Errorf("no Parquet magic at the end of the file (encrypted footers are not supported): %w", ErrFormat)
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return fmt.Errorf("footer of %d bytes in a file of %d: %w", n, size, ErrFormat)
	}
	if n > MaxParquetAlloc {
		return fmt.Errorf("footer of %d bytes, more than %d: %w", n, MaxParquetAlloc, ErrTooLarge)
	}
	b := make([]byte, n)
	if _, err := r.ReadAt(b, size-8-n); err != nil {
		return fmt.Errorf("read footer: %w", err)
	}
	w := thriftWalker{b: b}
	if err := w.structure(0); err != nil {
		return fmt.Errorf("footer: %w: %w", err, ErrFormat)
	}
	return nil
}

// pageHeader is what checkPages reads of a Thrift PageHeader.
type pageHeader struct {
	uncompressed, compressed int64
	values                   int64 // of the data or dictionary page header
}

// checkPages walks the page headers of one column chunk, [start, end) of
// the file, and refuses pages that overrun the chunk or are too large.
func checkPages(r io.ReaderAt, start, end, size int64) error {
	if start < 4 || end < start || end > size-8 {
		return fmt.Errorf("column chunk [%d, %d) outside the file's %d bytes: %w", start, end, size, ErrFormat)
	}
	buf := make([]byte, 64<<10)
	for pos := start; pos < end; {
		w, err := readPageHeader(r, pos, end, &buf)
		if err != nil {
			return err
		}
		h := w.header
		switch {
		case h.compressed < 0 || h.uncompressed < 0 || h.values < 0:
			return fmt.Errorf("page at byte %d: negative size or count: %w", pos, ErrFormat)
		case h.compressed > end-pos-int64(w.pos):
			return fmt.Errorf("page at byte %d: %d bytes overrun its column chunk: %w", pos, h.compressed, ErrFormat)
		case h.uncompressed > MaxParquetAlloc:
			return fmt.Errorf("page at byte %d: %d bytes uncompressed, more than %d: %w", pos, h.uncompressed, MaxParquetAlloc, ErrTooLarge)
		case h.values > maxPageValues:
			return fmt.Errorf("page at byte %d: %d values, more than %d: %w", pos, h.values, maxPageValues, ErrTooLarge)
		}
		pos += int64(w.pos) + h.compressed
	}
	return nil
}

// readPageHeader walks the page header at pos, reading more when a header
// (large statistics) does not fit the buffer, up to MaxParquetAlloc.
func readPageHeader(r io.ReaderAt, pos, end int64, buf *[]byte) (*thriftWalker, error) {
	for {
		want := min(int64(len(*buf)), end-pos)
		n, err := r.ReadAt((*buf)[:want], pos)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read page header at byte %d: %w", pos, err)
		}
		w := &thriftWalker{b: (*buf)[:n], header: &pageHeader{}}
		err = w.structure(0)
		if err == nil {
			return w, nil
		}
		if !errors.Is(err, errTruncated) || int64(n) < want || want == end-pos || len(*buf) >= MaxParquetAlloc {
			return nil, fmt.Errorf("page header at byte %d: %w: %w", pos, err, ErrFormat)
		}
		*buf = make([]byte, min(2*len(*buf), MaxParquetAlloc))
	}
}

// thriftWalker checks one struct of the Thrift compact protocol without
// building it: every length and element count must fit in the bytes left
// (each element takes at least one), and nesting is bounded. With header
// set, it also picks a PageHeader's sizes and value count.
type thriftWalker struct {
	b      []byte
	pos    int
	header *pageHeader
}

var (
	errThrift    = errors.New("malformed Thrift structure")
	errTruncated = fmt.Errorf("%w: truncated", errThrift)
)

// Compact protocol type ids.
const (
	tBoolTrue, tBoolFalse, tByte, tI16, tI32, tI64, tDouble, tBinary, tList, tSet, tMap, tStruct = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
)

func (w *thriftWalker) left() int { return len(w.b) - w.pos }

func (w *thriftWalker) byte() (byte, error) {
	if w.pos >= len(w.b) {
		return 0, errTruncated
	}
	w.pos++
	return w.b[w.pos-1], nil
}

func (w *thriftWalker) varint() (uint64, error) {
	x, n := binary.Uvarint(w.b[w.pos:])
	if n == 0 {
		return 0, errTruncated
	}
	if n < 0 {
		return 0, fmt.Errorf("%w: bad varint", errThrift)
	}
	w.pos += n
	return x, nil
}

func (w *thriftWalker) skip(n uint64) error {
	if n > uint64(w.left()) {
		return fmt.Errorf("%d bytes claimed, %d left: %w", n, w.left(), errTruncated)
	}
	w.pos += int(n)
	return nil
}

// structure walks fields up to the stop byte. At depth 0 of a page header
// it notes fields 2 and 3 (sizes); at depth 1, field 1 of a data, dictionary
// or v2 data page header (the value count).
func (w *thriftWalker) structure(depth int) error {
	return w.fields(depth, 0)
}

func (w *thriftWalker) fields(depth, parent int) error {
	if depth > maxThriftDepth {
		return fmt.Errorf("%w: nested deeper than %d", errThrift, maxThriftDepth)
	}
	id := 0
	for {
		h, err := w.byte()
		if err != nil {
			return err
		}
		if h == 0 {
			return nil
		}
		typ := h & 0x0f
		if d := int(h >> 4); d != 0 {
			id += d
		} else {
			z, err := w.varint()
			if err != nil {
				return err
			}
			id = int(int16(z>>1) ^ -int16(z&1))
		}
		if w.header != nil && (typ == tI32 || typ == tI64) {
			if err := w.noteInt(depth, parent, id); err != nil {
				return err
			}
			continue
		}
		if typ == tStruct {
			if err := w.fields(depth+1, id); err != nil {
				return err
			}
			continue
		}
		if err := w.value(typ, depth); err != nil {
			return err
		}
	}
}

// noteInt reads an integer field of a page header, keeping the ones
// checkPages bounds.
func (w *thriftWalker) noteInt(depth, parent, id int) error {
	z, err := w.varint()
	if err != nil {
		return err
	}
	v := int64(z>>1) ^ -int64(z&1)
	switch {
	case depth == 0 && id == 2:
		w.header.uncompressed = v
	case depth == 0 && id == 3:
		w.header.compressed = v
	case depth == 1 && id == 1 && (parent == 5 || parent == 7 || parent == 8):
		w.header.values = max(w.header.values, v)
	}
	return nil
}

func (w *thriftWalker) value(typ byte, depth int) error {
	switch typ {
	case tBoolTrue, tBoolFalse:
		return nil // the value is in the field header
	case tByte:
		return w.skip(1)
	case tI16, tI32, tI64:
		_, err := w.varint()
		return err
	case tDouble:
		return w.skip(8)
	case tBinary:
		n, err := w.varint()
		if err != nil {
			return err
		}
		return w.skip(n)
	case tList, tSet:
		return w.list(depth)
	case tMap:
		return w.mapping(depth)
	case tStruct:
		return w.fields(depth+1, 0)
	}
	return fmt.Errorf("%w: unknown type %d", errThrift, typ)
}

func (w *thriftWalker) list(depth int) error {
	h, err := w.byte()
	if err != nil {
		return err
	}
	n, elem := uint64(h>>4), h&0x0f
	if n == 15 {
		if n, err = w.varint(); err != nil {
			return err
		}
	}
	if n > uint64(w.left()) {
		return fmt.Errorf("%w: a list of %d elements in %d bytes", errThrift, n, w.left())
	}
	for range n {
		if elem == tBoolTrue || elem == tBoolFalse {
			err = w.skip(1) // a list's booleans take a byte each
		} else {
			err = w.value(elem, depth+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (w *thriftWalker) mapping(depth int) error {
	n, err := w.varint()
	if err != nil || n == 0 {
		return err
	}
	kv, err := w.byte()
	if err != nil {
		return err
	}
	if n > uint64(w.left())/2 {
		return fmt.Errorf("%w: a map of %d entries in %d bytes", errThrift, n, w.left())
	}
	for range n {
		for _, t := range []byte{kv >> 4, kv & 0x0f} {
			if t == tBoolTrue || t == tBoolFalse {
				err = w.skip(1)
			} else {
				err = w.value(t, depth+1)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}
