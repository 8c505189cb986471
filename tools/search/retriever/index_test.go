package retriever

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

const (
	corpusPath = "../testdata/corpus.jsonl"
	qaPath     = "../testdata/qa.jsonl"
)

type qaPair struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	DocID    string `json:"doc_id"`
}

func readQA(t testing.TB) []qaPair {
	t.Helper()
	f, err := os.Open(qaPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var pairs []qaPair
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var p qaPair
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, p)
	}
	if len(pairs) == 0 {
		t.Fatal("no QA pairs")
	}
	return pairs
}

// buildTestIndex indexes the shipped corpus into a temp dir and opens it.
func buildTestIndex(t testing.TB, opts ...BuildOption) *Index {
	t.Helper()
	f, err := os.Open(corpusPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := filepath.Join(t.TempDir(), "idx")
	stats, err := Build(context.Background(), f, dir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Lines != 200 || stats.Documents != 200 {
		t.Fatalf("build stats %+v, want 200 lines and documents", stats)
	}
	idx, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = idx.Close() })
	return idx
}

func TestSearchFindsTheAnsweringDocumentFirst(t *testing.T) {
	idx := buildTestIndex(t, WithBatchSize(7)) // several batches and a partial last one
	for _, p := range readQA(t) {
		hits, err := idx.Search(context.Background(), p.Question, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 || len(hits) > 3 {
			t.Fatalf("%q: %d hits, want 1 to 3", p.Question, len(hits))
		}
		if hits[0].Document.ID != p.DocID {
			t.Errorf("%q: first hit %s %q, want doc %s", p.Question, hits[0].Document.ID, hits[0].Document.Contents, p.DocID)
		}
		if !strings.Contains(hits[0].Document.Contents, p.Answer) {
			t.Errorf("%q: first hit lacks the answer %q", p.Question, p.Answer)
		}
		for i := 1; i < len(hits); i++ {
			if hits[i].Score > hits[i-1].Score {
				t.Errorf("%q: scores not descending: %v", p.Question, hits)
			}
		}
	}
}

func TestSearchUsesBM25(t *testing.T) {
	idx := buildTestIndex(t)
	q := query.NewMatchQuery("copper bells")
	q.SetField(contentsField)
	req := bleve.NewSearchRequestOptions(q, 1, 0, true)
	res, err := idx.idx.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 {
		t.Fatal("no hits")
	}
	expl, _ := json.Marshal(res.Hits[0].Expl)
	if !strings.Contains(string(expl), "as per bm25 model") {
		t.Errorf("explanation does not name the bm25 model: %s", expl)
	}
	if strings.Contains(string(expl), "as per tfidf model") {
		t.Errorf("explanation names tf-idf: %s", expl)
	}
}

// TestBM25LengthNormalisation: two documents holding a rare term once; the
// shorter must score higher (BM25 and tf-idf agree), and a document holding
// it nine times must score less than nine times one holding it once
// (saturation).
func TestBM25LengthNormalisation(t *testing.T) {
	corpus := `{"id": "short", "contents": "\"A\"\nzorbel stone"}
{"id": "long", "contents": "\"B\"\nzorbel stone river bridge market lantern harbour mill orchard tower"}
{"id": "many", "contents": "\"C\"\nzorbel zorbel zorbel zorbel zorbel zorbel zorbel zorbel zorbel stone river bridge"}
{"id": "other", "contents": "\"D\"\nnothing to see"}
`
	dir := filepath.Join(t.TempDir(), "idx")
	if _, err := Build(context.Background(), strings.NewReader(corpus), dir); err != nil {
		t.Fatal(err)
	}
	idx, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	hits, err := idx.Search(context.Background(), "zorbel", 10)
	if err != nil {
		t.Fatal(err)
	}
	score := map[string]float64{}
	for _, h := range hits {
		score[h.Document.ID] = h.Score
	}
	if len(score) != 3 {
		t.Fatalf("hits %v, want short, long and many", hits)
	}
	if score["short"] <= score["long"] {
		t.Errorf("short %v <= long %v", score["short"], score["long"])
	}
	if score["many"] >= 9*score["short"] {
		t.Errorf("no saturation: many %v, short %v", score["many"], score["short"])
	}
}

func TestSearchEdgeCases(t *testing.T) {
	idx := buildTestIndex(t)
	ctx := context.Background()
	for _, q := range []string{"", "   ", "the of and", "zzzqqqxxx"} {
		hits, err := idx.Search(ctx, q, 3)
		if err != nil {
			t.Errorf("Search(%q): %v", q, err)
		}
		if len(hits) != 0 {
			t.Errorf("Search(%q) = %d hits, want none", q, len(hits))
		}
	}
	// Query syntax is not interpreted: "+" and ":" are plain characters.
	hits, err := idx.Search(ctx, "+Vethmere^5 AND", 3)
	if err != nil || len(hits) == 0 || !strings.Contains(hits[0].Document.Contents, "Vethmere") {
		t.Errorf("Search with query-syntax characters = %v, %v", hits, err)
	}
	if _, err := idx.Search(ctx, "river", 0); err == nil {
		t.Error("Search with k 0: no error")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := idx.Search(cctx, "river", 3); !errors.Is(err, context.Canceled) {
		t.Errorf("Search with a cancelled ctx = %v, want context.Canceled", err)
	}
}

func TestBuildRejectsBadCorpora(t *testing.T) {
	for name, corpus := range map[string]string{
		"not json":         "{\"id\": \"1\", \"contents\": \"a\"}\nnot json\n",
		"missing id":       `{"contents": "a"}`,
		"empty id":         `{"id": "", "contents": "a"}`,
		"object id":        `{"id": {}, "contents": "a"}`,
		"missing contents": `{"id": "1"}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "idx")
			_, err := Build(context.Background(), strings.NewReader(corpus), dir)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), "line") {
				t.Errorf("error %q does not name the line", err)
			}
			if _, statErr := os.Stat(dir); !errors.Is(statErr, os.ErrNotExist) {
				t.Errorf("a failed build left %s behind", dir)
			}
			left, _ := os.ReadDir(filepath.Dir(dir))
			if len(left) != 0 {
				t.Errorf("a failed build left temporary files: %v", left)
			}
		})
	}
}

func TestBuildAcceptsNumericIDsAndBlankLines(t *testing.T) {
	corpus := "{\"id\": 7, \"contents\": \"\\\"Seven\\\"\\nfirst\"}\n\n{\"id\": \"8\", \"contents\": \"\\\"Eight\\\"\\nsecond\"}\n{\"id\": 7, \"contents\": \"\\\"Seven\\\"\\nreplaced\"}"
	dir := filepath.Join(t.TempDir(), "idx")
	stats, err := Build(context.Background(), strings.NewReader(corpus), dir)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Lines != 3 || stats.Documents != 2 {
		t.Errorf("stats %+v, want 3 lines, 2 documents (id 7 repeated)", stats)
	}
	idx, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	hits, err := idx.Search(context.Background(), "replaced", 3)
	if err != nil || len(hits) != 1 || hits[0].Document.ID != "7" {
		t.Errorf("hits %v, %v; want doc 7", hits, err)
	}
}

func TestBuildRefusesAnExistingDir(t *testing.T) {
	dir := t.TempDir()
	_, err := Build(context.Background(), strings.NewReader(`{"id":"1","contents":"a"}`), dir)
	if !errors.Is(err, ErrExists) {
		t.Errorf("Build into an existing dir = %v, want ErrExists", err)
	}
}

func TestOpenRejectsOtherIndexes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plain")
	other, err := bleve.New(dir, bleve.NewIndexMapping()) // tf-idf, no contents field
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "not an index built by quarry retrieve") {
		t.Errorf("Open of a foreign index = %v", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Open of a missing dir: no error")
	}
}

// scaledCorpus repeats the shipped corpus n times under fresh ids, so
// posting lists grow as in a larger corpus.
func scaledCorpus(b *testing.B, n int) []byte {
	b.Helper()
	data, err := os.ReadFile(corpusPath)
	if err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	for r := range n {
		for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			var d Document
			if err := json.Unmarshal(line, &d); err != nil {
				b.Fatal(err)
			}
			d.ID = fmt.Sprintf("%s-%d", d.ID, r)
			enc, _ := json.Marshal(d)
			out.Write(enc)
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

func BenchmarkBuild(b *testing.B) {
	corpus := scaledCorpus(b, 50) // 10,000 documents
	b.ReportAllocs()
	for b.Loop() {
		dir := filepath.Join(b.TempDir(), "idx")
		if _, err := Build(context.Background(), bytes.NewReader(corpus), dir); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*10000/b.Elapsed().Seconds(), "docs/s")
}

func BenchmarkSearch(b *testing.B) {
	for _, repeat := range []int{1, 50} {
		b.Run(fmt.Sprintf("docs=%d", 200*repeat), func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "idx")
			if _, err := Build(context.Background(), bytes.NewReader(scaledCorpus(b, repeat)), dir); err != nil {
				b.Fatal(err)
			}
			idx, err := Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			defer idx.Close()
			benchSearch(b, idx)
		})
	}
}

func benchSearch(b *testing.B, idx *Index) {
	pairs := readQA(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := idx.Search(ctx, pairs[i%len(pairs)].Question, 3); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}

func BenchmarkSearchParallel(b *testing.B) {
	idx := buildTestIndex(b)
	pairs := readQA(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := idx.Search(ctx, pairs[i%len(pairs)].Question, 3); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}
