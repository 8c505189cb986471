package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/schema"
)

// shape is the size of every synthetic batch.
type shape struct {
	episodes, turns, tokens int
}

// batchFiles is one batch's files, built before the clock starts so a
// commit is only its writes.
type batchFiles struct {
	turns, episodes, manifest []byte
	turnRows                  int64
}

// build makes batch n of job: episodes × turns served turns of tokens
// response tokens with logprobs (the columns that dominate a trainer's
// bytes), their episode rows, and the manifest naming both files.
func build(job string, n int, s shape) (batchFiles, error) {
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	var turns []schema.TurnRow
	var eps []schema.EpisodeRow
	var returns []float64
	version := "v0"
	for e := range s.episodes {
		id := schema.EpisodeID(job, n, e)
		for t := range s.turns {
			ids := make([]int32, s.tokens)
			lps := make([]float32, s.tokens)
			for i := range ids {
				ids[i], lps[i] = int32(rng.IntN(150000)), -rng.Float32()*4
			}
			r := float64(rng.IntN(2))
			turns = append(turns, schema.TurnRow{
				JobID: job, Batch: int32(n), Episode: int32(e), Turn: int32(t), Attempt: 1, EpisodeID: id,
				GroupID: schema.GroupID(job, n, e), TaskID: fmt.Sprintf("task-%d", e), EnvID: "game:GuessTheNumber-v0-easy",
				EnvVersion: "v0.3", PromptDelta: `[{"role":"user","content":"guess"}]`, PromptLen: 64, Action: "[42]",
				Observation: "higher", Reward: r, Return: r, NormScheme: schema.NormReBN, Gamma: 1,
				PolicyModel: "m", PolicyVersion: &version, SamplingParams: "{}", TokenSource: schema.TokenSourceServed,
				ResponseTokenIDs: ids, ResponseLogprobs: lps, ResponseLen: int32(s.tokens), FinishReason: "stop",
				Terminated: t == s.turns-1,
			})
			returns = append(returns, r)
		}
		eps = append(eps, schema.EpisodeRow{
			JobID: job, Batch: int32(n), Episode: int32(e), EpisodeID: id, GroupID: schema.GroupID(job, n, e),
			TaskID: fmt.Sprintf("task-%d", e), EnvID: "game:GuessTheNumber-v0-easy", EnvVersion: "v0.3",
			NumTurns: int32(s.turns), GroupSize: 1, GroupSizeEffective: 1, StopReason: schema.StopTerminated,
			Gamma: 1, TokenSource: schema.TokenSourceNone, PolicyModel: "m", PolicyVersion: &version,
		})
	}
	var tf, ef bytes.Buffer
	if err := schema.WriteTurns(&tf, turns); err != nil {
		return batchFiles{}, err
	}
	if err := schema.WriteEpisodes(&ef, eps); err != nil {
		return batchFiles{}, err
	}
	keys := schema.ShardKeys(job, n)
	m := schema.Manifest{
		SchemaVersion: schema.SchemaVersion, Job: job, Batch: n,
		Files: []schema.ManifestFile{
			schema.FileEntry(job, keys.Turns, tf.Bytes(), int64(len(turns))),
			schema.FileEntry(job, keys.Episodes, ef.Bytes(), int64(len(eps))),
		},
		TurnRows: int64(len(turns)), EpisodeRows: int64(len(eps)), Returns: schema.StatsOf(returns),
		Gamma: 1, NormScheme: schema.NormReBN, EnvVersions: map[string]string{"game:GuessTheNumber-v0-easy": "v0.3"},
	}
	mb, err := schema.MarshalManifest(&m)
	if err != nil {
		return batchFiles{}, err
	}
	return batchFiles{turns: tf.Bytes(), episodes: ef.Bytes(), manifest: mb, turnRows: int64(len(turns))}, nil
}

// writeData stores a batch's data files (not yet committed).
func writeData(ctx context.Context, store blob.Store, job string, n int, f batchFiles) error {
	keys := schema.ShardKeys(job, n)
	if err := blob.PutBytes(ctx, store, keys.Turns, f.turns); err != nil {
		return err
	}
	return blob.PutBytes(ctx, store, keys.Episodes, f.episodes)
}

// commit writes a batch's manifest: from then on it is part of the stream.
func commit(ctx context.Context, store blob.Store, job string, n int, f batchFiles) error {
	return blob.PutBytes(ctx, store, schema.ShardKeys(job, n).Manifest, f.manifest)
}
