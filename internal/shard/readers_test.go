package shard_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/internal/duckdbtest"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"github.com/quarry-rl/quarry/schema"
)

// The two readers below know nothing of package schema's internals: they
// map columns to struct fields by the parquet tag's column name, so a
// column the writer misnamed, mistyped or misplaced shows up as a
// difference.

// colName is the column name in a parquet struct tag.
func colName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
	return name
}

// optional reports whether a field may be null: a pointer, or a list
// tagged optional. Null and empty must then stay apart.
func optional(f reflect.StructField) bool {
	return f.Type.Kind() == reflect.Pointer || strings.Contains(f.Tag.Get("parquet"), ",optional")
}

// readArrow reads a Parquet file with Arrow's pqarrow under a checked
// allocator (asserting nothing leaks) into rows of T.
func readArrow[T any](t *testing.T, data []byte) []T {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	pf, err := file.NewParquetReader(bytes.NewReader(data), file.WithReadProps(parquet.NewReaderProperties(mem)))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if v := pf.MetaData().KeyValueMetadata().FindValue(schema.MetaSchemaVersion); v == nil || *v != strconv.Itoa(schema.SchemaVersion) {
		t.Fatalf("pqarrow: %s = %v, want %d", schema.MetaSchemaVersion, v, schema.SchemaVersion)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64}, mem)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	typ := reflect.TypeFor[T]()
	if int(tbl.NumCols()) != typ.NumField() {
		t.Fatalf("pqarrow: %d columns, want %d", tbl.NumCols(), typ.NumField())
	}
	rows := make([]T, tbl.NumRows())
	for ci := range typ.NumField() {
		f := typ.Field(ci)
		col := tbl.Column(ci)
		if col.Name() != colName(f) {
			t.Fatalf("pqarrow: column %d is %q, want %q", ci, col.Name(), colName(f))
		}
		row := 0
		for _, chunk := range col.Data().Chunks() {
			for i := range chunk.Len() {
				dst := reflect.ValueOf(&rows[row]).Elem().Field(ci)
				if err := fromArrow(f, dst, chunk, i); err != nil {
					t.Fatalf("pqarrow: row %d column %s: %v", row, col.Name(), err)
				}
				row++
			}
		}
		if row != len(rows) {
			t.Fatalf("pqarrow: column %s has %d values for %d rows", col.Name(), row, len(rows))
		}
	}
	return rows
}

func fromArrow(f reflect.StructField, dst reflect.Value, arr arrow.Array, i int) error {
	if arr.IsNull(i) {
		if !optional(f) {
			return errors.New("null in a required column")
		}
		return nil
	}
	return setArrow(dst, arr, i)
}

