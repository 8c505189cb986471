package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/types/known/durationpb"
)

// namespace registers a namespace (an existing one is kept) and returns once
// a namespace-scoped call answers through the frontend and matching: a
// cluster that has just started, or a namespace just registered, answers
// "unavailable" or "not found" for a few seconds, and the scripts must not
// hand the cluster to workers before then.
func namespace(args []string) error {
	fs := flag.NewFlagSet("namespace", flag.ContinueOnError)
	address := fs.String("address", "127.0.0.1:7233", "frontend host:port")
	name := fs.String("namespace", "default", "namespace to register")
	retention := fs.Duration("retention", 72*time.Hour, "how long closed workflows are kept")
	timeout := fs.Duration("timeout", 2*time.Minute, "how long to wait for the cluster")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	err := retry(ctx, func(ctx context.Context) error {
		return register(ctx, *address, *name, *retention)
	})
	if err != nil {
		return fmt.Errorf("namespace %q at %s: %w", *name, *address, err)
	}
	fmt.Fprintf(os.Stderr, "namespace %q is served at %s\n", *name, *address)
	return nil
}

func register(ctx context.Context, address, name string, retention time.Duration) error {
	c, err := client.DialContext(ctx, client.Options{HostPort: address, Namespace: name, Logger: quiet{}})
	if err != nil {
		return fmt.Errorf("dial: %w", err)
	}
	defer c.Close()
	_, err = c.WorkflowService().RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
		Namespace:                        name,
		WorkflowExecutionRetentionPeriod: durationpb.New(retention),
	})
	var exists *serviceerror.NamespaceAlreadyExists
	if err != nil && !errors.As(err, &exists) {
		return fmt.Errorf("register: %w", err)
	}
	_, err = c.WorkflowService().DescribeTaskQueue(ctx, &workflowservice.DescribeTaskQueueRequest{
		Namespace:     name,
		TaskQueue:     &taskqueuepb.TaskQueue{Name: "temporal-cluster-probe", Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
		TaskQueueType: enumspb.TASK_QUEUE_TYPE_WORKFLOW,
	})
	if err != nil {
		return fmt.Errorf("describe a task queue: %w", err)
	}
	return nil
}

// retry calls f until it succeeds or ctx ends, returning the last error.
func retry(ctx context.Context, f func(context.Context) error) error {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		attempt, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := f(attempt)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not ready: %w", err)
		case <-tick.C:
		}
	}
}

// freePorts prints n loopback ports nobody listens on, one a line, from
// 20000–32767: below the kernel's ephemeral range (32768+), so a port stays
// free for a restarted service rather than being taken by some outgoing
// connection, and within the smallint column Temporal stores membership
// ports in. All n listeners are open at once, so the ports differ.
func freePorts(args []string) error {
	if len(args) != 1 {
		return errors.New("free-ports: want the number of ports")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		return fmt.Errorf("free-ports: %q is not a positive count", args[0])
	}
	const lo, hi = 20000, 32767
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	start := lo + rand.IntN(hi-lo+1)
	for i := 0; i <= hi-lo && len(ls) < n; i++ {
		port := lo + (start-lo+i)%(hi-lo+1)
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			continue // taken
		}
		ls = append(ls, l)
		fmt.Println(port)
	}
	if len(ls) < n {
		return fmt.Errorf("free-ports: only %d of %d ports free in %d-%d", len(ls), n, lo, hi)
	}
	return nil
}

// quiet drops the SDK client's logs: failed attempts are expected while the
// cluster starts, and the last error is reported.
type quiet struct{}

func (quiet) Debug(string, ...any) {}
func (quiet) Info(string, ...any)  {}
func (quiet) Warn(string, ...any)  {}
func (quiet) Error(string, ...any) {}
