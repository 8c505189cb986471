package retail_test

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"sync"
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
	env := retail.NewShared(retail.DefaultOptions)
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

// A random assistant (messages and tool calls with arguments from the
// store) almost never reaches the goal; one that only chats never does; the
// scripted customer keeps to its instruction facing either.
func TestRandomAndGarbageScoreZero(t *testing.T) {
	env := retail.NewShared(retail.DefaultOptions)
	var random, garbage float64
	for row := range env.Rows() {
		for _, p := range []struct {
			pol multiagent.Policy
			sum *float64
		}{
			{multiagent.RandomPolicy(uint64(row)), &random},
			{multiagent.PolicyFunc(func(multiagent.Env, multiagent.Agent, string) (string, error) { return "I give up.", nil }), &garbage},
		} {
			start, err := env.ResetTask(row)
			if err != nil {
				t.Fatal(err)
			}
			ep, err := multiagent.Continue(env, start, uint64(row), map[string]multiagent.Policy{
				retail.Assistant: p.pol, retail.Customer: multiagent.OraclePolicy()}, 200)
			if err != nil {
				t.Fatal(err)
			}
			if !ep.Done {
				t.Fatalf("task %d: episode not over after 200 turns", row)
			}
			*p.sum += ep.Total(retail.Assistant)
			if ep.Info.Extra["customer_broke_instructions"] != false {
				t.Errorf("task %d: the scripted customer was flagged facing a bad assistant: %v", row, ep.Info.Extra["customer_breaks"])
			}
		}
	}
	n := float64(env.Rows())
	if random/n > 0.05 || garbage != 0 {
		t.Fatalf("mean reward: random %v, garbage %v; want ~0 and 0", random/n, garbage/n)
	}
}

// firstTask returns the first row whose task satisfies ok.
func firstTask(t *testing.T, env *retail.Env, ok func(*retail.Task, *retail.DB) bool) int {
	t.Helper()
	db := env.Store()
	for row, task := range env.Tasks() {
		if ok(&task, db) {
			return row
		}
	}
	t.Fatal("no task fits")
	return -1
}

// Cancelling another of the customer's pending orders than the one asked
// for scores 0, though every other step is the oracle's.
func TestWrongOrderScoresZero(t *testing.T) {
	env := retail.NewShared(retail.DefaultOptions)
	var target, other string
	row := firstTask(t, env, func(task *retail.Task, db *retail.DB) bool {
		if task.Kind != "cancel" {
			return false
		}
		var args struct {
			OrderID string `json:"order_id"`
		}
		json.Unmarshal(task.Steps[0].Write.Args, &args)
		for _, id := range db.Users[task.UserID].Orders {
			if id != args.OrderID && db.Orders[id].Status == retail.Pending {
				target, other = args.OrderID, id
				return true
			}
		}
		return false
	})
	wrong := multiagent.PolicyFunc(func(e multiagent.Env, a multiagent.Agent, obs string) (string, error) {
		act, err := e.(multiagent.Oracle).OracleAction(a.ID)
		if strings.Contains(act, "cancel_pending_order") {
			act = strings.ReplaceAll(act, target, other)
		}
		return act, err
	})
	start, _ := env.ResetTask(row)
	ep, err := multiagent.Continue(env, start, 0, map[string]multiagent.Policy{retail.Assistant: wrong, retail.Customer: multiagent.OraclePolicy()}, 200)
	if err != nil {
		t.Fatal(err)
	}
	if !ep.Done || ep.Total(retail.Assistant) != 0 || ep.Info.Extra["db_match"] != false {
		t.Fatalf("wrong cancel: reward %v, info %v", ep.Total(retail.Assistant), ep.Info.Extra)
	}
	// The customer did nothing wrong.
	if ep.Info.Extra["customer_broke_instructions"] != false || ep.Total(retail.Customer) != 1 {
		t.Fatalf("the customer was flagged: %v", ep.Info.Extra["customer_breaks"])
	}
}

