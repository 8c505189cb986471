package metrics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.temporal.io/sdk/client"
)

// Paths the server answers (deploy/k8s probes and scrape configs use them).
const (
	PathMetrics = "/metrics"
	PathHealthz = "/healthz"
	PathReadyz  = "/readyz"
)

// readyTimeout bounds one readiness check (a Temporal health call).
const readyTimeout = 3 * time.Second

// Server serves a Metrics registry at /metrics, /healthz (the process is
// alive: always 200) and /readyz (200 once SetReady was called and its
// check passes, 503 before and while it fails).
type Server struct {
	srv   *http.Server
	ln    net.Listener
	ready atomic.Pointer[func(context.Context) error]
	done  chan error
}

// Serve listens on addr (host:port; port 0 picks a free one, Addr tells
// which) and serves m until Close.
func Serve(addr string, m *Metrics, log *slog.Logger) (*Server, error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, fmt.Errorf("--metrics-address %q: want host:port, e.g. 127.0.0.1:9464: %w", addr, err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-address %s: %w", addr, err)
	}
	s := &Server{ln: ln, done: make(chan error, 1)}
	mux := http.NewServeMux()
	mux.Handle("GET "+PathMetrics, promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg}))
	mux.HandleFunc("GET "+PathHealthz, func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET "+PathReadyz, s.readyz)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// SetReady makes /readyz answer with check's verdict (nil: ready). Until it
// is called /readyz answers 503.
func (s *Server) SetReady(check func(context.Context) error) { s.ready.Store(&check) }

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	check := s.ready.Load()
	if check == nil {
		http.Error(w, "not ready: starting", http.StatusServiceUnavailable)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if err := (*check)(ctx); err != nil {
		http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	fmt.Fprintln(w, "ready")
}

// Close stops the server, waiting up to ctx for requests in flight.
func (s *Server) Close(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	if serr := <-s.done; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	if err != nil {
		return fmt.Errorf("metrics server: %w", err)
	}
	return nil
}

// TemporalReady is a readiness check for a process whose worker has
// started: the Temporal frontend answers c's health check.
func TemporalReady(c interface {
	CheckHealth(context.Context, *client.CheckHealthRequest) (*client.CheckHealthResponse, error)
}) func(context.Context) error {
	return func(ctx context.Context) error {
		if _, err := c.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
			return fmt.Errorf("temporal: %w", err)
		}
		return nil
	}
}
