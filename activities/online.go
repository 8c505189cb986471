package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/schema"
)

// WaitConsumersName is the activity an online job runs while it may not
// start a batch until its consumers catch up.
const WaitConsumersName = "quarry.WaitConsumers"

// WaitConsumersInput asks for the consumers' cursors.
type WaitConsumersInput struct {
	Output    string   `json:"output"`
	Job       string   `json:"job"`
	Consumers []string `json:"consumers"`
	// Target is the cursor position the job waits for: the activity
	// returns once the slowest consumer's next_batch reaches it, or after
	// Max (the job then asks again), whichever is first.
	Target int           `json:"target"`
	Max    time.Duration `json:"max"`
}

// WaitConsumersResult is the slowest consumer's position.
type WaitConsumersResult struct {
	Slowest int `json:"slowest"`
}

// Polling the cursors: from waitPollFirst, doubling to waitPollMax.
const (
	waitPollFirst = 50 * time.Millisecond
	waitPollMax   = time.Second
)

// WaitConsumers polls the consumers' cursor objects until the slowest has
// reached in.Target (or in.Max passes), heartbeating as it goes.
func (a *Activities) WaitConsumers(ctx context.Context, in WaitConsumersInput) (WaitConsumersResult, error) {
	st, err := a.Stores.Open(ctx, in.Output)
	if err != nil {
		return WaitConsumersResult{}, err
	}
	deadline := time.Now().Add(in.Max)
	for delay := waitPollFirst; ; delay = min(2*delay, waitPollMax) {
		slowest, err := SlowestConsumer(ctx, st, in.Job, in.Consumers)
		if err != nil {
			return WaitConsumersResult{}, err
		}
		if slowest >= in.Target || time.Now().After(deadline) {
			return WaitConsumersResult{Slowest: slowest}, nil
		}
		if activity.IsActivity(ctx) {
			activity.RecordHeartbeat(ctx, slowest)
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return WaitConsumersResult{}, ctx.Err()
		case <-t.C:
		}
	}
}

// SlowestConsumer is the smallest next_batch among the named consumers'
// cursors (a missing cursor is at 0).
func SlowestConsumer(ctx context.Context, st blob.Store, job string, names []string) (int, error) {
	slowest := -1
	for _, name := range names {
		n := 0
		data, err := blob.ReadAll(ctx, st, schema.CursorKey(job, name))
		switch {
		case errors.Is(err, blob.ErrNotExist):
		case err != nil:
			return 0, fmt.Errorf("job %s: cursor of %s: %w", job, name, err)
		default:
			c, err := schema.UnmarshalCursor(data)
			if err != nil {
				// Retried: the job waits (and says why in its
				// progress) until the consumer writes a valid cursor.
				return 0, fmt.Errorf("job %s: cursor of %s: %w", job, name, err)
			}
			n = c.NextBatch
		}
		if slowest < 0 || n < slowest {
			slowest = n
		}
	}
	return max(slowest, 0), nil
}