// A customer that breaks its instruction is flagged (and the flag is in
// every later step's info); the scripted customer never is (see
// TestOracleSolvesEveryTask).
func TestInstructionBreaksAreFlagged(t *testing.T) {
	env := retail.NewShared(retail.DefaultOptions)
	staged := firstTask(t, env, func(task *retail.Task, _ *retail.DB) bool { return task.Kind == "cancel_then_return" })
	plain := firstTask(t, env, func(task *retail.Task, _ *retail.DB) bool { return task.Kind == "return" })
	// misbehave lets the scripted customer speak, except on its second
	// message, which say replaces.
	misbehave := func(say func(task *retail.Task, scripted string) string) multiagent.Policy {
		n := 0
		return multiagent.PolicyFunc(func(e multiagent.Env, a multiagent.Agent, obs string) (string, error) {
			act, err := e.(multiagent.Oracle).OracleAction(a.ID)
			n++
			if n == 2 {
				act = say(e.(*retail.Env).Task(), act)
			}
			return act, err
		})
	}
	cases := []struct {
		name, want string
		row        int
		customer   multiagent.Policy
	}{
		{"asks for something not in its instruction", "not in its instruction", plain,
			misbehave(func(_ *retail.Task, s string) string { return s + " Also, please cancel order #W0000001." })},
		{"reveals a later line first", "before the earlier request was done", staged,
			misbehave(func(t *retail.Task, _ string) string { return t.Lines[len(t.Lines)-2].Text })},
		{"stops before telling its order", "stopped before telling", plain,
			misbehave(func(*retail.Task, string) string { return "Never mind. " + retail.StopToken })},
		{"says nothing", "empty message", plain,
			misbehave(func(*retail.Task, string) string { return " " })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start, _ := env.ResetTask(c.row)
			ep, err := multiagent.Continue(env, start, 0, map[string]multiagent.Policy{retail.Assistant: multiagent.OraclePolicy(), retail.Customer: c.customer}, 200)
			if err != nil {
				t.Fatal(err)
			}
			breaks := strings.Join(env.Breaks(), "; ")
			if !strings.Contains(breaks, c.want) {
				t.Fatalf("breaks %q, want one saying %q", breaks, c.want)
			}
			if ep.Info.Extra["customer_broke_instructions"] != true || ep.Total(retail.Customer) != 0 {
				t.Fatalf("final info %v, customer reward %v", ep.Info.Extra, ep.Total(retail.Customer))
			}
			last := ep.Turns[len(ep.Turns)-1]
			if last.Info.Extra["customer_broke_instructions"] != true {
				t.Fatal("the last step does not carry the flag")
			}
		})
	}
}

// A customer that tells its whole instruction at once is noted, not
// flagged: telling more than asked cannot mis-score the episode.
func TestTellingEverythingAtOnceIsANote(t *testing.T) {
	env := retail.NewShared(retail.DefaultOptions)
	row := firstTask(t, env, func(task *retail.Task, _ *retail.DB) bool { return task.Kind == "return" })
	n := 0
	customer := multiagent.PolicyFunc(func(e multiagent.Env, a multiagent.Agent, obs string) (string, error) {
		n++
		if n == 2 {
			var all []string
			for _, l := range e.(*retail.Env).Task().Lines[1:] {
				all = append(all, l.Text)
			}
			return strings.Join(all, " "), nil
		}
		return e.(multiagent.Oracle).OracleAction(a.ID)
	})
	start, _ := env.ResetTask(row)
	ep, err := multiagent.Continue(env, start, 0, map[string]multiagent.Policy{retail.Assistant: multiagent.OraclePolicy(), retail.Customer: customer}, 200)
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(env.Notes(), "; "); !strings.Contains(notes, "at once") {
		t.Fatalf("notes %q, want one saying the lines came at once", notes)
	}
	if ep.Info.Extra["customer_broke_instructions"] != false || ep.Total(retail.Assistant) != 1 || ep.Total(retail.Customer) != 1 {
		t.Fatalf("info %v", ep.Info.Extra)
	}
}

