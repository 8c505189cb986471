package schema

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
	pschema "github.com/apache/arrow/go/v17/parquet/schema"
	parquetgo "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

func writeTurns(t testing.TB, rows []TurnRow) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteTurns(&buf, rows); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeEpisodes(t testing.TB, rows []EpisodeRow) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteEpisodes(&buf, rows); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestRoundTrip writes a batch (more turn rows than one row group holds) and
// reads both files back with two independent readers, parquet-go and Arrow's
// pqarrow, comparing every column of every row with what was written.
func TestRoundTrip(t *testing.T) {
	turns, eps := preparedBatch(t, 11, 480, 4)
	if len(turns) <= rowGroupRows {
		t.Fatalf("want more than %d turn rows to span row groups, got %d", rowGroupRows, len(turns))
	}
	// Shuffle the input: the writer must sort.
	rng := rand.New(rand.NewPCG(5, 5))
	rng.Shuffle(len(turns), func(i, j int) { turns[i], turns[j] = turns[j], turns[i] })
	rng.Shuffle(len(eps), func(i, j int) { eps[i], eps[j] = eps[j], eps[i] })
	shuffled := slices.Clone(turns)

	turnFile := writeTurns(t, turns)
	epFile := writeEpisodes(t, eps)
	if !reflect.DeepEqual(turns, shuffled) {
		t.Fatal("WriteTurns modified its input")
	}
	wantTurns := slices.Clone(turns)
	SortTurns(wantTurns)
	wantEps := slices.Clone(eps)
	SortEpisodes(wantEps)

	t.Run("parquet-go", func(t *testing.T) {
		gotTurns, err := ReadTurns(bytes.NewReader(turnFile), int64(len(turnFile)))
		if err != nil {
			t.Fatal(err)
		}
		compareRows(t, turnColumns(), wantTurns, gotTurns)
		gotEps, err := ReadEpisodes(bytes.NewReader(epFile), int64(len(epFile)))
		if err != nil {
			t.Fatal(err)
		}
		compareRows(t, episodeColumns(), wantEps, gotEps)
	})
	t.Run("pqarrow", func(t *testing.T) {
		gotTurns := readWithArrow[TurnRow](t, turnFile, turnColumns(), TurnArrowSchema())
		compareRows(t, turnColumns(), wantTurns, gotTurns)
		gotEps := readWithArrow[EpisodeRow](t, epFile, episodeColumns(), EpisodeArrowSchema())
		compareRows(t, episodeColumns(), wantEps, gotEps)
	})
}

func TestEmptyFiles(t *testing.T) {
	tf := writeTurns(t, nil)
	got, err := ReadTurns(bytes.NewReader(tf), int64(len(tf)))
	if err != nil || len(got) != 0 {
		t.Fatalf("ReadTurns of an empty file: %d rows, %v", len(got), err)
	}
	if rows := readWithArrow[TurnRow](t, tf, turnColumns(), TurnArrowSchema()); len(rows) != 0 {
		t.Fatalf("pqarrow read %d rows from an empty file", len(rows))
	}
}

