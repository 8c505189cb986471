package dataset

import (
	"container/list"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"slices"
	"sort"
	"sync"
	"time"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

// parquetRows reads rows of a Parquet file through its row-group metadata:
// Row(i) finds i's row group and reads that row, never the whole file. Row
// groups small enough for the cache are decoded whole once (random access
// within a group would otherwise decode its pages again for every row);
// larger ones are read by seeking to the row each time.
type parquetRows struct {
	f      *os.File
	pf     *parquet.File
	size   int64   // of the file
	starts []int64 // starts[g] is the first row of group g; starts[len-1] the row count
	sizes  []int64 // uncompressed bytes of each group, from the metadata
	fields []*pnode
	cols   []string
	cache  *groupCache

	mu      sync.Mutex
	checked []bool // checked[g]: group g's pages passed checkPages
}

func openParquet(p string, cacheBytes int64) (_ *parquetRows, err error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	defer recoverFormat(&err, "open parquet")
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkFooter(f, fi.Size()); err != nil {
		return nil, fmt.Errorf("open parquet: %w", err)
	}
	// Bloom filters and page indexes are not read: rows are found through
	// the row-group metadata, and fewer structures read are fewer to trust.
	pf, err := parquet.OpenFile(f, fi.Size(), parquet.SkipBloomFilters(true), parquet.SkipPageIndex(true))
	if err != nil {
		return nil, fmt.Errorf("open parquet: %w: %w", err, ErrFormat)
	}
	pr := &parquetRows{f: f, pf: pf, size: fi.Size(), starts: []int64{0}, cache: newGroupCache(cacheBytes)}
	md := pf.Metadata()
	if len(md.RowGroups) != len(pf.RowGroups()) {
		return nil, fmt.Errorf("open parquet: %d row groups in the metadata, %d read: %w", len(md.RowGroups), len(pf.RowGroups()), ErrFormat)
	}
	for g, rg := range pf.RowGroups() {
		n := rg.NumRows()
		if n < 0 || pr.starts[g]+n < pr.starts[g] || pr.starts[g]+n > math.MaxInt32 {
			return nil, fmt.Errorf("open parquet: row group %d: %d rows: %w", g, n, ErrFormat)
		}
		pr.starts = append(pr.starts, pr.starts[g]+n)
		pr.sizes = append(pr.sizes, md.RowGroups[g].TotalByteSize)
	}
	pr.checked = make([]bool, len(pr.sizes))
	col := 0
	for _, fld := range pf.Schema().Fields() {
		n, err := compile(fld, &col)
		if err != nil {
			return nil, fmt.Errorf("parquet schema: column %q: %w: %w", fld.Name(), err, ErrFormat)
		}
		pr.fields = append(pr.fields, n)
		pr.cols = append(pr.cols, fld.Name())
	}
	slices.Sort(pr.cols)
	return pr, nil
}

func (p *parquetRows) len() int          { return int(p.starts[len(p.starts)-1]) }
func (p *parquetRows) columns() []string { return p.cols }
func (p *parquetRows) close() error      { return p.f.Close() }

func (p *parquetRows) row(i int) (_ map[string]any, err error) {
	defer recoverFormat(&err, "read parquet")
	g := sort.Search(len(p.starts)-1, func(g int) bool { return p.starts[g+1] > int64(i) })
	j := int64(i) - p.starts[g]
	if err := p.checkGroup(g); err != nil {
		return nil, err
	}
	var row parquet.Row
	if p.cache.fits(p.sizes[g]) {
		rows, err := p.cache.get(g, p.sizes[g], func() ([]parquet.Row, error) { return p.readGroup(g) })
		if err != nil {
			return nil, err
		}
		row = rows[j]
	} else {
		rows := p.pf.RowGroups()[g].Rows()
		defer rows.Close()
		if err := rows.SeekToRow(j); err != nil {
			return nil, fmt.Errorf("row group %d: seek to row %d: %w", g, j, err)
		}
		buf := []parquet.Row{nil}
		n, err := rows.ReadRows(buf)
		if n != 1 {
			if err == nil || errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("row group %d: read row %d: %w", g, j, err)
		}
		row = buf[0]
	}
	return p.assemble(row)
}

// checkGroup walks the page headers of group g's column chunks before
// parquet-go reads them (once per group: the file does not change).
func (p *parquetRows) checkGroup(g int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.checked[g] {
		return nil
	}
	for c, cc := range p.pf.Metadata().RowGroups[g].Columns {
		md := cc.MetaData
		start := md.DataPageOffset
		if md.DictionaryPageOffset != 0 {
			start = md.DictionaryPageOffset
		}
		if err := checkPages(p.f, start, start+md.TotalCompressedSize, p.size); err != nil {
			return fmt.Errorf("row group %d, column %d: %w", g, c, err)
		}
	}
	p.checked[g] = true
	return nil
}

// readGroup decodes a whole row group, copying values out of the reader's
// buffers.
func (p *parquetRows) readGroup(g int) (_ []parquet.Row, err error) {
	defer recoverFormat(&err, fmt.Sprintf("row group %d", g))
	rg := p.pf.RowGroups()[g]
	rows := rg.Rows()
	defer rows.Close()
	// The metadata's sizes are the file's word: count what is decoded, so a
	// group that claims little and holds a flood of values (run-length
	// encoded nulls cost no bytes) fails instead of filling memory.
	limit := max(p.cache.budget, MaxParquetAlloc) / int64(unsafe.Sizeof(parquet.Value{}))
	var values int64
	out := make([]parquet.Row, 0, min(rg.NumRows(), 1<<16))
	buf := make([]parquet.Row, 256)
	for {
		n, err := rows.ReadRows(buf)
		for _, r := range buf[:n] {
			if values += int64(len(r)); values > limit {
				return nil, fmt.Errorf("row group %d: more than %d values decoded: %w", g, limit, ErrTooLarge)
			}
			out = append(out, r.Clone())
		}
		if errors.Is(err, io.EOF) || (err == nil && n == 0) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("row group %d: %w", g, err)
		}
	}
	if int64(len(out)) != rg.NumRows() {
		return nil, fmt.Errorf("row group %d: read %d rows, metadata says %d: %w", g, len(out), rg.NumRows(), ErrFormat)
	}
	return out, nil
}

