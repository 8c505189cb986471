package activities

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/sandbox/sandboxtest"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/tools/toolset"
)

// A code env whose sandbox cannot start is an infrastructure fault: Act
// fails with a retryable SandboxUnavailable error, not the episode's
// non-retryable EnvError.
func TestActRetriesWhenTheGradingSandboxIsUnavailable(t *testing.T) {
	down := func(context.Context) (*sandbox.Sandbox, error) {
		return nil, fmt.Errorf("sandbox: uids in use: %w", sandbox.ErrUnavailable)
	}
	reg, err := catalog.New(catalog.WithSamples(), catalog.WithSandbox(down))
	if err != nil {
		t.Fatal(err)
	}
	a := &Activities{Envs: reg, Stores: &Stores{}}
	srv := openaitest.Start(t, openaitest.WithPolicy(func([]openaitest.Message) string {
		return "```python\nprint(input())\n```"
	}))
	s := spec(t, `{job: c, envs: [{id: code:CodeContest}], tasks: 1, policy: {kind: openai, openai: {endpoints: ['`+srv.BaseURL()+`'], model: `+openaitest.DefaultModel+`}}}`)
	plans, err := ResolveEnvs(a.Envs, s)
	if err != nil {
		t.Fatal(err)
	}
	ep := EpisodeRef{Spec: s, Env: plans[0], Slot: s.BatchSlots(0)[0]}
	env := (&testsuite.WorkflowTestSuite{}).NewTestActivityEnvironment()
	env.RegisterActivity(a.Generate)
	env.RegisterActivity(a.Act)
	v, err := env.ExecuteActivity(a.Generate, GenerateInput{Episode: ep})
	if err != nil {
		t.Fatal(err)
	}
	var g GenerateResult
	v.Get(&g)
	_, err = env.ExecuteLocalActivity(a.Act, ActInput{Episode: ep, Gen: g.Ref})
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != "SandboxUnavailable" || ae.NonRetryable() {
		t.Fatalf("Act: %v, want a retryable SandboxUnavailable error", err)
	}
}

// A python tool call whose sandbox cannot start is an infrastructure
// fault too: ToolCall fails with a retryable ToolUnavailable error (the
// episode's ToolCall retry policy retries it on this or another worker),
// never an episode's fault, and the failure is not remembered — once the
// sandbox can start, the same call runs.
func TestToolCallRetriesWhenTheSandboxIsUnavailable(t *testing.T) {
	reg, err := catalog.New(catalog.WithSamples())
	if err != nil {
		t.Fatal(err)
	}
	var up atomic.Bool
	real := sandbox.Lazy(sandbox.Options{BaseDir: sandboxtest.Dir(t), UIDBase: 63500, Slots: 1}) // this package's uids
	provider := func(ctx context.Context) (*sandbox.Sandbox, error) {
		if !up.Load() {
			return nil, fmt.Errorf("sandbox: uids in use: %w", sandbox.ErrUnavailable)
		}
		return real(ctx)
	}
	a := &Activities{Envs: reg, Stores: &Stores{}, Tools: &toolset.Host{Provider: provider}}
	srv := openaitest.Start(t, openaitest.WithPolicy(func([]openaitest.Message) string {
		return "<python>print(6*7)</python>"
	}))
	s := spec(t, `{job: t, envs: [{id: math:GSM8K, options: {dataset: sample}}], tasks: 1, tools: {preset: python_tool}, policy: {kind: openai, openai: {endpoints: ['`+srv.BaseURL()+`'], model: `+openaitest.DefaultModel+`}}}`)
	plans, err := ResolveEnvs(a.Envs, s)
	if err != nil {
		t.Fatal(err)
	}
	ep := EpisodeRef{Spec: s, Env: plans[0], Slot: s.BatchSlots(0)[0]}
	env := (&testsuite.WorkflowTestSuite{}).NewTestActivityEnvironment()
	env.RegisterActivity(a.Generate)
	env.RegisterActivity(a.ToolCall)
	v, err := env.ExecuteActivity(a.Generate, GenerateInput{Episode: ep})
	if err != nil {
		t.Fatal(err)
	}
	var g GenerateResult
	if err := v.Get(&g); err != nil {
		t.Fatal(err)
	}
	_, err = env.ExecuteActivity(a.ToolCall, ToolCallInput{Episode: ep, Gen: g.Ref})
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != ErrTypeToolUnavailable || ae.NonRetryable() {
		t.Fatalf("ToolCall with the sandbox down: %v, want a retryable %s error", err, ErrTypeToolUnavailable)
	}

	up.Store(true)
	v, err = env.ExecuteActivity(a.ToolCall, ToolCallInput{Episode: ep, Gen: g.Ref})
	if err != nil {
		t.Fatalf("ToolCall once the sandbox can start: %v", err)
	}
	var res ActResult
	if err := v.Get(&res); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		a.toolHost().CloseAll()
		if sb, err := real(context.Background()); err == nil {
			sb.Close()
		}
	})
	st, err := a.Stores.Open(context.Background(), s.Output)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := turnlog.ReadRecord(context.Background(), st, res.Ref)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.Observation, "42") {
		t.Fatalf("the call's observation %q lacks its output 42", rec.Observation)
	}
}
