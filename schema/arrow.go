package schema

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/arrow/go/v17/arrow"
)

// A column as the struct tags define it. The Arrow schema and the docs are
// both derived from this one walk over the row structs, so they cannot
// disagree with the Parquet files (which parquet-go derives from the same
// tags).
type column struct {
	name     string
	field    reflect.StructField
	nullable bool
	list     bool         // a Parquet LIST; elements are never null
	elem     reflect.Type // the scalar or struct type (element type for lists)
	children []column     // struct fields, for struct elements
	doc      string
}

// parquet tag options this package uses; anything else is a mistake in a
// row definition and panics at init, in every test.
var knownOptions = map[string]bool{"optional": true, "list": true, "dict": true, "split": true, "delta": true, "plain": true}

func columnsOf(t reflect.Type) []column {
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("schema: %s is not a struct", t))
	}
	cols := make([]column, 0, t.NumField())
	for i := range t.NumField() {
		cols = append(cols, columnOf(t, t.Field(i)))
	}
	return cols
}

func columnOf(parent reflect.Type, f reflect.StructField) column {
	tag, ok := f.Tag.Lookup("parquet")
	if !ok || tag == "" || tag == "-" {
		panic(fmt.Sprintf("schema: %s.%s has no parquet tag", parent, f.Name))
	}
	opts := strings.Split(tag, ",")
	c := column{name: opts[0], field: f, doc: f.Tag.Get("doc")}
	if c.name == "" {
		panic(fmt.Sprintf("schema: %s.%s has no column name", parent, f.Name))
	}
	if c.doc == "" {
		panic(fmt.Sprintf("schema: column %s (%s.%s) has no doc tag", c.name, parent, f.Name))
	}
	for _, o := range opts[1:] {
		if !knownOptions[o] {
			panic(fmt.Sprintf("schema: column %s: unsupported parquet option %q", c.name, o))
		}
		switch o {
		case "optional":
			c.nullable = true
		case "list":
			c.list = true
		}
	}
	t := f.Type
	switch {
	case c.list:
		if t.Kind() != reflect.Slice {
			panic(fmt.Sprintf("schema: column %s: list tag on %s", c.name, t))
		}
		t = t.Elem()
	case t.Kind() == reflect.Pointer:
		c.nullable = true
		t = t.Elem()
	case c.nullable:
		panic(fmt.Sprintf("schema: column %s: optional scalars are pointers, so null and zero differ", c.name))
	}
	c.elem = t
	if t.Kind() == reflect.Struct {
		c.children = columnsOf(t)
	}
	return c
}

var scalarTypes = map[reflect.Kind]arrow.DataType{
	reflect.Bool:    arrow.FixedWidthTypes.Boolean,
	reflect.Int8:    arrow.PrimitiveTypes.Int8,
	reflect.Int32:   arrow.PrimitiveTypes.Int32,
	reflect.Int64:   arrow.PrimitiveTypes.Int64,
	reflect.Float32: arrow.PrimitiveTypes.Float32,
	reflect.Float64: arrow.PrimitiveTypes.Float64,
	reflect.String:  arrow.BinaryTypes.String,
}

// listElementName is the element field name of the Parquet LIST convention,
// which parquet-go writes and pyarrow reports.
const listElementName = "element"

// elemType is the column's type, or its element type for a list.
func (c column) elemType() arrow.DataType {
	if c.children != nil {
		fields := make([]arrow.Field, len(c.children))
		for i, ch := range c.children {
			fields[i] = ch.arrowField()
		}
		return arrow.StructOf(fields...)
	}
	dt, ok := scalarTypes[c.elem.Kind()]
	if !ok {
		panic(fmt.Sprintf("schema: column %s: unsupported Go type %s", c.name, c.elem))
	}
	return dt
}

func (c column) arrowType() arrow.DataType {
	elem := c.elemType()
	if c.list {
		return arrow.ListOfField(arrow.Field{Name: listElementName, Type: elem, Nullable: false})
	}
	return elem
}

func (c column) arrowField() arrow.Field {
	return arrow.Field{Name: c.name, Type: c.arrowType(), Nullable: c.nullable}
}

var (
	turnColumns    = sync.OnceValue(func() []column { return columnsOf(reflect.TypeFor[TurnRow]()) })
	episodeColumns = sync.OnceValue(func() []column { return columnsOf(reflect.TypeFor[EpisodeRow]()) })

	turnArrow    = sync.OnceValue(func() *arrow.Schema { return arrowSchema(turnColumns(), TableTurns) })
	episodeArrow = sync.OnceValue(func() *arrow.Schema { return arrowSchema(episodeColumns(), TableEpisodes) })
)

func arrowSchema(cols []column, table string) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = c.arrowField()
	}
	meta := arrow.NewMetadata(
		[]string{MetaSchemaVersion, MetaTable},
		[]string{strconv.Itoa(SchemaVersion), table})
	return arrow.NewSchema(fields, &meta)
}

// TurnArrowSchema is the Arrow schema of the turns table, derived from
// TurnRow's tags. List elements are non-nullable and named "element", as the
// Parquet files declare them. Do not modify the returned schema.
func TurnArrowSchema() *arrow.Schema { return turnArrow() }

// EpisodeArrowSchema is the Arrow schema of the episodes table, derived from
// EpisodeRow's tags.
func EpisodeArrowSchema() *arrow.Schema { return episodeArrow() }

// Column describes one column for documentation and inspection tools.
// Nested struct fields are listed after their parent with names such as
// "turn_spans[].start".
type Column struct {
	Name     string
	Type     string // Arrow type, e.g. "int32", "string", "list<int32>", "list<struct>"
	Nullable bool
	Doc      string
}

// TurnColumns lists the turns table's columns in file order.
func TurnColumns() []Column { return describe(turnColumns(), "") }

// EpisodeColumns lists the episodes table's columns in file order.
func EpisodeColumns() []Column { return describe(episodeColumns(), "") }

func describe(cols []column, prefix string) []Column {
	var out []Column
	for _, c := range cols {
		name := prefix + c.name
		out = append(out, Column{Name: name, Type: typeName(c), Nullable: c.nullable, Doc: c.doc})
		if c.children != nil {
			sub := name + "."
			if c.list {
				sub = name + "[]."
			}
			out = append(out, describe(c.children, sub)...)
		}
	}
	return out
}

func typeName(c column) string {
	var elem string
	if c.children != nil {
		elem = "struct"
	} else {
		elem = c.elemType().String()
		if elem == "utf8" {
			elem = "string"
		}
	}
	if c.list {
		return "list<" + elem + ">"
	}
	return elem
}