// assemble rebuilds one row's nested values from its leaf values
// (Dremel record assembly: repetition levels split lists, definition levels
// mark nulls).
func (p *parquetRows) assemble(row parquet.Row) (map[string]any, error) {
	ncol := 0
	for _, f := range p.fields {
		ncol += f.ncols
	}
	cols := make([][]parquet.Value, ncol)
	start := 0
	for k := 1; k <= len(row); k++ {
		if k == len(row) || row[k].Column() != row[start].Column() {
			c := row[start].Column()
			if c < 0 || c >= ncol {
				return nil, fmt.Errorf("value of unknown column %d: %w", c, ErrFormat)
			}
			cols[c] = row[start:k]
			start = k
		}
	}
	for c, v := range cols {
		if len(v) == 0 {
			return nil, fmt.Errorf("no value for leaf column %d: %w", c, ErrFormat)
		}
	}
	m := make(map[string]any, len(p.fields))
	off := 0
	for _, f := range p.fields {
		v, err := f.assemble(levels{}, cols[off:off+f.ncols])
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", f.name, err)
		}
		m[f.name] = v
		off += f.ncols
	}
	return m, nil
}

type nodeKind int

const (
	kindLeaf nodeKind = iota
	kindStruct
	kindList // children[0] is the repeated node; unwrap says whether its single field is the element
	kindMap  // children[0] is the repeated key_value group
)

type repetition int

const (
	required repetition = iota
	optional
	repeated
)

// pnode is a schema node compiled for assembly.
type pnode struct {
	name     string
	rep      repetition
	kind     nodeKind
	children []*pnode
	unwrap   bool // kindList: the element is children[0].children[0]
	ncols    int  // leaf columns under the node
	leaf     leafType
}

// leafType says how a leaf's physical values become Go values.
type leafType struct {
	str      bool // UTF-8 text: string
	uuid     bool
	unsigned bool
	date     bool
	ts       time.Duration // timestamp unit; 0 when not a timestamp
	decimal  int32         // scale, when dec
	dec      bool
}

