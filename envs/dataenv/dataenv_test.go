package dataenv_test

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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

// A dataset server that stalls fails the episode's load within the stall
// timeout; the failure is not remembered, so the same env loads the dataset
// once the server answers (before, a sync.Once kept the first error, and
// http.DefaultClient waited forever).
func TestStalledLoadFailsThenRetries(t *testing.T) {
	body, err := samples.ReadFile("testdata/sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var stall atomic.Bool
	var stalled atomic.Int32
	quit := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if stall.Load() {
			stalled.Add(1)
			select { // accept the request, never answer
			case <-r.Context().Done():
			case <-quit:
			}
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(quit) })
	stall.Store(true)
	e := dataenv.New(family("a"), srv.URL+"/sample.jsonl",
		dataset.WithCacheDir(t.TempDir()), dataset.WithStallTimeout(200*time.Millisecond))
	done := make(chan error, 1)
	go func() { _, err := e.Rows(); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, dataset.ErrStalled) {
			t.Fatalf("stalled server: got %v, want dataset.ErrStalled", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the load of a stalled dataset did not end")
	}
	if stalled.Load() == 0 {
		t.Fatal("the server never stalled: the test proves nothing")
	}
	stall.Store(false)
	if n, err := e.Rows(); err != nil || n != 3 {
		t.Fatalf("after the server recovered: rows %d, %v", n, err)
	}
	obs, _, err := e.ResetTask(1)
	if err != nil || obs != "What is 2 + 2?" {
		t.Fatalf("row 1: %q %v", obs, err)
	}
}
