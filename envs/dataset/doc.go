// Package dataset reads the rows of the datasets behind Quarry's
// dataset-backed envs (math, code, qa, eval): JSON Lines or Parquet files,
// local or remote (http(s)://, s3://, and the Hugging Face Hub as
// hf://datasets/<owner>/<name>[@revision]/<path>).
//
// A dataset may be many gigabytes and is never loaded whole. Remote files are
// downloaded once per host into a cache folder (atomically, so concurrent
// workers never read half a file); a JSONL file is indexed in one streaming
// pass (line offsets, cached beside the data), and Row(i) is then one
// positioned read and one JSON decode; a Parquet row is found through the
// row-group metadata and read from its row group alone.
//
// Remote reads fail with ErrStalled when they make no progress for the
// stall timeout, and no failure is remembered: the next Open tries again.
// Files are untrusted bytes: a crafted one gives ErrFormat or ErrTooLarge,
// never a panic or an allocation its size does not justify.
//
// Envs draw tasks with Index, a seeded order that visits every row once per
// epoch and is the same on every machine.
//
// Open keeps one handle per location per process (the package's one piece of
// global state), shared by every episode a worker runs; handles are safe for
// concurrent use.
package dataset