// TestByteIdentical: the same rows, in any order, give the same bytes; the
// file's metadata carries the schema version and nothing that changes
// between runs or builds.
func TestByteIdentical(t *testing.T) {
	turns, eps := preparedBatch(t, 12, 40, 4)
	a, b := writeTurns(t, turns), writeTurns(t, turns)
	if !bytes.Equal(a, b) {
		t.Fatal("writing the same turn rows twice gave different bytes")
	}
	rev := slices.Clone(turns)
	slices.Reverse(rev)
	if !bytes.Equal(a, writeTurns(t, rev)) {
		t.Fatal("the same turn rows in another order gave different bytes")
	}
	revEps := slices.Clone(eps)
	slices.Reverse(revEps)
	e1, e2 := writeEpisodes(t, eps), writeEpisodes(t, revEps)
	if !bytes.Equal(e1, e2) {
		t.Fatal("the same episode rows in another order gave different bytes")
	}
	// A different row gives a different file (the test above is not vacuous).
	turns[3].Reward += 1
	if bytes.Equal(a, writeTurns(t, turns)) {
		t.Fatal("changing a reward did not change the file")
	}

	for name, data := range map[string][]byte{TableTurns: a, TableEpisodes: e1} {
		f, err := parquetgo.OpenFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		md := f.Metadata()
		if md.CreatedBy != createdBy {
			t.Errorf("%s: created_by %q, want %q", name, md.CreatedBy, createdBy)
		}
		kv := map[string]string{}
		for _, e := range md.KeyValueMetadata {
			kv[e.Key] = e.Value
		}
		want := map[string]string{MetaSchemaVersion: strconv.Itoa(SchemaVersion), MetaTable: name}
		if !reflect.DeepEqual(kv, want) {
			t.Errorf("%s: key/value metadata %v, want exactly %v", name, kv, want)
		}
		for _, rg := range md.RowGroups {
			for _, cc := range rg.Columns {
				if cc.MetaData.Codec != format.Zstd {
					t.Errorf("%s: column %v compressed with %v, want ZSTD", name, cc.MetaData.PathInSchema, cc.MetaData.Codec)
				}
			}
		}
	}
}

func TestReadRejects(t *testing.T) {
	turns, eps := preparedBatch(t, 13, 4, 2)
	ef := writeEpisodes(t, eps)
	if _, err := ReadTurns(bytes.NewReader(ef), int64(len(ef))); err == nil {
		t.Error("ReadTurns accepted an episodes file")
	}
	for _, v := range []string{"", "2", "x"} {
		var buf bytes.Buffer
		opts := []parquetgo.WriterOption{parquetgo.KeyValueMetadata(MetaTable, TableTurns)}
		if v != "" {
			opts = append(opts, parquetgo.KeyValueMetadata(MetaSchemaVersion, v))
		}
		w := parquetgo.NewGenericWriter[TurnRow](&buf, opts...)
		if _, err := w.Write(turns); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadTurns(bytes.NewReader(buf.Bytes()), int64(buf.Len())); !errors.Is(err, ErrSchemaVersion) {
			t.Errorf("schema version %q: %v, want ErrSchemaVersion", v, err)
		}
	}
}

// TestArrowSchema: the schema pqarrow reads from a written file is the one
// derived from the structs, field by field (names, types, nullability), and
// the file's list elements are required and named "element" as the derived
// schema says.
func TestArrowSchema(t *testing.T) {
	turns, eps := preparedBatch(t, 14, 6, 3)
	for _, c := range []struct {
		data    []byte
		derived *arrow.Schema
	}{{writeTurns(t, turns), TurnArrowSchema()}, {writeEpisodes(t, eps), EpisodeArrowSchema()}} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		pf, err := file.NewParquetReader(bytes.NewReader(c.data), file.WithReadProps(parquet.NewReaderProperties(mem)))
		if err != nil {
			t.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
		if err != nil {
			t.Fatal(err)
		}
		got, err := fr.Schema()
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Fields()) != len(c.derived.Fields()) {
			t.Fatalf("pqarrow read %d fields, derived %d", len(got.Fields()), len(c.derived.Fields()))
		}
		for i, want := range c.derived.Fields() {
			compareArrowField(t, want.Name, want, got.Field(i))
		}
		// pqarrow does not copy key/value metadata into the schema; read it
		// from Arrow's Parquet reader.
		kv := pf.MetaData().KeyValueMetadata()
		for _, k := range []string{MetaSchemaVersion, MetaTable} {
			w, _ := c.derived.Metadata().GetValue(k)
			g := kv.FindValue(k)
			if g == nil || *g != w || w == "" {
				t.Errorf("key/value metadata %s: file %v, derived schema %q", k, g, w)
			}
		}
		checkListElements(t, pf.MetaData().Schema.Root(), "")
		if err := pf.Close(); err != nil {
			t.Fatal(err)
		}
		mem.AssertSize(t, 0)
	}
}

