package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"golang.org/x/sync/errgroup"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/online"
	"github.com/quarry-rl/quarry/internal/online/stream"
	"github.com/quarry-rl/quarry/internal/tclient"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/workflows"
)

// serveConfig is what `quarry serve` runs.
type serveConfig struct {
	output   string
	listen   string // Flight
	httpAddr string // control API; "" disables it
	conn     tclient.Options
}

func newServeCmd() *cobra.Command {
	cfg := serveConfig{}
	cmd := &cobra.Command{
		Use:   "serve --output DIR|s3://bucket/prefix",
		Short: "Stream online jobs' batches to trainers (Arrow Flight) and take their acks and policy versions (HTTP)",
		Long: "Serve every online job under --output (docs/consume.md):\n" +
			"  Arrow Flight on --listen: DoGet with ticket {\"job\",\"consumer\",\"table\":\"turns\"|\"episodes\",\"wait_ms\"}\n" +
			"  streams the consumer's next committed batch; actions \"ack\" {\"job\",\"consumer\",\"batch\"} and \"cursor\".\n" +
			"  HTTP on --http: POST /v1/jobs/{job}/policy {\"version\",\"model\"} announces a policy version (a Temporal\n" +
			"  signal to the job); GET and POST /v1/jobs/{job}/cursors/{consumer} ({\"batch\":n}) read and ack cursors.\n" +
			"Both bind loopback by default; neither authenticates, so put them behind your own network policy.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := retrieveContext(cmd)
			defer stop()
			log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
			return runServe(ctx, cfg, cmd.OutOrStdout(), log)
		},
	}
	cmd.Flags().StringVar(&cfg.output, "output", "", "output root the jobs write to: a folder or s3://bucket/prefix (required)")
	cmd.Flags().StringVar(&cfg.listen, "listen", "127.0.0.1:8815", "Arrow Flight address")
	cmd.Flags().StringVar(&cfg.httpAddr, "http", "127.0.0.1:8816", `HTTP control address ("" disables it)`)
	cfg.conn.AddFlags(cmd.Flags())
	_ = cmd.MarkFlagRequired("output")
	return cmd
}

// runServe serves until ctx ends, then stops both servers and waits for
// them. Once both listen it prints their addresses to out (one line).
func runServe(ctx context.Context, cfg serveConfig, out io.Writer, log *slog.Logger) error {
	store, err := blob.Open(ctx, cfg.output, blob.WithLogger(log))
	if err != nil {
		return err
	}
	if err := store.Preflight(ctx); err != nil {
		return err
	}
	fsrv, err := stream.Listen(cfg.listen, &stream.Service{Store: store, Log: log})
	if err != nil {
		return err
	}
	var g errgroup.Group
	g.Go(fsrv.Serve)
	var (
		hsrv  *http.Server
		haddr net.Addr
	)
	sig := &lazyTemporal{dial: func() (client.Client, error) { return cfg.conn.Dial(log) }}
	defer sig.Close()
	if cfg.httpAddr != "" {
		ln, err := net.Listen("tcp", cfg.httpAddr)
		if err != nil {
			fsrv.Shutdown()
			_ = g.Wait()
			return fmt.Errorf("http control: listen on %s: %w", cfg.httpAddr, err)
		}
		haddr = ln.Addr()
		hsrv = &http.Server{Handler: newControl(store, sig, log), ReadHeaderTimeout: 10 * time.Second}
		g.Go(func() error {
			if err := hsrv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
				return fmt.Errorf("http control: %w", err)
			}
			return nil
		})
	}
	control := "off"
	if haddr != nil {
		control = haddr.String()
	}
	fmt.Fprintf(out, "flight on %s, http control on %s\n", fsrv.Addr(), control)
	log.Info("serving", "output", store.URL(), "flight", fsrv.Addr().String(), "http", cfg.httpAddr)
	<-ctx.Done()
	if hsrv != nil {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = hsrv.Shutdown(sctx)
	}
	fsrv.Shutdown()
	return g.Wait()
}

// Signaler sends a signal to a workflow (client.Client does).
type Signaler interface {
	SignalWorkflow(ctx context.Context, workflowID, runID, signalName string, arg any) error
}

// lazyTemporal dials Temporal on the first signal, so the stream and the
// cursor endpoints serve while the cluster is down; a failed dial is tried
// again by the next signal.
type lazyTemporal struct {
	dial func() (client.Client, error)
	mu   sync.Mutex
	c    client.Client
}

