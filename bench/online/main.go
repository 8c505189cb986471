// Command online measures online consumption (docs/consume.md): the time
// from a batch's commit to a trainer holding its rows, and the stream's
// throughput, and prints tables of figures and ratios, then the figures as
// one JSON object.
//
//   - latency: a committer writes a batch's data files, waits -interval,
//     then writes its manifest (the commit; the clock starts as that write
//     starts); a consumer waiting for it holds the rows once it has decoded
//     the turns file (object-store protocol: internal/online.Consumer then
//     schema.ReadTurns) or received every record batch (Arrow Flight DoGet
//     against internal/online/stream on loopback), then acks. On a folder
//     and on versitygw, with the protocol's default polling (50 ms doubling
//     to 1 s) and a tight one (5 ms). p50/p99 over -batches batches.
//   - throughput: -stream-batches batches committed up front, read and acked
//     one after another as fast as the reader goes: turn rows/s and MB/s
//     (Arrow bytes received; Parquet bytes for the object-store reader).
//
// It is a program, not a test, so `go test ./...` never runs it:
//
//	go run ./bench/online                     # everything, about a minute
//	go run ./bench/online -s3=false -batches 20
//
// Everything binds to 127.0.0.1. See BENCHMARKS.md, "Online consumption".
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/online"
)

type config struct {
	batches, streamBatches int
	interval               time.Duration
	shape                  shape
	s3                     bool
}

// Latency is one latency run's figures.
type Latency struct {
	Path    string  `json:"path"`  // object-store or flight
	Store   string  `json:"store"` // folder or versitygw
	Poll    string  `json:"poll"`
	Batches int     `json:"batches"`
	P50ms   float64 `json:"p50_ms"`
	P99ms   float64 `json:"p99_ms"`
	MeanMs  float64 `json:"mean_ms"`
}

// Throughput is one throughput run's figures.
type Throughput struct {
	Path       string  `json:"path"`
	Store      string  `json:"store"`
	Batches    int     `json:"batches"`
	TurnRows   int64   `json:"turn_rows"`
	Seconds    float64 `json:"seconds"`
	RowsPerSec float64 `json:"turn_rows_per_s"`
	MBPerSec   float64 `json:"mb_per_s"`
	Bytes      string  `json:"bytes"` // what MBPerSec counts
}

func main() {
	var cfg config
	flag.IntVar(&cfg.batches, "batches", 30, "batches per latency run")
	flag.IntVar(&cfg.streamBatches, "stream-batches", 40, "batches per throughput run")
	flag.DurationVar(&cfg.interval, "interval", 200*time.Millisecond, "time between a batch's data files and its commit, and between commits")
	flag.IntVar(&cfg.shape.episodes, "episodes", 64, "episodes per batch")
	flag.IntVar(&cfg.shape.turns, "turns", 4, "turns per episode")
	flag.IntVar(&cfg.shape.tokens, "tokens", 512, "response tokens (with logprobs) per turn")
	flag.BoolVar(&cfg.s3, "s3", true, "also run on versitygw")
	flag.Parse()
	if err := run(context.Background(), cfg); err != nil {
		log.Fatal(err)
	}
}

// backendStore names a store kind and opens fresh stores of it.
type backendStore struct {
	name string
	open func(ctx context.Context, prefix string) (blob.Store, error)
}

func run(ctx context.Context, cfg config) error {
	dir, err := os.MkdirTemp("", "quarry-bench-online-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	stores := []backendStore{{"folder", func(ctx context.Context, prefix string) (blob.Store, error) {
		return blob.Open(ctx, dir+"/folder/"+prefix)
	}}}
	if cfg.s3 {
		v, err := startVersitygw(ctx, dir)
		if err != nil {
			return err
		}
		defer v.stop()
		stores = append(stores, backendStore{"versitygw", v.open})
	}
	polls := []struct {
		name string
		poll online.Poll
	}{
		{"default 50ms→1s", online.Poll{}},
		{"tight 5ms", online.Poll{Min: 5 * time.Millisecond, Max: 5 * time.Millisecond}},
	}
	var lats []Latency
	var tps []Throughput
	for _, st := range stores {
		for _, p := range polls {
			for _, path := range []string{"object-store", "flight"} {
				l, err := latencyRun(ctx, cfg, st, path, p.poll)
				if err != nil {
					return fmt.Errorf("latency %s on %s (%s): %w", path, st.name, p.name, err)
				}
				l.Poll = p.name
				lats = append(lats, l)
			}
		}
		for _, path := range []string{"object-store", "flight"} {
			tp, err := throughputRun(ctx, cfg, st, path)
			if err != nil {
				return fmt.Errorf("throughput %s on %s: %w", path, st.name, err)
			}
			tps = append(tps, tp)
		}
	}
	report(cfg, lats, tps)
	return nil
}

