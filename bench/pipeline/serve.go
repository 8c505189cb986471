package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quarry-rl/quarry/internal/openaitest"
)

// served is what the endpoint process reports when its input closes: when
// every successful completion was handed to the connection, the mean
// per-turn overhead (see turnGaps), and the peak of concurrent requests.
type served struct {
	Done  []time.Time   `json:"done"`
	Gap   time.Duration `json:"gap"`
	Gaps  int           `json:"gaps"`
	Peak  int           `json:"peak"`
	Count int           `json:"count"`
}

// chatTurn is the part of a served completion the report needs.
type chatTurn struct {
	// key hashes the request's messages; prev the messages without the
	// last two (the previous turn's request of the same episode).
	key, prev      uint64
	received, done time.Time
}

// hashMessages hashes the roles and contents of msgs.
func hashMessages(msgs []openaitest.Message) uint64 {
	h := fnv.New64a()
	for _, m := range msgs {
		h.Write([]byte(m.Role))
		h.Write([]byte{0})
		h.Write([]byte(m.Content))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// serveEndpoint runs the test server in this process (the benchmark's
// child): it prints its base URL on a line, serves until standard input
// closes, then prints the served report as JSON and returns.
func serveEndpoint(latency time.Duration, words int) error {
	var (
		mu    sync.Mutex
		turns []chatTurn
	)
	hook := func(r openaitest.Record) {
		if r.Status != 200 || r.Path != "/v1/chat/completions" {
			return
		}
		var body struct {
			Messages []openaitest.Message `json:"messages"`
		}
		if json.Unmarshal(r.Body, &body) != nil || len(body.Messages) == 0 {
			return
		}
		mu.Lock()
		t := chatTurn{key: hashMessages(body.Messages), received: r.Received, done: r.Done}
		if n := len(body.Messages); n > 2 {
			t.prev = hashMessages(body.Messages[:n-2])
		}
		turns = append(turns, t)
		mu.Unlock()
	}
	srv := openaitest.New(openaitest.WithPolicy(walkAway(words)), openaitest.WithLatency(latency), openaitest.WithHook(hook))
	defer srv.Close()
	fmt.Println(srv.BaseURL())
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		return err
	}
	peak := srv.MaxInFlight()
	srv.Close()
	mu.Lock()
	defer mu.Unlock()
	out := served{Peak: peak, Count: len(turns)}
	for _, t := range turns {
		out.Done = append(out.Done, t.done)
	}
	slices.SortFunc(out.Done, func(a, b time.Time) int { return a.Compare(b) })
	out.Gap, out.Gaps = turnGaps(turns)
	return json.NewEncoder(os.Stdout).Encode(out)
}

// endpointProc is the test server's process.
type endpointProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
	url   string
}

// startEndpoint re-executes this binary with -serve-endpoint.
func startEndpoint(ctx context.Context, latency time.Duration, words int) (*endpointProc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, self, "-serve-endpoint", "-latency", latency.String(), "-words", strconv.Itoa(words))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start endpoint process: %w", err)
	}
	p := &endpointProc{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
	line, err := p.out.ReadString('\n')
	if err != nil {
		p.kill()
		return nil, fmt.Errorf("endpoint process: no URL: %w", err)
	}
	p.url = strings.TrimSpace(line)
	return p, nil
}

// finish closes the process's input and reads its report.
func (p *endpointProc) finish() (served, error) {
	var s served
	p.stdin.Close()
	err := json.NewDecoder(p.out).Decode(&s)
	if werr := p.cmd.Wait(); werr != nil {
		err = errors.Join(err, fmt.Errorf("endpoint process: %w", werr))
	}
	return s, err
}

func (p *endpointProc) kill() {
	p.stdin.Close()
	p.cmd.Process.Kill()
	p.cmd.Wait()
}

// turnGaps is the mean time between a response and the same episode's next
// request: the pipeline's own per-turn cost (turn-log write, activity
// completion, workflow task, Act, scheduling and dispatching the next
// Generate), the part of a turn that is not the endpoint's latency. A
// request's predecessor is the request whose messages are its own without
// the last two (the reply and the next observation); requests whose
// messages another request shares (two episodes alike so far, or a retry)
// are left out.
func turnGaps(turns []chatTurn) (time.Duration, int) {
	byKey := map[uint64]int{}
	dup := map[uint64]bool{}
	for i, t := range turns {
		if _, ok := byKey[t.key]; ok {
			dup[t.key] = true
		}
		byKey[t.key] = i
	}
	var sum time.Duration
	n := 0
	for _, t := range turns {
		p, ok := byKey[t.prev]
		if t.prev == 0 || !ok || dup[t.prev] || dup[t.key] {
			continue
		}
		sum += t.received.Sub(turns[p].done)
		n++
	}
	if n == 0 {
		return 0, 0
	}
	return sum / time.Duration(n), n
}
