package dataenv_test

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/dataenv"
	"github.com/quarry-rl/quarry/envs/dataset"
)

//go:embed testdata/sample.jsonl
var samples embed.FS

func family(answerKey string) *dataenv.Family {
	return &dataenv.Family{
		Columns: []string{"q", answerKey},
		Prompt:  func(row map[string]any) (string, error) { return dataenv.Str(row, "q"), nil },
		Score: func(_ context.Context, action string, row map[string]any) (envs.StepResult, error) {
			if strings.TrimSpace(action) == dataenv.Str(row, answerKey) {
				return envs.StepResult{Observation: "correct", Reward: 1, Info: envs.Info{Success: true}}, nil
			}
			return envs.StepResult{Observation: "wrong"}, nil
		},
		Truth:        func(row map[string]any) string { return dataenv.Str(row, answerKey) },
		RandomAction: func(rng *rand.Rand, _ map[string]any) string { return fmt.Sprint(rng.IntN(10)) },
		Samples:      samples,
		SamplePath:   "testdata/sample.jsonl",
	}
}

func TestRowsResetStep(t *testing.T) {
	for _, url := range []string{dataenv.Sample, filepath.Join("testdata", "sample.jsonl")} {
		e := dataenv.New(family("a"), url)
		n, err := e.Rows()
		if err != nil || n != 3 {
			t.Fatalf("%s: rows %d, %v", url, n, err)
		}
		obs, _, err := e.ResetTask(1)
		if err != nil || obs != "What is 2 + 2?" {
			t.Fatalf("%s: row 1: %q %v", url, obs, err)
		}
		res, err := e.Step(" 4 ")
		if err != nil || res.Reward != 1 || !res.Terminated || res.Info.Extra["ground_truth"] != "4" {
			t.Fatalf("%s: step %+v %v", url, res, err)
		}
	}
}

// Reset draws a row from the seed, deterministically.
func TestResetFromSeed(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(40) {
		a, _, err := dataenv.New(family("a"), dataenv.Sample).Reset(seed)
		if err != nil {
			t.Fatal(err)
		}
		b, _, _ := dataenv.New(family("a"), dataenv.Sample).Reset(seed)
		if a != b {
			t.Fatalf("seed %d: %q then %q", seed, a, b)
		}
		seen[a] = true
	}
	if len(seen) != 3 {
		t.Fatalf("40 seeds reached %d of 3 rows", len(seen))
	}
}

// A missing column fails at the first use, naming it.
func TestMissingColumn(t *testing.T) {
	_, err := dataenv.New(family("answer"), dataenv.Sample).Rows()
	var mc *dataset.MissingColumnError
	if !errors.As(err, &mc) || !strings.Contains(err.Error(), `"answer"`) {
		t.Fatalf("err %v", err)
	}
}

// The pipeline's order: tasks 0..n-1 visit every row once.
func TestTaskOrderCoversRows(t *testing.T) {
	e := dataenv.New(family("a"), dataenv.Sample)
	seen := map[string]int{}
	for task := range 3 {
		obs, _, err := envs.ResetTask(e, dataset.Index(9, 3, task), 0)
		if err != nil {
			t.Fatal(err)
		}
		seen[obs]++
	}
	if len(seen) != 3 {
		t.Fatalf("3 tasks asked %v", seen)
	}
}
