package metrics

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"
)

// Process is a command's metrics: the registry and its HTTP server. A nil
// *Process (metrics off) is valid: its methods do nothing.
type Process struct {
	*Metrics
	srv *Server
}

// Start builds the registry and serves it at addr; with addr empty metrics
// are off and Start returns nil.
func Start(addr string, log *slog.Logger, opts ...Option) (*Process, error) {
	if addr == "" {
		return nil, nil
	}
	m, err := New(append([]Option{WithLogger(log)}, opts...)...)
	if err != nil {
		return nil, err
	}
	srv, err := Serve(addr, m, log)
	if err != nil {
		return nil, errors.Join(err, m.Close())
	}
	log.Info("metrics: serving", "address", srv.Addr(), "paths", PathMetrics+" "+PathHealthz+" "+PathReadyz)
	return &Process{Metrics: m, srv: srv}, nil
}

// Handler is the Temporal client's metrics handler (nil when metrics are off).
func (p *Process) Handler() client.MetricsHandler {
	if p == nil {
		return nil
	}
	return p.Temporal()
}

// Ready makes /readyz answer 200 while c's frontend answers: call it once
// the worker has started polling.
func (p *Process) Ready(c client.Client) {
	if p != nil {
		p.srv.SetReady(TemporalReady(c))
	}
}

// Addr is where the server listens ("" when metrics are off).
func (p *Process) Addr() string {
	if p == nil {
		return ""
	}
	return p.srv.Addr()
}

// Close stops the server and the SDK metrics pipeline.
func (p *Process) Close() error {
	if p == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return errors.Join(p.srv.Close(ctx), p.Metrics.Close())
}
