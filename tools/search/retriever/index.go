// Package retriever is Quarry's built-in retrieval server: a BM25 index over
// a JSONL corpus in Search-R1's format, built on disk with bleve, and an HTTP
// server answering the /retrieve protocol that GEM's and Search-R1's search
// clients (and Quarry's search tool) speak.
//
// A corpus line is {"id": "…", "contents": "\"Title\"\nbody"}: the first line
// of contents is the title, in double quotes as Search-R1's wiki-18 has it.
// The whole contents field is indexed (English analyzer: lowercase, stop
// words, Porter stemming, as Pyserini's default) and stored, and scored with
// bleve's BM25 (k1 = 1.2, b = 0.75, Lucene's defaults).
package retriever

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// contentsField is the indexed and stored field holding a document's text.
const contentsField = "contents"

// DefaultBatchSize is how many documents Build indexes per batch.
const DefaultBatchSize = 1000

// ErrExists is returned by Build when the index directory already exists.
var ErrExists = errors.New("index directory already exists")

// Document is one corpus entry.
type Document struct {
	ID       string `json:"id" msgpack:"id"`
	Contents string `json:"contents" msgpack:"contents"`
}

// Hit is a document found by a search, with its BM25 score.
type Hit struct {
	Document Document
	Score    float64
}

// Index is an open BM25 index. It is safe for concurrent searches.
type Index struct {
	idx bleve.Index
}

// BuildStats describes a finished build.
type BuildStats struct {
	// Lines is the number of corpus entries read (blank lines skipped).
	Lines int
	// Documents is the number of distinct documents in the index; fewer than
	// Lines when ids repeat (a later entry replaces an earlier one).
	Documents uint64
}

type buildOptions struct {
	batchSize int
	logger    *slog.Logger
}

// BuildOption tunes Build.
type BuildOption func(*buildOptions)

// WithBatchSize sets how many documents are indexed per batch.
func WithBatchSize(n int) BuildOption {
	return func(o *buildOptions) { o.batchSize = n }
}

// WithLogger makes Build log its progress (once per 100 batches) and its end.
func WithLogger(l *slog.Logger) BuildOption {
	return func(o *buildOptions) { o.logger = l }
}

// newMapping is the index mapping: only contents, indexed with the English
// analyzer and stored, scored by BM25.
func newMapping() *mapping.IndexMappingImpl {
	contents := bleve.NewTextFieldMapping()
	contents.Analyzer = en.AnalyzerName
	contents.Store = true
	contents.IncludeInAll = false
	contents.IncludeTermVectors = false

	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(contentsField, contents)

	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = en.AnalyzerName
	m.ScoringModel = index.BM25Scoring
	return m
}