// Play with two policies gives per-agent rows, each agent's return over its
// own turns.
func TestPlayRowsPerAgent(t *testing.T) {
	env := retail.NewShared(retail.DefaultOptions)
	ep, err := multiagent.Play(env, 5, scripted(), 200)
	if err != nil {
		t.Fatal(err)
	}
	rows := ep.Rows(0.9)
	count := map[string]int{}
	for _, r := range rows {
		if r.AgentID != r.AgentRole || (r.AgentID != retail.Assistant && r.AgentID != retail.Customer) {
			t.Fatalf("row %+v: agent %q role %q", r, r.AgentID, r.AgentRole)
		}
		if r.AgentTurn != count[r.AgentID] {
			t.Fatalf("row %d: agent_turn %d, want %d", r.Turn, r.AgentTurn, count[r.AgentID])
		}
		count[r.AgentID]++
	}
	returns := ep.Returns(0.9)
	for _, id := range []string{retail.Assistant, retail.Customer} {
		g := returns[id]
		n := len(g)
		if n == 0 || n != count[id] || g[n-1] != 1 {
			t.Fatalf("%s: %d returns for %d turns, last %v; want 1 on its last turn", id, n, count[id], g)
		}
		if want := math.Pow(0.9, float64(n-1)); math.Abs(g[0]-want) > 1e-12 {
			t.Fatalf("%s: first return %v, want 0.9^%d = %v (discounted over its own turns)", id, g[0], n-1, want)
		}
	}
	if len(ep.Messages) == 0 || ep.Messages[0].From != retail.Customer {
		t.Fatalf("messages %v: the customer speaks first", ep.Messages)
	}
}

// The same options give the same store and tasks; another seed another.
func TestDeterministicFromTheSeed(t *testing.T) {
	a, b := retail.New(retail.DefaultOptions), retail.NewShared(retail.DefaultOptions)
	if a.Store().Hash() != b.Store().Hash() || !reflect.DeepEqual(a.Tasks(), b.Tasks()) {
		t.Fatal("two stores of the same options differ")
	}
	o := retail.DefaultOptions
	o.Seed = 1
	c := retail.New(o)
	if c.Store().Hash() == a.Store().Hash() || reflect.DeepEqual(c.Tasks(), a.Tasks()) {
		t.Fatal("store_seed does not change the store")
	}
	for seed := range uint64(5) {
		x, err := multiagent.Play(a, seed, scripted(), 200)
		if err != nil {
			t.Fatal(err)
		}
		y, err := multiagent.Play(b, seed, scripted(), 200)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("seed %d: two instances played differently", seed)
		}
	}
}

