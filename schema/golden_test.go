package schema

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files and the generated tables of docs/schema.md")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./schema -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s changed; if intended, run go test ./schema -run %s -update\n--- got\n%s\n--- want\n%s", path, t.Name(), got, want)
	}
}

const docPath = "../docs/schema.md"

// TestDocsTables: the column tables of docs/schema.md are generated from the
// doc tags; -update rewrites them in place and leaves the prose alone.
func TestDocsTables(t *testing.T) {
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	got := string(doc)
	for _, s := range []struct {
		name string
		cols []Column
	}{{"turns", TurnColumns()}, {"episodes", EpisodeColumns()}} {
		got, err = spliceTable(got, s.name, columnTable(s.cols))
		if err != nil {
			t.Fatal(err)
		}
	}
	if *updateGolden {
		if err := os.WriteFile(docPath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != string(doc) {
		t.Errorf("docs/schema.md's column tables differ from the doc tags; run go test ./schema -run TestDocsTables -update")
	}
}

func spliceTable(doc, name, table string) (string, error) {
	begin := fmt.Sprintf("<!-- BEGIN GENERATED %s (go test ./schema -run TestDocsTables -update) -->\n", name)
	end := fmt.Sprintf("<!-- END GENERATED %s -->", name)
	i := strings.Index(doc, begin)
	j := strings.Index(doc, end)
	if i < 0 || j < i {
		return "", fmt.Errorf("%s: markers for %s not found: want a line %q and a line %q", docPath, name, strings.TrimSpace(begin), end)
	}
	return doc[:i+len(begin)] + table + doc[j:], nil
}

// mdEscape keeps <job> and list<int32> visible and | inside a cell.
var mdEscape = strings.NewReplacer("<", "\\<", "|", "\\|")

func columnTable(cols []Column) string {
	var b strings.Builder
	b.WriteString("| column | type | null | meaning |\n|---|---|---|---|\n")
	for _, c := range cols {
		null := ""
		if c.Nullable {
			null = "yes"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", c.Name, mdEscape.Replace(c.Type), null, mdEscape.Replace(c.Doc))
	}
	return b.String()
}

func TestColumnsDescribeEveryField(t *testing.T) {
	cols := TurnColumns()
	if len(cols) != len(turnColumns()) {
		t.Errorf("turn columns: %d described, %d defined (nested fields only in the episode table)", len(cols), len(turnColumns()))
	}
	names := map[string]bool{}
	for _, c := range append(TurnColumns(), EpisodeColumns()...) {
		if c.Doc == "" || c.Type == "" {
			t.Errorf("column %s lacks a type or doc", c.Name)
		}
		names[c.Name] = true
	}
	for _, want := range []string{"turn_spans[].end", "segments[].token_ids", "segments[].turn_spans[].start", "return", "advantage_group"} {
		if !names[want] {
			t.Errorf("no column %s described", want)
		}
	}
	types := map[string]string{}
	for _, c := range EpisodeColumns() {
		types[c.Name] = c.Type
	}
	for name, want := range map[string]string{"token_ids": "list<int32>", "loss_mask": "list<int8>", "logprobs": "list<float32>", "turn_spans": "list<struct>", "episode_id": "string"} {
		if types[name] != want {
			t.Errorf("column %s: type %q, want %q", name, types[name], want)
		}
	}
}