// compareArrowField compares names, types and nullability. pqarrow v17 names
// every list element field after the repeated group ("list") and marks it
// nullable whatever the file says (pqarrow/schema.go listToSchemaField); the
// element's type is compared strictly and its real repetition is checked on
// the Parquet schema by checkListElements.
func compareArrowField(t *testing.T, path string, want, got arrow.Field) {
	t.Helper()
	if want.Name != got.Name || want.Nullable != got.Nullable || want.Type.ID() != got.Type.ID() {
		t.Errorf("%s: pqarrow read %s (nullable %v), derived %s (nullable %v)", path, got, got.Nullable, want, want.Nullable)
		return
	}
	switch wt := want.Type.(type) {
	case *arrow.ListType:
		ge := got.Type.(*arrow.ListType).ElemField()
		we := wt.ElemField()
		if we.Name != listElementName || we.Nullable {
			t.Errorf("%s: derived list element %s must be a required %q", path, we, listElementName)
		}
		if ge.Name != "list" || !ge.Nullable {
			t.Errorf("%s: pqarrow's list element convention changed (%s): tighten this comparison", path, ge)
		}
		we.Name, we.Nullable = ge.Name, ge.Nullable
		compareArrowField(t, path+"[]", we, ge)
	case *arrow.StructType:
		gt := got.Type.(*arrow.StructType)
		if wt.NumFields() != gt.NumFields() {
			t.Errorf("%s: %d struct fields, want %d", path, gt.NumFields(), wt.NumFields())
			return
		}
		for i := range wt.NumFields() {
			compareArrowField(t, path+"."+wt.Field(i).Name, wt.Field(i), gt.Field(i))
		}
	default:
		if !arrow.TypeEqual(want.Type, got.Type) {
			t.Errorf("%s: type %s, want %s", path, got.Type, want.Type)
		}
	}
}

func checkListElements(t *testing.T, n pschema.Node, path string) {
	t.Helper()
	g, ok := n.(*pschema.GroupNode)
	if !ok {
		return
	}
	if g.LogicalType().Equals(pschema.ListLogicalType{}) {
		elem := g.Field(0).(*pschema.GroupNode).Field(0)
		if elem.Name() != listElementName || elem.RepetitionType() != parquet.Repetitions.Required {
			t.Errorf("%s: list element %q is %s, want a required %q", path+g.Name(), elem.Name(), elem.RepetitionType(), listElementName)
		}
	}
	for i := range g.NumFields() {
		checkListElements(t, g.Field(i), path+g.Name()+".")
	}
}

// readWithArrow reads data with pqarrow under a checked allocator (asserting
// nothing leaks) and converts the Arrow table into rows by column name.
func readWithArrow[T any](t *testing.T, data []byte, cols []column, derived *arrow.Schema) []T {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	pf, err := file.NewParquetReader(bytes.NewReader(data), file.WithReadProps(parquet.NewReaderProperties(mem)))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 256}, mem)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if int(tbl.NumCols()) != len(cols) {
		t.Fatalf("pqarrow read %d columns, want %d", tbl.NumCols(), len(cols))
	}
	rows := make([]T, tbl.NumRows())
	for ci, c := range cols {
		col := tbl.Column(ci)
		if col.Name() != c.name {
			t.Fatalf("column %d is %q, want %q", ci, col.Name(), c.name)
		}
		if col.Name() != derived.Field(ci).Name {
			t.Fatalf("derived schema field %d is %q, want %q", ci, derived.Field(ci).Name, col.Name())
		}
		row := 0
		for _, chunk := range col.Data().Chunks() {
			for i := range chunk.Len() {
				v := reflect.ValueOf(&rows[row]).Elem().FieldByIndex(c.field.Index)
				if err := setFromArrow(c, v, chunk, i); err != nil {
					t.Fatalf("row %d column %s: %v", row, c.name, err)
				}
				row++
			}
		}
		if row != len(rows) {
			t.Fatalf("column %s has %d values for %d rows", c.name, row, len(rows))
		}
	}
	return rows
}

