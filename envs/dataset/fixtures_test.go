package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
	"github.com/parquet-go/parquet-go"
)

// testRow is the fixture's row, written to JSONL and Parquet alike.
type testRow struct {
	ID       int64    `parquet:"id" json:"id"`
	Problem  string   `parquet:"problem" json:"problem"`
	Answer   string   `parquet:"answer" json:"answer"`
	Score    float64  `parquet:"score" json:"score"`
	Hard     bool     `parquet:"hard" json:"hard"`
	Tags     []string `parquet:"tags,list" json:"tags"`
	Note     *string  `parquet:"note,optional" json:"note"`
	Metadata struct {
		Source string `parquet:"source" json:"source"`
		Level  int32  `parquet:"level" json:"level"`
	} `parquet:"metadata" json:"metadata"`
}

func makeRows(n int) []testRow {
	rows := make([]testRow, n)
	for i := range rows {
		r := &rows[i]
		r.ID = int64(i)
		r.Problem = fmt.Sprintf("What is %d + %d?", i, i+1)
		r.Answer = fmt.Sprint(2*i + 1)
		r.Score = float64(i) + 0.5
		r.Hard = i%3 == 0
		r.Tags = make([]string, i%4)
		for k := range r.Tags {
			r.Tags[k] = fmt.Sprintf("t%d", k)
		}
		if i%2 == 0 {
			s := fmt.Sprintf("note %d", i)
			r.Note = &s
		}
		r.Metadata.Source = "gsm8k"
		r.Metadata.Level = int32(i % 5)
	}
	return rows
}

// want is the map Row must return for r.
func want(r testRow) map[string]any {
	tags := make([]any, len(r.Tags))
	for i, t := range r.Tags {
		tags[i] = t
	}
	var note any
	if r.Note != nil {
		note = *r.Note
	}
	return map[string]any{
		"id": r.ID, "problem": r.Problem, "answer": r.Answer, "score": r.Score, "hard": r.Hard,
		"tags": tags, "note": note,
		"metadata": map[string]any{"source": r.Metadata.Source, "level": int64(r.Metadata.Level)},
	}
}

func jsonlBytes(t testing.TB, rows []testRow) []byte {
	t.Helper()
	var buf bytes.Buffer
	for _, r := range rows {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

func parquetBytes(t testing.TB, rows []testRow, perGroup int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[testRow](&buf, parquet.MaxRowsPerRowGroup(int64(perGroup)))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gzipBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeFile(t testing.TB, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// newRegistry returns a registry closed when the test ends.
func newRegistry(t testing.TB) *Registry {
	r := NewRegistry()
	t.Cleanup(func() { r.Close() })
	return r
}

// checkAll reads every row in a shuffled order and compares it with rows.
func checkAll(t *testing.T, d *Dataset, rows []testRow) {
	t.Helper()
	if d.Len() != len(rows) {
		t.Fatalf("Len = %d, want %d", d.Len(), len(rows))
	}
	for task := range len(rows) {
		i := Index(1, len(rows), task)
		got, err := d.Row(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		if w := want(rows[i]); !reflect.DeepEqual(got, w) {
			t.Fatalf("row %d:\n got %#v\nwant %#v", i, got, w)
		}
	}
}

// arrowParquet writes, through Arrow (as pyarrow and the Hugging Face
// datasets library do), a file with the nested types Hub datasets use:
// 3-level lists, structs, lists of structs, maps, binary and nulls.
func arrowParquet(t testing.TB) ([]byte, []map[string]any) {
	t.Helper()
	test := arrow.StructOf(arrow.Field{Name: "input", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "output", Type: arrow.BinaryTypes.String, Nullable: true})
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "question", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "u", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "choices", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "tests", Type: arrow.ListOf(test), Nullable: true},
		{Name: "nested", Type: arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int64)), Nullable: true},
		{Name: "extra", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "image", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	lines := []string{
		`{"question":"q0","n":1,"f":0.5,"u":9223372036854775808,"choices":["a","b"],"tests":[{"input":"1","output":"2"},{"input":null,"output":"x"}],"nested":[[1,2],[],[3]],"extra":[{"key":"k","value":9}],"image":"AAE="}`,
		`{"question":null,"n":null,"f":null,"u":null,"choices":null,"tests":[],"nested":[null,[4]],"extra":null,"image":null}`,
		`{"question":"q2","n":-3,"f":2,"u":7,"choices":[null,"c"],"tests":null,"nested":[],"extra":[],"image":""}`,
	}
	for _, l := range lines {
		if err := b.UnmarshalJSON([]byte(l)); err != nil {
			t.Fatal(err)
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	wantRows := []map[string]any{
		{"question": "q0", "n": int64(1), "f": 0.5, "u": uint64(1 << 63), "choices": []any{"a", "b"},
			"tests":  []any{map[string]any{"input": "1", "output": "2"}, map[string]any{"input": nil, "output": "x"}},
			"nested": []any{[]any{int64(1), int64(2)}, []any{}, []any{int64(3)}}, "extra": map[string]any{"k": int64(9)},
			"image": []byte{0, 1}},
		{"question": nil, "n": nil, "f": nil, "u": nil, "choices": nil, "tests": []any{},
			"nested": []any{nil, []any{int64(4)}}, "extra": nil, "image": nil},
		{"question": "q2", "n": int64(-3), "f": 2.0, "u": int64(7), "choices": []any{nil, "c"}, "tests": nil,
			"nested": []any{}, "extra": map[string]any{}, "image": []byte{}},
	}
	return buf.Bytes(), wantRows
}
