package activities

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/sandbox"
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