func TestSingleAdapterRows(t *testing.T) {
	r := registry(t)
	for _, id := range []string{retail.ID, retail.NativeID} {
		e, err := r.Make(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		obs, info, err := e.Reset(3)
		if err != nil {
			t.Fatal(err)
		}
		if info.Extra["agent_id"] != retail.Assistant || info.Extra["agent_role"] != retail.Assistant {
			t.Fatalf("%s: info %v", id, info.Extra)
		}
		if !strings.Contains(obs, "\nCustomer: ") {
			t.Fatalf("%s: the first observation lacks the customer's opening: %q", id, obs)
		}
		if texts := strings.Contains(obs, "<tool_call>"); texts != (id == retail.ID) {
			t.Fatalf("%s: tag instructions shown = %v", id, texts)
		}
		fs := multiagent.FunctionsOf(e)
		if len(fs) < 13 {
			t.Fatalf("%s: %d function tools", id, len(fs))
		}
		for _, f := range fs {
			var s struct {
				Type       string         `json:"type"`
				Properties map[string]any `json:"properties"`
			}
			if err := json.Unmarshal(f.Parameters, &s); err != nil || s.Type != "object" {
				t.Fatalf("%s: schema %s: %v", f.Name, f.Parameters, err)
			}
		}
		if s, ok := multiagent.AsSingle(e); !ok {
			t.Fatal("AsSingle found no adapter")
		} else if m, a := s.Multi(); a.ID != retail.Assistant || len(m.Agents()) != 2 {
			t.Fatalf("Multi: %v %v", a, m.Agents())
		}
	}
	if _, err := r.Make(retail.ID, map[string]any{"num_tasks": 10}); err == nil {
		t.Fatal("num_tasks 10 accepted; at least 50 are generated")
	}
}

func TestCloneIsDeep(t *testing.T) {
	env := retail.NewShared(retail.DefaultOptions)
	db := env.Store()
	c := db.Clone()
	if c.Hash() != db.Hash() {
		t.Fatal("a clone hashes differently")
	}
	for _, u := range c.Users {
		for _, pm := range u.PaymentMethods {
			if pm.Balance != nil {
				*pm.Balance += 1
			}
		}
		u.Orders = append(u.Orders[:0], "x")
	}
	for _, o := range c.Orders {
		o.Items[0].Options["x"] = "y"
		o.PaymentHistory[0].Amount++
	}
	for _, p := range c.Products {
		for _, v := range p.Variants {
			v.Options["x"] = "y"
		}
	}
	if db.Hash() != env.Store().Hash() {
		t.Fatal("changing a clone changed the original")
	}
}

// The customer's side: the scripted customer earns 1 against the expert
// assistant; one that hangs up at once, or repeats its whole instruction and
// never ends the conversation, earns 0.
func TestCustomerID(t *testing.T) {
	r := registry(t)
	for seed := range uint64(10) {
		e, err := r.Make(retail.CustomerID, nil)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := envtest.Play(e, seed, envtest.OraclePolicy, retail.MaxTurns)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Return() != 1 || !tr.Done || !tr.Success() || tr.FirstInfo.Extra["agent_role"] != retail.Customer {
			t.Fatalf("seed %d: scripted customer return %v, done %v, role %v", seed, tr.Return(), tr.Done, tr.FirstInfo.Extra["agent_role"])
		}
		if !strings.Contains(tr.FirstObs, retail.StopToken) || !strings.Contains(tr.FirstObs, "1. ") {
			t.Fatalf("the customer's first observation is not its instruction: %q", tr.FirstObs)
		}
		hangUp := func(envs.Env) (string, error) { return "Bye. " + retail.StopToken, nil }
		if tr, _ := envtest.Play(e, seed, hangUp, retail.MaxTurns); tr.Return() != 0 || tr.Success() {
			t.Fatalf("seed %d: hanging up at once earns %v", seed, tr.Return())
		}
		all := func(envs.Env) (string, error) {
			s, _ := multiagent.AsSingle(e)
			m, _ := s.Multi()
			var lines []string
			for _, l := range m.(*retail.Env).Task().Lines {
				lines = append(lines, l.Text)
			}
			return strings.Join(lines, " "), nil
		}
		if tr, _ := envtest.Play(e, seed, all, retail.MaxTurns); tr.Return() != 0 {
			t.Fatalf("seed %d: never ending the conversation earns %v", seed, tr.Return())
		}
	}
}

// Instances share one read-only store and task list (NewShared); episodes
// on them in parallel never interfere (run with -race).
func TestSharedInstancesInParallel(t *testing.T) {
	want := map[uint64]float64{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			env := retail.NewShared(retail.DefaultOptions)
			for seed := range uint64(8) {
				ep, err := multiagent.Play(env, seed, map[string]multiagent.Policy{
					retail.Assistant: multiagent.RandomPolicy(seed), retail.Customer: multiagent.OraclePolicy()}, 200)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if v, ok := want[seed]; ok && v != ep.Total(retail.Customer)+10*float64(len(ep.Turns)) {
					t.Errorf("goroutine %d seed %d: a different episode", g, seed)
				}
				want[seed] = ep.Total(retail.Customer) + 10*float64(len(ep.Turns))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if retail.NewShared(retail.DefaultOptions).Store().Hash() != retail.New(retail.DefaultOptions).Store().Hash() {
		t.Fatal("the shared store was changed by its episodes")
	}
}