// latencyRun commits cfg.batches batches, one per interval, to a fresh job
// while a consumer follows it, and returns the commit-to-rows latencies.
func latencyRun(ctx context.Context, cfg config, st backendStore, path string, poll online.Poll) (Latency, error) {
	const job = "bench-latency"
	store, err := st.open(ctx, fmt.Sprintf("lat-%s-%d", path, time.Now().UnixNano()))
	if err != nil {
		return Latency{}, err
	}
	files := make([]batchFiles, cfg.batches)
	for n := range files {
		if files[n], err = build(job, n, cfg.shape); err != nil {
			return Latency{}, err
		}
	}
	r, stop, err := newReader(ctx, store, job, path, poll)
	if err != nil {
		return Latency{}, err
	}
	defer stop()

	committed := make([]time.Time, cfg.batches)
	errc := make(chan error, 1)
	go func() {
		for n, f := range files {
			if err := writeData(ctx, store, job, n, f); err != nil {
				errc <- err
				return
			}
			time.Sleep(cfg.interval)
			committed[n] = time.Now()
			if err := commit(ctx, store, job, n, f); err != nil {
				errc <- err
				return
			}
		}
		errc <- nil
	}()
	held := make([]time.Time, cfg.batches)
	for n := range held {
		if _, _, err := r.read(ctx, n); err != nil {
			return Latency{}, err
		}
		held[n] = time.Now()
		if err := r.ack(ctx, n); err != nil {
			return Latency{}, err
		}
	}
	if err := <-errc; err != nil {
		return Latency{}, err
	}
	lat := make([]time.Duration, len(held))
	for n := range held {
		lat[n] = held[n].Sub(committed[n])
	}
	p50, p99, mean := summarize(lat)
	return Latency{Path: path, Store: st.name, Batches: cfg.batches, P50ms: p50, P99ms: p99, MeanMs: mean}, nil
}

// throughputRun commits every batch first, then times one reader through
// all of them.
func throughputRun(ctx context.Context, cfg config, st backendStore, path string) (Throughput, error) {
	const job = "bench-throughput"
	store, err := st.open(ctx, fmt.Sprintf("tp-%s-%d", path, time.Now().UnixNano()))
	if err != nil {
		return Throughput{}, err
	}
	for n := range cfg.streamBatches {
		f, err := build(job, n, cfg.shape)
		if err != nil {
			return Throughput{}, err
		}
		if err := writeData(ctx, store, job, n, f); err != nil {
			return Throughput{}, err
		}
		if err := commit(ctx, store, job, n, f); err != nil {
			return Throughput{}, err
		}
	}
	r, stop, err := newReader(ctx, store, job, path, online.Poll{})
	if err != nil {
		return Throughput{}, err
	}
	defer stop()
	var rows, bytes int64
	start := time.Now()
	for n := range cfg.streamBatches {
		nr, nb, err := r.read(ctx, n)
		if err != nil {
			return Throughput{}, err
		}
		rows, bytes = rows+nr, bytes+nb
		if err := r.ack(ctx, n); err != nil {
			return Throughput{}, err
		}
	}
	secs := time.Since(start).Seconds()
	what := "parquet"
	if path == "flight" {
		what = "arrow"
	}
	return Throughput{Path: path, Store: st.name, Batches: cfg.streamBatches, TurnRows: rows, Seconds: secs,
		RowsPerSec: float64(rows) / secs, MBPerSec: float64(bytes) / secs / 1e6, Bytes: what}, nil
}

// summarize returns p50, p99 and the mean in milliseconds.
func summarize(ds []time.Duration) (p50, p99, mean float64) {
	s := slices.Clone(ds)
	slices.Sort(s)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return ms(at(0.5)), ms(at(0.99)), ms(sum) / float64(len(s))
}

func report(cfg config, lats []Latency, tps []Throughput) {
	fmt.Printf("online consumption: %d episodes × %d turns × %d tokens per batch; commit every %s\n\n",
		cfg.shape.episodes, cfg.shape.turns, cfg.shape.tokens, cfg.interval)
	base := map[string]float64{}
	for _, l := range lats {
		if l.Path == "object-store" && l.Store == "folder" {
			base[l.Poll] = l.P50ms
		}
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "path\tstore\tpoll\tp50 ms\tp99 ms\tmean ms\tp50 vs folder protocol\t")
	for _, l := range lats {
		fmt.Fprintf(w, "%s\t%s\t%s\t%.1f\t%.1f\t%.1f\t%.2f×\t\n", l.Path, l.Store, l.Poll, l.P50ms, l.P99ms, l.MeanMs, l.P50ms/base[l.Poll])
	}
	w.Flush()
	fmt.Println()
	w = tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "path\tstore\tbatches\tturn rows/s\tMB/s\tbytes\trows/s vs folder protocol\t")
	var baseRows float64
	for _, t := range tps {
		if t.Path == "object-store" && t.Store == "folder" {
			baseRows = t.RowsPerSec
		}
	}
	for _, t := range tps {
		fmt.Fprintf(w, "%s\t%s\t%d\t%.0f\t%.1f\t%s\t%.2f×\t\n", t.Path, t.Store, t.Batches, t.RowsPerSec, t.MBPerSec, t.Bytes, t.RowsPerSec/baseRows)
	}
	w.Flush()
	out, _ := json.Marshal(map[string]any{"latency": lats, "throughput": tps})
	fmt.Printf("\n%s\n", out)
}