// setFromArrow stores arr[i] into dst, a field described by c.
func setFromArrow(c column, dst reflect.Value, arr arrow.Array, i int) error {
	if arr.IsNull(i) {
		if !c.nullable {
			return errors.New("null in a non-nullable column")
		}
		return nil // dst stays nil
	}
	if c.list {
		l, ok := arr.(*array.List)
		if !ok {
			return fmt.Errorf("%T, want a list", arr)
		}
		start, end := l.ValueOffsets(i)
		s := reflect.MakeSlice(dst.Type(), int(end-start), int(end-start))
		for j := start; j < end; j++ {
			if l.ListValues().IsNull(int(j)) {
				return errors.New("null list element")
			}
			if err := setElem(c, s.Index(int(j-start)), l.ListValues(), int(j)); err != nil {
				return err
			}
		}
		dst.Set(s)
		return nil
	}
	if dst.Kind() == reflect.Pointer {
		p := reflect.New(dst.Type().Elem())
		dst.Set(p)
		dst = p.Elem()
	}
	return setElem(c, dst, arr, i)
}

func setElem(c column, dst reflect.Value, arr arrow.Array, i int) error {
	if c.children != nil {
		st, ok := arr.(*array.Struct)
		if !ok {
			return fmt.Errorf("%T, want a struct", arr)
		}
		for k, ch := range c.children {
			if err := setFromArrow(ch, dst.FieldByIndex(ch.field.Index), st.Field(k), i); err != nil {
				return fmt.Errorf("%s: %w", ch.name, err)
			}
		}
		return nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		dst.SetBool(a.Value(i))
	case *array.Int8:
		dst.SetInt(int64(a.Value(i)))
	case *array.Int32:
		dst.SetInt(int64(a.Value(i)))
	case *array.Int64:
		dst.SetInt(a.Value(i))
	case *array.Float32:
		dst.SetFloat(float64(a.Value(i)))
	case *array.Float64:
		dst.SetFloat(a.Value(i))
	case *array.String:
		dst.SetString(a.Value(i))
	default:
		return fmt.Errorf("unexpected Arrow array %T", arr)
	}
	return nil
}

// compareRows compares got with want column by column. A nullable column
// must keep null apart from empty; a required list may come back as an empty
// non-nil slice for a nil one (both are the empty list).
func compareRows[T any](t *testing.T, cols []column, want, got []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	bad := 0
	for i := range want {
		w, g := reflect.ValueOf(&want[i]).Elem(), reflect.ValueOf(&got[i]).Elem()
		for _, c := range cols {
			if msg := diffValue(c, w.FieldByIndex(c.field.Index), g.FieldByIndex(c.field.Index)); msg != "" {
				t.Errorf("row %d column %s: %s", i, c.name, msg)
				if bad++; bad > 20 {
					t.Fatal("too many differences")
				}
			}
		}
	}
}

func diffValue(c column, w, g reflect.Value) string {
	if c.list {
		if c.nullable && w.IsNil() != g.IsNil() {
			return fmt.Sprintf("null %v, want null %v", g.IsNil(), w.IsNil())
		}
		if w.Len() != g.Len() {
			return fmt.Sprintf("%d elements, want %d", g.Len(), w.Len())
		}
		for j := range w.Len() {
			if msg := diffElem(c, w.Index(j), g.Index(j)); msg != "" {
				return fmt.Sprintf("[%d]: %s", j, msg)
			}
		}
		return ""
	}
	if w.Kind() == reflect.Pointer {
		if w.IsNil() != g.IsNil() {
			return fmt.Sprintf("null %v, want null %v", g.IsNil(), w.IsNil())
		}
		if w.IsNil() {
			return ""
		}
		w, g = w.Elem(), g.Elem()
	}
	return diffElem(c, w, g)
}

func diffElem(c column, w, g reflect.Value) string {
	if c.children != nil {
		for _, ch := range c.children {
			if msg := diffValue(ch, w.FieldByIndex(ch.field.Index), g.FieldByIndex(ch.field.Index)); msg != "" {
				return ch.name + ": " + msg
			}
		}
		return ""
	}
	if !w.Equal(g) {
		return fmt.Sprintf("%v, want %v", g.Interface(), w.Interface())
	}
	return ""
}