// Build reads a JSONL corpus from r and writes a new index at dir, streaming
// the corpus and indexing it in batches. The index is built in a temporary
// directory beside dir and renamed into place when complete, so dir never
// holds a half-built index. dir must not exist.
func Build(ctx context.Context, r io.Reader, dir string, opts ...BuildOption) (BuildStats, error) {
	o := buildOptions{batchSize: DefaultBatchSize}
	for _, opt := range opts {
		opt(&o)
	}
	if o.batchSize < 1 {
		return BuildStats{}, fmt.Errorf("build index: batch size %d: want at least 1", o.batchSize)
	}
	if _, err := os.Stat(dir); err == nil {
		return BuildStats{}, fmt.Errorf("build index %s: %w", dir, ErrExists)
	} else if !errors.Is(err, os.ErrNotExist) {
		return BuildStats{}, fmt.Errorf("build index: %w", err)
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return BuildStats{}, fmt.Errorf("build index: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, ".quarry-index-*")
	if err != nil {
		return BuildStats{}, fmt.Errorf("build index: %w", err)
	}
	defer os.RemoveAll(tmp)
	work := filepath.Join(tmp, "index")

	idx, err := bleve.New(work, newMapping())
	if err != nil {
		return BuildStats{}, fmt.Errorf("build index: create: %w", err)
	}
	stats, err := fill(ctx, idx, r, o)
	if err != nil {
		_ = idx.Close()
		return BuildStats{}, fmt.Errorf("build index: %w", err)
	}
	if stats.Documents, err = idx.DocCount(); err != nil {
		_ = idx.Close()
		return BuildStats{}, fmt.Errorf("build index: count documents: %w", err)
	}
	if err := idx.Close(); err != nil {
		return BuildStats{}, fmt.Errorf("build index: close: %w", err)
	}
	if err := os.Rename(work, dir); err != nil {
		return BuildStats{}, fmt.Errorf("build index: move into place: %w", err)
	}
	if o.logger != nil {
		o.logger.Info("index built", "dir", dir, "lines", stats.Lines, "documents", stats.Documents)
		if uint64(stats.Lines) != stats.Documents {
			o.logger.Warn("corpus repeats ids; later entries replaced earlier ones",
				"lines", stats.Lines, "documents", stats.Documents)
		}
	}
	return stats, nil
}

// corpusLine is one JSONL entry; id may be a string or a number.
type corpusLine struct {
	ID       json.RawMessage `json:"id"`
	Contents *string         `json:"contents"`
}

// fill streams the corpus into idx in batches.
func fill(ctx context.Context, idx bleve.Index, r io.Reader, o buildOptions) (BuildStats, error) {
	var stats BuildStats
	br := bufio.NewReaderSize(r, 1<<20)
	batch := idx.NewBatch()
	batches := 0
	flush := func() error {
		if batch.Size() == 0 {
			return nil
		}
		if err := idx.Batch(batch); err != nil {
			return fmt.Errorf("index batch ending at line %d: %w", stats.Lines, err)
		}
		batch.Reset()
		batches++
		if o.logger != nil && batches%100 == 0 {
			o.logger.Info("indexing", "documents", stats.Lines)
		}
		return nil
	}
	for lineNo := 1; ; lineNo++ {
		line, readErr := br.ReadBytes('\n')
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			return stats, fmt.Errorf("read corpus line %d: %w", lineNo, readErr)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			doc, err := parseLine(line)
			if err != nil {
				return stats, fmt.Errorf("corpus line %d: %w", lineNo, err)
			}
			if err := batch.Index(doc.ID, map[string]any{contentsField: doc.Contents}); err != nil {
				return stats, fmt.Errorf("corpus line %d: %w", lineNo, err)
			}
			stats.Lines++
			if batch.Size() >= o.batchSize {
				if err := ctx.Err(); err != nil {
					return stats, err
				}
				if err := flush(); err != nil {
					return stats, err
				}
			}
		}
		if errors.Is(readErr, io.EOF) {
			break
		}
	}
	return stats, flush()
}

func parseLine(line []byte) (Document, error) {
	var cl corpusLine
	if err := json.Unmarshal(line, &cl); err != nil {
		return Document{}, err
	}
	id, err := parseID(cl.ID)
	if err != nil {
		return Document{}, err
	}
	if cl.Contents == nil {
		return Document{}, errors.New(`missing "contents"`)
	}
	return Document{ID: id, Contents: *cl.Contents}, nil
}

// parseID accepts a non-empty string or a number (kept as written).
func parseID(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", errors.New(`missing "id"`)
	}
	var id string
	switch raw[0] {
	case '"':
		if err := json.Unmarshal(raw, &id); err != nil {
			return "", fmt.Errorf("id: %w", err)
		}
	default:
		if _, err := strconv.ParseFloat(string(raw), 64); err != nil {
			return "", fmt.Errorf("id %s: want a string or a number", raw)
		}
		id = string(raw)
	}
	if id == "" {
		return "", errors.New(`empty "id"`)
	}
	return id, nil
}

// Open opens an index written by Build, read-only, so several servers may
// share it.
func Open(dir string) (*Index, error) {
	idx, err := bleve.OpenUsing(dir, map[string]any{"read_only": true})
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	m, ok := idx.Mapping().(*mapping.IndexMappingImpl)
	if !ok || m.ScoringModel != index.BM25Scoring || m.DefaultMapping == nil ||
		m.DefaultMapping.Properties[contentsField] == nil {
		_ = idx.Close()
		return nil, fmt.Errorf("open index %s: not an index built by quarry retrieve (want a BM25 %q field)", dir, contentsField)
	}
	return &Index{idx: idx}, nil
}

// Close closes the index.
func (x *Index) Close() error {
	if err := x.idx.Close(); err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	return nil
}

// DocCount is the number of documents in the index.
func (x *Index) DocCount() (uint64, error) {
	n, err := x.idx.DocCount()
	if err != nil {
		return 0, fmt.Errorf("count documents: %w", err)
	}
	return n, nil
}

// Search returns the k best documents for text by BM25, best first; ties go
// to the smaller id. The text is a bag of words (no query syntax), analyzed
// as the documents were; text without a searchable word finds nothing.
func (x *Index) Search(ctx context.Context, text string, k int) ([]Hit, error) {
	if k < 1 {
		return nil, fmt.Errorf("search: k %d: want at least 1", k)
	}
	q := query.NewMatchQuery(text)
	q.SetField(contentsField)
	req := bleve.NewSearchRequestOptions(q, k, 0, false)
	req.Fields = []string{contentsField}
	req.SortBy([]string{"-_score", "_id"})
	res, err := x.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", text, err)
	}
	hits := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		contents, _ := h.Fields[contentsField].(string)
		hits = append(hits, Hit{Document: Document{ID: h.ID, Contents: contents}, Score: h.Score})
	}
	return hits, nil
}
