package schema

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
)

// Manifest is a shard's commit record, written to _manifest/part-NNNNN.json
// after every file it lists. Its presence is what makes the shard part of
// the dataset: a reader that lists _manifest/ sees only complete shards, and
// it can verify each file against Size and SHA256. It carries no wall-clock
// time, so a retried WriteShard commits the same bytes.
//
// Rows come only from accepted turn-log refs (see TurnRecord); the manifest
// therefore describes exactly one accepted attempt per turn.
type Manifest struct {
	SchemaVersion int    `json:"schema_version"`
	Job           string `json:"job"`
	Batch         int    `json:"batch"`
	// Files are the shard's data files in write order (turns, episodes, then
	// failures when present).
	Files          []ManifestFile `json:"files"`
	TurnRows       int64          `json:"turn_rows"`
	EpisodeRows    int64          `json:"episode_rows"`
	FailedEpisodes int64          `json:"failed_episodes"`
	// Returns are the sufficient statistics of the batch's turn returns, the
	// population ReBN normalised over. Merge several shards' Returns to
	// normalise their union exactly.
	Returns    Stats   `json:"returns"`
	Gamma      float64 `json:"gamma"`
	NormScheme string  `json:"norm_scheme"`
	// EnvVersions maps each env id in the shard to its version.
	EnvVersions map[string]string `json:"env_versions"`
	// Policy lists the policy versions of an online job's shard.
	Policy *ManifestPolicy `json:"policy,omitempty"`
}

// ManifestFile is one data file of a shard.
type ManifestFile struct {
	Path   string `json:"path"` // relative to the job folder: shards/part-00042.turns.parquet
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"` // hex
	Rows   int64  `json:"rows"`   // rows (Parquet) or lines (JSONL)
}

// FileEntry describes data written under key.
func FileEntry(job, key string, data []byte, rows int64) ManifestFile {
	sum := sha256.Sum256(data)
	return ManifestFile{Path: RelKey(job, key), Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Rows: rows}
}

// Verify reports whether data is the file e describes.
func (e ManifestFile) Verify(data []byte) error {
	sum := sha256.Sum256(data)
	if int64(len(data)) != e.Size || hex.EncodeToString(sum[:]) != e.SHA256 {
		return fmt.Errorf("%s: %d bytes with sha256 %x, the manifest says %d bytes with %s", e.Path, len(data), sum, e.Size, e.SHA256)
	}
	return nil
}

// MarshalManifest encodes m as indented JSON (map keys sorted), ending in a
// newline.
func MarshalManifest(m *Manifest) ([]byte, error) {
	if m.SchemaVersion == 0 {
		c := *m
		c.SchemaVersion = SchemaVersion
		m = &c
	}
	return marshalIndent(m, "manifest "+m.Job)
}

// UnmarshalManifest decodes a manifest strictly.
func UnmarshalManifest(data []byte) (Manifest, error) {
	var m Manifest
	if err := strictJSON(data, &m); err != nil {
		return Manifest{}, fmt.Errorf("decode manifest: %w", err)
	}
	if m.SchemaVersion < 1 || m.SchemaVersion > SchemaVersion {
		return Manifest{}, fmt.Errorf("decode manifest: %w: %d", ErrSchemaVersion, m.SchemaVersion)
	}
	return m, nil
}

// Failure is one permanently failed episode, recorded in
// _failures/part-NNNNN.jsonl instead of the shard. Its turns, if any, are in
// the turn log but never in a shard.
type Failure struct {
	Job        string `json:"job"`
	Batch      int    `json:"batch"`
	Episode    int    `json:"episode"`
	Group      int    `json:"group"`
	Sample     int    `json:"sample"`
	EpisodeID  string `json:"episode_id"`
	TaskID     string `json:"task_id"`
	TaskIndex  int64  `json:"task_index"`
	EnvID      string `json:"env_id"`
	EnvVersion string `json:"env_version"`
	// ErrorClass is the failure's type as classified at the activity
	// boundary (e.g. "EnvVersionMismatch", "EpisodeTimeout").
	ErrorClass string `json:"error_class"`
	Attempts   int    `json:"attempts"` // attempts made before giving up
	Turns      int    `json:"turns"`    // turns accepted before the failure
	Message    string `json:"message"`
}

// MarshalFailures encodes a batch's failures as JSON Lines sorted by
// (job, batch, episode), so the file's bytes depend only on its content.
func MarshalFailures(fs []Failure) ([]byte, error) {
	sorted := slices.Clone(fs)
	slices.SortStableFunc(sorted, func(a, b Failure) int {
		return cmp.Or(cmp.Compare(a.Job, b.Job), cmp.Compare(a.Batch, b.Batch), cmp.Compare(a.Episode, b.Episode))
	})
	var buf bytes.Buffer
	for i := range sorted {
		b, err := marshalLine(&sorted[i])
		if err != nil {
			return nil, fmt.Errorf("encode failure %s: %w", sorted[i].EpisodeID, err)
		}
		buf.Write(b)
	}
	return buf.Bytes(), nil
}

// UnmarshalFailures decodes a failures file strictly.
func UnmarshalFailures(data []byte) ([]Failure, error) {
	var out []Failure
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var f Failure
		if err := strictJSON(line, &f); err != nil {
			return nil, fmt.Errorf("decode failures line %d: %w", i+1, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// Success is the content of _SUCCESS: the job's totals, written after the
// last manifest.
type Success struct {
	SchemaVersion  int    `json:"schema_version"`
	Job            string `json:"job"`
	Batches        int    `json:"batches"`
	TurnRows       int64  `json:"turn_rows"`
	EpisodeRows    int64  `json:"episode_rows"`
	FailedEpisodes int64  `json:"failed_episodes"`
	// Returns merges every shard's Returns.
	Returns Stats `json:"returns"`
}

// MarshalSuccess encodes s as indented JSON ending in a newline.
func MarshalSuccess(s *Success) ([]byte, error) {
	if s.SchemaVersion == 0 {
		c := *s
		c.SchemaVersion = SchemaVersion
		s = &c
	}
	return marshalIndent(s, "_SUCCESS "+s.Job)
}

// UnmarshalSuccess decodes _SUCCESS strictly.
func UnmarshalSuccess(data []byte) (Success, error) {
	var s Success
	if err := strictJSON(data, &s); err != nil {
		return Success{}, fmt.Errorf("decode _SUCCESS: %w", err)
	}
	return s, nil
}

func marshalIndent(v any, what string) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", what, err)
	}
	return append(b, '\n'), nil
}
