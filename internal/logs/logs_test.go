package logs

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	sdklog "go.temporal.io/sdk/log"
)

// The SDK's per-attempt activity error reaches the log as WARN with its
// attempt; other ERROR records stay ERROR; levels below the handler's are
// still dropped.
func TestActivityErrorsAreWarnings(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(Handler(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelWarn})))
	sdk := sdklog.NewStructuredLogger(log).(sdklog.WithLogger).With("Namespace", "default")
	sdk.Error(ActivityErrorMessage, "ActivityType", "quarry.Generate", "Attempt", 3, "Error", "boom")
	sdk.Error("Workflow panic.", "Attempt", 1)
	sdk.Info("Started Worker")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 lines, got %q", buf.String())
	}
	if !strings.Contains(lines[0], "level=WARN") || !strings.Contains(lines[0], "Attempt=3") || !strings.Contains(lines[0], "Namespace=default") {
		t.Errorf("activity error: %s", lines[0])
	}
	if !strings.Contains(lines[1], "level=ERROR") {
		t.Errorf("other errors stay errors: %s", lines[1])
	}

	buf.Reset()
	quiet := slog.New(Handler(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelError})))
	quiet.Error(ActivityErrorMessage, "Attempt", 1)
	if buf.Len() != 0 {
		t.Errorf("a WARN reached an ERROR-only log: %q", buf.String())
	}
}
