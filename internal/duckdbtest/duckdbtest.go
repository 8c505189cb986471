// Package duckdbtest runs DuckDB — tools/duckdb/read.mjs on its Node API,
// installed by scripts/deps/duckdb.sh — for tests that check Quarry's files
// with an independent reader.
package duckdbtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Result is what read.mjs prints: the columns, the rows (numbers as
// json.Number) and a Parquet file's key-value metadata.
type Result struct {
	Columns []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"columns"`
	Rows     []map[string]any  `json:"rows"`
	Metadata map[string]string `json:"metadata"`
}

// Exec runs read.mjs under the module root with args (a Parquet path, or
// "--sql" and a query) and returns what it printed. A missing node or
// module is an error naming the script that installs them.
func Exec(ctx context.Context, root string, args ...string) ([]byte, error) {
	if _, err := os.Stat(filepath.Join(root, "tools/duckdb/node_modules/@duckdb/node-api/package.json")); err != nil {
		return nil, errors.New("DuckDB's node module is missing: run scripts/deps/duckdb.sh")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("node not found: run scripts/deps/duckdb.sh")
	}
	cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join(root, "tools/duckdb/read.mjs")}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("duckdb %q: %w\n%s", args, err, stderr.String())
	}
	return out, nil
}

// Run is Exec from the test's module root, decoded; any failure fails the
// test, since DuckDB is the reader the test checks against.
func Run(t testing.TB, args ...string) Result {
	t.Helper()
	out, err := Exec(context.Background(), RepoRoot(t), args...)
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("duckdb output: %v", err)
	}
	return res
}

// RepoRoot finds the module root from the test's working directory.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's working directory")
		}
		dir = parent
	}
}