func compile(n parquet.Field, col *int) (*pnode, error) {
	pn := &pnode{name: n.Name()}
	switch {
	case n.Repeated():
		pn.rep = repeated
	case n.Optional():
		pn.rep = optional
	}
	if n.Leaf() {
		pn.kind, pn.ncols, pn.leaf = kindLeaf, 1, leafTypeOf(n.Type())
		*col++
		return pn, nil
	}
	lt, ct := n.Type().LogicalType(), n.Type().ConvertedType()
	isList := (lt != nil && isLogical[*format.ListType](lt)) || (ct != nil && *ct == deprecated.List)
	isMap := (lt != nil && isLogical[*format.MapType](lt)) || (ct != nil && (*ct == deprecated.Map || *ct == deprecated.MapKeyValue))
	fields := n.Fields()
	switch {
	case isList && len(fields) == 1 && fields[0].Repeated():
		c, err := compile(fields[0], col)
		if err != nil {
			return nil, err
		}
		pn.kind, pn.children, pn.ncols = kindList, []*pnode{c}, c.ncols
		// Backward-compatibility rules of the format: a repeated group with
		// one field wraps the element, unless it is named "array" or
		// "<list>_tuple", in which case the group is the element.
		pn.unwrap = c.kind == kindStruct && len(c.children) == 1 && c.name != "array" && c.name != pn.name+"_tuple"
		return pn, nil
	case isMap && len(fields) == 1 && fields[0].Repeated() && !fields[0].Leaf() && len(fields[0].Fields()) == 2:
		c, err := compile(fields[0], col)
		if err != nil {
			return nil, err
		}
		pn.kind, pn.children, pn.ncols = kindMap, []*pnode{c}, c.ncols
		return pn, nil
	}
	pn.kind = kindStruct
	for _, f := range fields {
		c, err := compile(f, col)
		if err != nil {
			return nil, err
		}
		pn.children = append(pn.children, c)
		pn.ncols += c.ncols
	}
	if pn.ncols == 0 {
		return nil, errors.New("empty group")
	}
	return pn, nil
}

func isLogical[T format.LogicalTypeValue](lt *format.LogicalType) bool {
	_, ok := lt.Value.(T)
	return ok
}

func leafTypeOf(t parquet.Type) leafType {
	var l leafType
	if lt := t.LogicalType(); lt != nil && lt.Value != nil {
		switch v := lt.Value.(type) {
		case *format.StringType, *format.EnumType, *format.JsonType:
			l.str = true
		case *format.UUIDType:
			l.uuid = true
		case *format.IntType:
			l.unsigned = !v.IsSigned
		case *format.DateType:
			l.date = true
		case *format.TimestampType:
			if v.Unit.Value != nil {
				l.ts = v.Unit.Value.Duration()
			}
		case *format.DecimalType:
			l.dec, l.decimal = true, v.Scale
		}
		return l
	}
	if ct := t.ConvertedType(); ct != nil {
		switch *ct {
		case deprecated.UTF8, deprecated.Enum, deprecated.Json:
			l.str = true
		case deprecated.Uint8, deprecated.Uint16, deprecated.Uint32, deprecated.Uint64:
			l.unsigned = true
		case deprecated.Date:
			l.date = true
		case deprecated.TimestampMillis:
			l.ts = time.Millisecond
		case deprecated.TimestampMicros:
			l.ts = time.Microsecond
		}
	}
	return l
}

type levels struct{ rep, def int }

func (n *pnode) assemble(lv levels, cols [][]parquet.Value) (any, error) {
	switch n.rep {
	case optional:
		lv.def++
		if cols[0][0].DefinitionLevel() < lv.def {
			return nil, nil
		}
	case repeated:
		return repeatedOf(lv, cols, n.assembleRequired)
	}
	return n.assembleRequired(lv, cols)
}

// repeatedOf splits the values of a repeated node into its elements and
// assembles each with elem.
func repeatedOf(lv levels, cols [][]parquet.Value, elem func(levels, [][]parquet.Value) (any, error)) ([]any, error) {
	lv.rep++
	lv.def++
	out := []any{}
	if cols[0][0].DefinitionLevel() < lv.def {
		return out, nil
	}
	pos := make([]int, len(cols))
	sub := make([][]parquet.Value, len(cols))
	for pos[0] < len(cols[0]) {
		for j, c := range cols {
			if pos[j] >= len(c) {
				return nil, fmt.Errorf("leaf columns disagree on list length: %w", ErrFormat)
			}
			k := pos[j] + 1
			for k < len(c) && c[k].RepetitionLevel() > lv.rep {
				k++
			}
			sub[j], pos[j] = c[pos[j]:k], k
		}
		v, err := elem(lv, sub)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (n *pnode) assembleRequired(lv levels, cols [][]parquet.Value) (any, error) {
	switch n.kind {
	case kindLeaf:
		return n.leaf.value(cols[0][0])
	case kindStruct:
		m := make(map[string]any, len(n.children))
		off := 0
		for _, c := range n.children {
			v, err := c.assemble(lv, cols[off:off+c.ncols])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.name, err)
			}
			m[c.name] = v
			off += c.ncols
		}
		return m, nil
	case kindList:
		r := n.children[0]
		if n.unwrap {
			return repeatedOf(lv, cols, r.children[0].assemble)
		}
		return repeatedOf(lv, cols, r.assembleRequired)
	case kindMap:
		kv := n.children[0]
		k, v := kv.children[0], kv.children[1]
		m := map[string]any{}
		_, err := repeatedOf(lv, cols, func(lv levels, cols [][]parquet.Value) (any, error) {
			key, err := k.assemble(lv, cols[:k.ncols])
			if err != nil {
				return nil, err
			}
			val, err := v.assemble(lv, cols[k.ncols:])
			if err != nil {
				return nil, err
			}
			ks, ok := key.(string)
			if !ok {
				ks = fmt.Sprint(key)
			}
			m[ks] = val
			return nil, nil
		})
		return m, err
	}
	return nil, fmt.Errorf("unknown node kind %d", n.kind)
}