func (l *lazyTemporal) SignalWorkflow(ctx context.Context, id, runID, name string, arg any) error {
	l.mu.Lock()
	if l.c == nil {
		c, err := l.dial()
		if err != nil {
			l.mu.Unlock()
			return fmt.Errorf("%w: %w", errTemporal, err)
		}
		l.c = c
	}
	c := l.c
	l.mu.Unlock()
	return c.SignalWorkflow(ctx, id, runID, name, arg)
}

func (l *lazyTemporal) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.c != nil {
		l.c.Close()
		l.c = nil
	}
}

var errTemporal = errors.New("temporal unreachable")

// maxBody bounds a control request's body.
const maxBody = 1 << 16

// newControl is the HTTP control API: policy announcements and cursors,
// JSON in and out, so a trainer needs neither Temporal nor pyarrow.
func newControl(store blob.Store, sig Signaler, log *slog.Logger) http.Handler {
	c := &control{store: store, sig: sig, log: log}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/jobs/{job}/policy", c.policy)
	mux.HandleFunc("GET /v1/jobs/{job}/cursors/{consumer}", c.cursor)
	mux.HandleFunc("POST /v1/jobs/{job}/cursors/{consumer}", c.ack)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Errorf("%s %s: no such endpoint (POST /v1/jobs/{job}/policy, GET|POST /v1/jobs/{job}/cursors/{consumer})", r.Method, r.URL.Path))
	})
	return mux
}

type control struct {
	store blob.Store
	sig   Signaler
	log   *slog.Logger
}

// policy announces a version: the job workflow (id = job id) gets
// workflows.SignalPolicy.
func (c *control) policy(w http.ResponseWriter, r *http.Request) {
	job := r.PathValue("job")
	if err := online.CheckJob(job); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	var p workflows.PolicySignal
	if err := decodeBody(w, r, &p); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if err := schema.CheckVersionLabel(p.Version); err != nil {
		writeError(w, http.StatusBadRequest, fmt.Errorf("version: %w", err))
		return
	}
	if len(p.Model) > schema.MaxNameLen {
		writeError(w, http.StatusBadRequest, fmt.Errorf("model: %d bytes: want at most %d", len(p.Model), schema.MaxNameLen))
		return
	}
	err := c.sig.SignalWorkflow(r.Context(), job, "", workflows.SignalPolicy, p)
	var nf *serviceerror.NotFound
	switch {
	case errors.As(err, &nf):
		writeError(w, http.StatusNotFound, fmt.Errorf("job %s: no running workflow with this id (%v)", job, err))
	case errors.Is(err, errTemporal):
		writeError(w, http.StatusServiceUnavailable, err)
	case err != nil:
		c.log.Error("policy signal failed", "job", job, "err", err)
		writeError(w, http.StatusBadGateway, fmt.Errorf("signal job %s: %w", job, err))
	default:
		c.log.Info("policy announced", "job", job, "version", p.Version, "model", p.Model)
		writeJSON(w, http.StatusOK, map[string]string{"job": job, "version": p.Version, "model": p.Model})
	}
}

func (c *control) cursor(w http.ResponseWriter, r *http.Request) {
	cur, err := online.ReadCursor(r.Context(), c.store, r.PathValue("job"), r.PathValue("consumer"))
	c.writeCursor(w, cur, err)
}

func (c *control) ack(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Batch *int `json:"batch"`
	}
	if err := decodeBody(w, r, &body); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if body.Batch == nil {
		writeError(w, http.StatusBadRequest, errors.New("batch: required (the batch the trainer has used)"))
		return
	}
	cur, err := online.Ack(r.Context(), c.store, r.PathValue("job"), r.PathValue("consumer"), *body.Batch)
	c.writeCursor(w, cur, err)
}

func (c *control) writeCursor(w http.ResponseWriter, cur schema.Cursor, err error) {
	switch {
	case errors.Is(err, online.ErrInvalidName):
		writeError(w, http.StatusBadRequest, err)
	case errors.Is(err, online.ErrAhead):
		writeError(w, http.StatusConflict, err)
	case err != nil:
		c.log.Error("cursor request failed", "err", err)
		writeError(w, http.StatusInternalServerError, err)
	default:
		writeJSON(w, http.StatusOK, cur)
	}
}

// decodeBody decodes a JSON body strictly (unknown fields are errors).
func decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		return fmt.Errorf("body: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("body: %w", err)
	}
	return nil
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, err error) {
	writeJSON(w, code, map[string]string{"error": err.Error()})
}
