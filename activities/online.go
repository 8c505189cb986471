package activities

import (
	"context"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/quarry-rl/quarry/internal/online"
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
		slowest, err := online.Slowest(ctx, st, in.Job, in.Consumers)
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
