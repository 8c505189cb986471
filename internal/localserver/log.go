package localserver

import (
	"fmt"
	"log/slog"

	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/log/tag"
)

// serverLogger adapts slog to the server's logger. The embedded server is
// chatty — its internal workers warn about every dropped poll while it
// stops — so only errors pass.
type serverLogger struct{ l *slog.Logger }

func newServerLogger(l *slog.Logger) log.Logger { return serverLogger{l.With("component", "temporal")} }

func attrs(tags []tag.Tag) []any {
	out := make([]any, 0, 2*len(tags))
	for _, t := range tags {
		out = append(out, t.Key(), fmt.Sprint(t.Value()))
	}
	return out
}

func (s serverLogger) Debug(string, ...tag.Tag)           {}
func (s serverLogger) Info(string, ...tag.Tag)            {}
func (s serverLogger) Warn(string, ...tag.Tag)            {}
func (s serverLogger) Error(msg string, tags ...tag.Tag)  { s.l.Error(msg, attrs(tags)...) }
func (s serverLogger) DPanic(msg string, tags ...tag.Tag) { s.l.Error(msg, attrs(tags)...) }
func (s serverLogger) Panic(msg string, tags ...tag.Tag)  { s.l.Error(msg, attrs(tags)...); panic(msg) }
func (s serverLogger) Fatal(msg string, tags ...tag.Tag)  { s.l.Error(msg, attrs(tags)...); panic(msg) }