// value converts one leaf value, copying bytes out of the reader's buffers.
func (l leafType) value(v parquet.Value) (any, error) {
	if v.IsNull() {
		return nil, nil
	}
	switch v.Kind() {
	case parquet.Boolean:
		return v.Boolean(), nil
	case parquet.Int32:
		switch {
		case l.date:
			return time.Unix(int64(v.Int32())*86400, 0).UTC(), nil
		case l.dec:
			return float64(v.Int32()) / math.Pow10(int(l.decimal)), nil
		case l.unsigned:
			return int64(uint32(v.Int32())), nil
		}
		return int64(v.Int32()), nil
	case parquet.Int64:
		switch {
		case l.ts != 0:
			return time.Unix(0, 0).Add(time.Duration(v.Int64()) * l.ts).UTC(), nil
		case l.dec:
			return float64(v.Int64()) / math.Pow10(int(l.decimal)), nil
		case l.unsigned && v.Int64() < 0:
			return uint64(v.Int64()), nil
		}
		return v.Int64(), nil
	case parquet.Int96:
		// Legacy (Impala) timestamp: nanoseconds of the day, Julian day.
		x := v.Int96()
		nanos := int64(uint64(x[1])<<32 | uint64(x[0]))
		return time.Unix((int64(x[2])-2440588)*86400, nanos).UTC(), nil
	case parquet.Float:
		return float64(v.Float()), nil
	case parquet.Double:
		return v.Double(), nil
	case parquet.ByteArray, parquet.FixedLenByteArray:
		b := v.ByteArray()
		switch {
		case l.str:
			return string(b), nil
		case l.uuid && len(b) == 16:
			h := hex.EncodeToString(b)
			return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
		case l.dec:
			f, _ := new(big.Float).SetInt(signedBig(b)).Float64()
			return f / math.Pow10(int(l.decimal)), nil
		}
		return slices.Clone(b), nil
	}
	return nil, fmt.Errorf("unsupported physical type %s: %w", v.Kind(), ErrFormat)
}

// signedBig reads a big-endian two's-complement integer.
func signedBig(b []byte) *big.Int {
	x := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return x
}

// groupCache keeps decoded row groups up to a byte budget, least recently
// used first out; concurrent requests for one group decode it once.
type groupCache struct {
	budget int64
	mu     sync.Mutex
	used   int64
	lru    *list.List // of *cachedGroup, most recent at the front
	groups map[int]*cachedGroup
}

type cachedGroup struct {
	g    int
	size int64
	elem *list.Element
	done chan struct{}
	rows []parquet.Row
	err  error
}

func newGroupCache(budget int64) *groupCache {
	return &groupCache{budget: budget, lru: list.New(), groups: map[int]*cachedGroup{}}
}

func (c *groupCache) fits(size int64) bool { return c.budget > 0 && size > 0 && size <= c.budget }

func (c *groupCache) get(g int, size int64, load func() ([]parquet.Row, error)) ([]parquet.Row, error) {
	c.mu.Lock()
	if e, ok := c.groups[g]; ok {
		if e.elem != nil {
			c.lru.MoveToFront(e.elem)
		}
		c.mu.Unlock()
		<-e.done
		return e.rows, e.err
	}
	e := &cachedGroup{g: g, size: size, done: make(chan struct{})}
	c.groups[g] = e
	c.mu.Unlock()

	func() {
		// Waiters are released however load ends.
		defer close(e.done)
		e.rows, e.err = load()
	}()

	c.mu.Lock()
	defer c.mu.Unlock()
	if e.err != nil {
		delete(c.groups, g)
		return nil, e.err
	}
	e.elem = c.lru.PushFront(e)
	c.used += size
	for c.used > c.budget && c.lru.Len() > 1 {
		old := c.lru.Back().Value.(*cachedGroup)
		c.lru.Remove(old.elem)
		delete(c.groups, old.g)
		c.used -= old.size
	}
	return e.rows, nil
}
