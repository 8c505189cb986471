package online_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/online"
)

// A trainer acks each batch once the step that used it is durable; acking
// an earlier batch again (a restart re-acking its checkpoint) changes
// nothing, and acking one it has not reached is refused.
func ExampleAck() {
	dir, _ := os.MkdirTemp("", "quarry-example-")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	store, _ := blob.Open(ctx, dir)

	for _, n := range []int{0, 1, 0} {
		c, err := online.Ack(ctx, store, "my-job", "trainer", n)
		fmt.Println("ack", n, "→ next_batch", c.NextBatch, err)
	}
	_, err := online.Ack(ctx, store, "my-job", "trainer", 5)
	fmt.Println("ack 5:", errors.Is(err, online.ErrAhead))
	slowest, _ := online.Slowest(ctx, store, "my-job", []string{"trainer", "evaluator"})
	fmt.Println("slowest:", slowest)
	// Output:
	// ack 0 → next_batch 1 <nil>
	// ack 1 → next_batch 2 <nil>
	// ack 0 → next_batch 2 <nil>
	// ack 5: true
	// slowest: 0
}
