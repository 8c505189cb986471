package retail_test

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/multiagent"
	"github.com/quarry-rl/quarry/envs/retail"
)

func registry(t testing.TB) *envs.Registry {
	t.Helper()
	r := envs.NewRegistry()
	if err := retail.Register(r); err != nil {
		t.Fatal(err)
	}
	return r
}

func scripted() map[string]multiagent.Policy {
	return map[string]multiagent.Policy{retail.Assistant: multiagent.OraclePolicy(), retail.Customer: multiagent.OraclePolicy()}
}

// The oracle assistant, with the scripted customer, solves every task.
func TestOracleSolvesEveryTask(t *testing.T) {
	env := retail.New(retail.DefaultOptions)
	if n := env.Rows(); n < 50 {
		t.Fatalf("%d tasks, want at least 50", n)
	}
	kinds := map[string]int{}
	for row := range env.Rows() {
		start, err := env.ResetTask(row)
		if err != nil {
			t.Fatal(err)
		}
		ep, err := multiagent.Continue(env, start, uint64(row), scripted(), 200)
		if err != nil {
			t.Fatal(err)
		}
		task := env.Task()
		kinds[task.Kind]++
		x := ep.Info.Extra
		if !ep.Done || ep.Total(retail.Assistant) != 1 || ep.Total(retail.Customer) != 1 {
			t.Errorf("task %s: assistant %v customer %v (end %v, db_match %v, missing %v, breaks %v, violations %v)\n%s",
				task.ID, ep.Total(retail.Assistant), ep.Total(retail.Customer), x["end"], x["db_match"], x["missing_facts"], x["customer_breaks"], x["policy_violations"], transcript(ep))
			continue
		}
		if v := x["policy_violations"].([]string); len(v) > 0 {
			t.Errorf("task %s: the oracle broke the policy: %v", task.ID, v)
		}
		if x["customer_broke_instructions"] != false {
			t.Errorf("task %s: the scripted customer was flagged: %v", task.ID, x["customer_breaks"])
		}
	}
	if len(kinds) < 10 {
		t.Errorf("task kinds %v, want all 10", kinds)
	}
}

func transcript(ep multiagent.Episode) string {
	var b strings.Builder
	for _, t := range ep.Turns {
		b.WriteString(t.Agent.ID + ": " + t.Action + "\n")
		if t.Agent.ID == retail.Assistant && strings.HasPrefix(t.Action, "<tool_call>") {
			b.WriteString("  -> " + t.Observation + "\n")
		}
	}
	return b.String()
}

func TestConformance(t *testing.T) {
	r := registry(t)
	for _, id := range r.IDs() {
		t.Run(id, func(t *testing.T) { envtest.Run(t, r, id) })
	}
}
