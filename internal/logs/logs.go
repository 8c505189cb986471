// Package logs sets the levels of what the Temporal SDK logs on Quarry's
// behalf, so that an operator's ERROR lines are final failures only.
//
// The SDK logs every failed activity attempt as "Activity error." at ERROR,
// including the attempts it is about to retry (a flaky endpoint, a store
// hiccup). Quarry retries by design and logs a permanently failed episode
// once, at ERROR, when its batch commits (activities.WriteShard); the
// SDK's per-attempt line is therefore a WARN, with the attempt number the
// SDK puts in it.
package logs

import (
	"context"
	"log/slog"
)

// ActivityErrorMessage is the message of the SDK's per-attempt line.
const ActivityErrorMessage = "Activity error."

// Handler wraps h: the SDK's per-attempt activity errors are logged at
// WARN instead of ERROR; every other record passes unchanged.
func Handler(h slog.Handler) slog.Handler { return handler{h} }

type handler struct{ inner slog.Handler }

func (h handler) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

func (h handler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelError && r.Message == ActivityErrorMessage {
		if !h.inner.Enabled(ctx, slog.LevelWarn) {
			return nil
		}
		r.Level = slog.LevelWarn
	}
	return h.inner.Handle(ctx, r)
}

func (h handler) WithAttrs(as []slog.Attr) slog.Handler { return handler{h.inner.WithAttrs(as)} }
func (h handler) WithGroup(name string) slog.Handler    { return handler{h.inner.WithGroup(name)} }
