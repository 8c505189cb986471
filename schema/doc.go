// Package schema holds every data contract that crosses a process boundary:
// the job spec, the turn-log record and its keys, the turn and episode rows of
// the Parquet dataset, the shard manifest, and the meaning of the return and
// advantage columns.
//
// The row structs are the one definition of the dataset: their parquet tags
// drive the Parquet files (parquet-go), TurnArrowSchema and
// EpisodeArrowSchema are derived from the same tags, and docs/schema.md's
// column tables are generated from their doc tags (a test keeps them equal).
//
// Data flows turn log → rows → shard: activities write one TurnRecord per
// attempt (or, for local policies, one Bundle per episode attempt) and
// return its TurnRef; accepted act records link to their generate record
// and to the previous turn (Gen, Prev), so the workflow keeps only the head
// ref of each episode; the shard writer follows those links, builds TurnRow
// and EpisodeRow values,
// fills returns and advantages with ApplyReturns, writes the two files with
// WriteTurns and WriteEpisodes (sorted, zstd, byte-identical for the same
// rows), and commits with a Manifest.
//
// The package imports nothing else of Quarry's and does no I/O beyond the
// io.Writer and io.ReaderAt it is given.
package schema
