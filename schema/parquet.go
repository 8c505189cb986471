package schema

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// createdBy replaces parquet-go's default, which embeds the library's build
// version: a retry on a worker with another build must still produce the
// same bytes.
const createdBy = "quarry schema v1"

// rowGroupRows bounds a row group. With 2,000-token responses a turn row is
// ~20 KB, so a group stays around 20 MB in memory while it is encoded.
const rowGroupRows = 1024

func writerOptions(table string) []parquet.WriterOption {
	return []parquet.WriterOption{
		&parquet.WriterConfig{CreatedBy: createdBy},
		parquet.Compression(&parquet.Zstd),
		// Version 1 data pages and PLAIN (not DELTA_LENGTH_BYTE_ARRAY) strings:
		// every reader supports them, including older Spark, and pqarrow v17
		// leaks buffers on the alternatives.
		parquet.DataPageVersion(1),
		parquet.DefaultEncodingFor(parquet.ByteArray, &parquet.Plain),
		parquet.MaxRowsPerRowGroup(rowGroupRows),
		parquet.KeyValueMetadata(MetaSchemaVersion, strconv.Itoa(SchemaVersion)),
		parquet.KeyValueMetadata(MetaTable, table),
	}
}

// WriteTurns writes rows as one turns Parquet file: validated, sorted by ids
// (SortTurns, on a copy; rows is not modified), zstd-compressed, with the
// schema version in the key/value metadata and no wall-clock time anywhere,
// so the same rows always give the same bytes.
func WriteTurns(w io.Writer, rows []TurnRow) error {
	sorted := slices.Clone(rows)
	SortTurns(sorted)
	for i := range sorted {
		if err := sorted[i].validate(i); err != nil {
			return fmt.Errorf("write turns: %w", err)
		}
		if i > 0 && cmpTurns(&sorted[i-1], &sorted[i]) == 0 {
			r := &sorted[i]
			return fmt.Errorf("write turns: %w: duplicate turn (%s, batch %d, episode %d, turn %d): only the accepted attempt may become a row",
				ErrInvalidRow, r.JobID, r.Batch, r.Episode, r.Turn)
		}
	}
	return writeRows(w, sorted, TableTurns)
}

// WriteEpisodes writes rows as one episodes Parquet file, like WriteTurns.
func WriteEpisodes(w io.Writer, rows []EpisodeRow) error {
	sorted := slices.Clone(rows)
	SortEpisodes(sorted)
	for i := range sorted {
		if err := sorted[i].validate(i); err != nil {
			return fmt.Errorf("write episodes: %w", err)
		}
		if i > 0 && cmpEpisodes(&sorted[i-1], &sorted[i]) == 0 {
			r := &sorted[i]
			return fmt.Errorf("write episodes: %w: duplicate episode (%s, batch %d, episode %d)", ErrInvalidRow, r.JobID, r.Batch, r.Episode)
		}
	}
	return writeRows(w, sorted, TableEpisodes)
}

func writeRows[T any](w io.Writer, rows []T, table string) error {
	pw := parquet.NewGenericWriter[T](w, writerOptions(table)...)
	if _, err := pw.Write(rows); err != nil {
		return fmt.Errorf("write %s: %w", table, err)
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("write %s: %w", table, err)
	}
	return nil
}

// ErrSchemaVersion is returned when a file's schema version is missing or
// newer than this build understands.
var ErrSchemaVersion = errors.New("unsupported schema version")

// ReadTurns reads a turns file written by WriteTurns.
func ReadTurns(r io.ReaderAt, size int64) ([]TurnRow, error) {
	return readRows[TurnRow](r, size, TableTurns)
}

// ReadEpisodes reads an episodes file written by WriteEpisodes.
func ReadEpisodes(r io.ReaderAt, size int64) ([]EpisodeRow, error) {
	return readRows[EpisodeRow](r, size, TableEpisodes)
}

func readRows[T any](r io.ReaderAt, size int64, table string) ([]T, error) {
	f, err := parquet.OpenFile(r, size)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", table, err)
	}
	v, _ := f.Lookup(MetaSchemaVersion)
	if n, err := strconv.Atoi(v); err != nil || n < 1 || n > SchemaVersion {
		return nil, fmt.Errorf("read %s: %w: %s=%q, this build reads 1 to %d", table, ErrSchemaVersion, MetaSchemaVersion, v, SchemaVersion)
	}
	if got, _ := f.Lookup(MetaTable); got != table {
		return nil, fmt.Errorf("read %s: the file holds the %q table", table, got)
	}
	rows := make([]T, f.NumRows())
	pr := parquet.NewGenericReader[T](f)
	defer pr.Close()
	n := 0
	for n < len(rows) {
		k, err := pr.Read(rows[n:])
		n += k
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", table, err)
		}
	}
	if n != len(rows) {
		return nil, fmt.Errorf("read %s: got %d of %d rows", table, n, len(rows))
	}
	return rows, nil
}
