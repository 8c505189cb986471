//go:build linux

package clustertest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
)

// WaitPollers waits until every one of procs polls queue for activities,
// as the server sees it (the SDK's default identity starts with the pid).
func (c *Cluster) WaitPollers(ctx context.Context, queue string, procs []*Proc) error {
	tc, err := client.DialContext(ctx, client.Options{HostPort: c.Getenv("TEMPORAL_ADDRESS"), Namespace: c.Getenv("TEMPORAL_NAMESPACE")})
	if err != nil {
		return fmt.Errorf("dial the cluster: %w", err)
	}
	defer tc.Close()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		resp, err := tc.WorkflowService().DescribeTaskQueue(ctx, &workflowservice.DescribeTaskQueueRequest{
			Namespace:     c.Getenv("TEMPORAL_NAMESPACE"),
			TaskQueue:     &taskqueuepb.TaskQueue{Name: queue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
			TaskQueueType: enumspb.TASK_QUEUE_TYPE_ACTIVITY,
		})
		missing := len(procs)
		if err == nil {
			for _, p := range procs {
				for _, poller := range resp.GetPollers() {
					if strings.HasPrefix(poller.GetIdentity(), strconv.Itoa(p.Pid())+"@") {
						missing--
						break
					}
				}
			}
		}
		if missing == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d of %d workers not polling %s (last error: %v): %w", missing, len(procs), queue, err, ctx.Err())
		case <-tick.C:
		}
		for _, p := range procs {
			select {
			case <-p.Done():
				return fmt.Errorf("%s exited: %v", p.Name, p.Err())
			default:
			}
		}
	}
}