func setArrow(dst reflect.Value, arr arrow.Array, i int) error {
	switch dst.Kind() {
	case reflect.Pointer:
		p := reflect.New(dst.Type().Elem())
		if err := setArrow(p.Elem(), arr, i); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	case reflect.Slice:
		l, ok := arr.(*array.List)
		if !ok {
			return fmt.Errorf("%T for a list", arr)
		}
		start, end := l.ValueOffsets(i)
		s := reflect.MakeSlice(dst.Type(), int(end-start), int(end-start))
		for j := start; j < end; j++ {
			if l.ListValues().IsNull(int(j)) {
				return errors.New("null list element")
			}
			if err := setArrow(s.Index(int(j-start)), l.ListValues(), int(j)); err != nil {
				return fmt.Errorf("[%d]: %w", j-start, err)
			}
		}
		dst.Set(s)
		return nil
	case reflect.Struct:
		st, ok := arr.(*array.Struct)
		if !ok {
			return fmt.Errorf("%T for a struct", arr)
		}
		stt := st.DataType().(*arrow.StructType)
		if stt.NumFields() != dst.NumField() {
			return fmt.Errorf("struct with %d fields, want %d", stt.NumFields(), dst.NumField())
		}
		for k := range dst.NumField() {
			f := dst.Type().Field(k)
			idx, ok := stt.FieldIdx(colName(f))
			if !ok || idx != k {
				return fmt.Errorf("struct field %s at %d (found %v)", colName(f), idx, ok)
			}
			if err := fromArrow(f, dst.Field(k), st.Field(k), i); err != nil {
				return fmt.Errorf("%s: %w", colName(f), err)
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
		return fmt.Errorf("unexpected Arrow array %T for %s", arr, dst.Type())
	}
	return nil
}

// readDuckDB reads a Parquet file with DuckDB into rows of T.
func readDuckDB[T any](t *testing.T, data []byte) []T {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	res := duckdbtest.Run(t, path)
	if got := res.Metadata[schema.MetaSchemaVersion]; got != strconv.Itoa(schema.SchemaVersion) {
		t.Fatalf("duckdb: %s = %q, want %d", schema.MetaSchemaVersion, got, schema.SchemaVersion)
	}
	typ := reflect.TypeFor[T]()
	if len(res.Columns) != typ.NumField() {
		t.Fatalf("duckdb: %d columns, want %d", len(res.Columns), typ.NumField())
	}
	for i, c := range res.Columns {
		if c.Name != colName(typ.Field(i)) {
			t.Fatalf("duckdb: column %d is %q, want %q", i, c.Name, colName(typ.Field(i)))
		}
	}
	rows := make([]T, len(res.Rows))
	for r, obj := range res.Rows {
		if len(obj) != typ.NumField() {
			t.Fatalf("duckdb: row %d has %d values", r, len(obj))
		}
		v := reflect.ValueOf(&rows[r]).Elem()
		for k := range typ.NumField() {
			f := typ.Field(k)
			if err := fromJSON(f, v.Field(k), obj[colName(f)]); err != nil {
				t.Fatalf("duckdb: row %d column %s: %v", r, colName(f), err)
			}
		}
	}
	return rows
}

func fromJSON(f reflect.StructField, dst reflect.Value, raw any) error {
	if raw == nil {
		if !optional(f) {
			return errors.New("null in a required column")
		}
		return nil
	}
	return setJSON(dst, raw)
}

func setJSON(dst reflect.Value, raw any) error {
	num := func() (json.Number, error) {
		n, ok := raw.(json.Number)
		if !ok {
			return "", fmt.Errorf("%T (%v) for %s", raw, raw, dst.Type())
		}
		return n, nil
	}
	switch dst.Kind() {
	case reflect.Pointer:
		p := reflect.New(dst.Type().Elem())
		if err := setJSON(p.Elem(), raw); err != nil {
			return err
		}
		dst.Set(p)
	case reflect.Slice:
		list, ok := raw.([]any)
		if !ok {
			return fmt.Errorf("%T for a list", raw)
		}
		s := reflect.MakeSlice(dst.Type(), len(list), len(list))
		for j, el := range list {
			if el == nil {
				return errors.New("null list element")
			}
			if err := setJSON(s.Index(j), el); err != nil {
				return fmt.Errorf("[%d]: %w", j, err)
			}
		}
		dst.Set(s)
	case reflect.Struct:
		obj, ok := raw.(map[string]any)
		if !ok || len(obj) != dst.NumField() {
			return fmt.Errorf("%v for a struct of %d fields", raw, dst.NumField())
		}
		for k := range dst.NumField() {
			f := dst.Type().Field(k)
			if err := fromJSON(f, dst.Field(k), obj[colName(f)]); err != nil {
				return fmt.Errorf("%s: %w", colName(f), err)
			}
		}
	case reflect.String:
		s, ok := raw.(string)
		if !ok {
			return fmt.Errorf("%T for a string", raw)
		}
		dst.SetString(s)
	case reflect.Bool:
		b, ok := raw.(bool)
		if !ok {
			return fmt.Errorf("%T for a bool", raw)
		}
		dst.SetBool(b)
	case reflect.Int64:
		s, ok := raw.(string) // BIGINT comes as a decimal string
		if !ok {
			return fmt.Errorf("%T for a BIGINT, want a string", raw)
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return err
		}
		dst.SetInt(n)
	case reflect.Int8, reflect.Int32:
		n, err := num()
		if err != nil {
			return err
		}
		i, err := strconv.ParseInt(string(n), 10, dst.Type().Bits())
		if err != nil {
			return err
		}
		dst.SetInt(i)
	case reflect.Float32, reflect.Float64:
		n, err := num()
		if err != nil {
			return err
		}
		x, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return err
		}
		if dst.Kind() == reflect.Float32 && float64(float32(x)) != x {
			return fmt.Errorf("%s is not a float32 value", n)
		}
		dst.SetFloat(x)
	default:
		return fmt.Errorf("unsupported field type %s", dst.Type())
	}
	return nil
}

// derived are the columns computed by floating-point normalisation, which
// the fixture computes another way: they must agree to rounding.
var derived = map[string]bool{"return": true, "advantage": true, "advantage_group": true}

const tolerance = 1e-9

// compareRows compares got with want column by column: exactly, except
// the derived columns (to tolerance) when approx is set. Null and empty
// must stay apart in optional columns; in required lists both are the
// empty list.
func compareRows[T any](t *testing.T, reader string, want, got []T, approx bool) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", reader, len(got), len(want))
	}
	typ := reflect.TypeFor[T]()
	bad := 0
	for i := range want {
		w, g := reflect.ValueOf(&want[i]).Elem(), reflect.ValueOf(&got[i]).Elem()
		for k := range typ.NumField() {
			f := typ.Field(k)
			if msg := diff(f, w.Field(k), g.Field(k), approx && derived[colName(f)]); msg != "" {
				t.Errorf("%s: row %d column %s: %s", reader, i, colName(f), msg)
				if bad++; bad > 20 {
					t.Fatal("too many differences")
				}
			}
		}
	}
}

func diff(f reflect.StructField, w, g reflect.Value, approx bool) string {
	switch w.Kind() {
	case reflect.Pointer, reflect.Slice:
		if optional(f) && w.IsNil() != g.IsNil() {
			return fmt.Sprintf("null %v, want null %v", g.IsNil(), w.IsNil())
		}
	}
	switch w.Kind() {
	case reflect.Pointer:
		if w.IsNil() {
			return ""
		}
		return diff(reflect.StructField{Type: w.Type().Elem()}, w.Elem(), g.Elem(), approx)
	case reflect.Slice:
		if w.Len() != g.Len() {
			return fmt.Sprintf("%d elements, want %d", g.Len(), w.Len())
		}
		for j := range w.Len() {
			if msg := diff(reflect.StructField{Type: w.Type().Elem()}, w.Index(j), g.Index(j), approx); msg != "" {
				return fmt.Sprintf("[%d]: %s", j, msg)
			}
		}
		return ""
	case reflect.Struct:
		for k := range w.NumField() {
			sf := w.Type().Field(k)
			if msg := diff(sf, w.Field(k), g.Field(k), approx); msg != "" {
				return colName(sf) + ": " + msg
			}
		}
		return ""
	case reflect.Float64:
		if approx {
			if d := math.Abs(w.Float() - g.Float()); d > tolerance*math.Max(1, math.Abs(w.Float())) {
				return fmt.Sprintf("%v, want %v (off by %g)", g.Float(), w.Float(), d)
			}
			return ""
		}
	}
	if !w.Equal(g) {
		return fmt.Sprintf("%v, want %v", g.Interface(), w.Interface())
	}
	return ""
}
