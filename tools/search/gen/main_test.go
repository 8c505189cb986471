package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestdataUpToDate fails when the shipped corpus or QA pairs differ from
// what the generator writes (run go generate ./tools/search/).
func TestTestdataUpToDate(t *testing.T) {
	corpus, qa, err := generate(1)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{"corpus.jsonl": corpus, "qa.jsonl": qa} {
		got, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("testdata/%s is stale: run go generate ./tools/search/", name)
		}
	}
}

func TestGenerateIsDeterministicPerSeed(t *testing.T) {
	a, _, err := generate(7)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := generate(7)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := generate(8)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("same seed, different corpus")
	}
	if bytes.Equal(a, c) {
		t.Error("different seeds, same corpus")
	}
}

// TestQAAnswerable checks the corpus shape and that every answer is written
// in the document its pair names.
func TestQAAnswerable(t *testing.T) {
	corpus, qa, err := generate(1)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	titles := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(corpus))
	for sc.Scan() {
		var d doc
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		title, body, ok := strings.Cut(d.Contents, "\n")
		if !ok || len(title) < 3 || title[0] != '"' || title[len(title)-1] != '"' || body == "" {
			t.Fatalf("doc %s: want \"\\\"Title\\\"\\nbody\", got %q", d.ID, d.Contents)
		}
		if _, dup := docs[d.ID]; dup || titles[title] {
			t.Fatalf("doc %s (%s) repeats an id or a title", d.ID, title)
		}
		docs[d.ID], titles[title] = d.Contents, true
	}
	if len(docs) != numTowns+numPeople+numInventions {
		t.Fatalf("%d documents, want %d", len(docs), numTowns+numPeople+numInventions)
	}
	var pairs []qaPair
	sc = bufio.NewScanner(bytes.NewReader(qa))
	for sc.Scan() {
		var p qaPair
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, p)
	}
	if len(pairs) != numQA {
		t.Fatalf("%d QA pairs, want %d", len(pairs), numQA)
	}
	for _, p := range pairs {
		contents, ok := docs[p.DocID]
		if !ok || p.Answer == "" || !strings.Contains(contents, p.Answer) {
			t.Errorf("%q: answer %q not in doc %s %q", p.Question, p.Answer, p.DocID, contents)
		}
	}
}
