// Package retail is a TAU-bench-style retail customer-service desk: a
// multi-agent env (envs/multiagent) in which an assistant, following the
// store's policy and calling tools over a generated store database, serves
// a customer — an LLM given the customer's instruction, or the scripted
// customer that reveals it a line at a time and ends with ###STOP###.
//
// The store (users with addresses and payment methods, products with
// variants and prices, orders pending, processed, delivered or cancelled)
// and at least 50 tasks are generated from seeds. A task is a customer
// instruction, a goal store (the initial one after the task's writes, by
// hash) and facts the assistant must tell. The assistant earns 1 iff, when
// the conversation ends, the store equals the goal and every fact appears in
// its messages (tau-bench's reward). A rule-based instruction check flags
// customers that break their instructions (tau2 traces up to 30 % of failures
// to the user simulator), so a trainer can filter those episodes.
package retail

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/multiagent"
	"github.com/quarry-rl/quarry/tools"
)

// Agent ids and roles.
const (
	Assistant = "assistant"
	Customer  = "customer"
)

// MaxTurns bounds the assistant's actions (tool calls and messages) in an
// episode, as tau-bench's max_num_steps of 30.
const MaxTurns = 30

// Options configure the desk.
type Options struct {
	// Tasks is how many tasks are generated.
	Tasks int `json:"num_tasks" range:"50,500"`
	// Users sizes the store.
	Users int `json:"num_users" range:"20,200"`
	// Seed seeds the store and the tasks.
	Seed uint64 `json:"store_seed" range:"0,1000000000"`
	// Native: the tools travel as function tools (native calling), so the
	// first observation does not describe the text-tag format.
	Native bool `json:"-"`
}

// DefaultOptions are the registered ids' options.
var DefaultOptions = Options{Tasks: 60, Users: 30}

// Env is one desk instance.
type Env struct {
	opts  Options
	base  *DB
	tasks []Task

	task    *Task
	db      *DB
	auth    string
	turn    string // whose turn; "" before Reset and after the end
	steps   int    // assistant actions
	writes  int    // successful writes
	asked   bool   // the assistant's last message asked for a confirmation
	yes     bool   // the customer confirmed since the last write
	reads   map[string]bool
	said    []string // the assistant's messages
	cust    *customer
	notices []string // the assistant's policy violations
}

// New generates the store and tasks.
func New(o Options) *Env {
	base := Generate(StoreOptions{Users: o.Users, Seed: o.Seed})
	return &Env{opts: o, base: base, tasks: GenerateTasks(base, o.Tasks, o.Seed)}
}

// Tasks returns the generated tasks.
func (e *Env) Tasks() []Task { return e.tasks }

// Store returns a copy of the initial store.
func (e *Env) Store() *DB { return e.base.Clone() }

// Agents implements multiagent.Env.
func (e *Env) Agents() []multiagent.Agent {
	return []multiagent.Agent{{ID: Assistant, Role: Assistant}, {ID: Customer, Role: Customer}}
}

// Rows implements multiagent.Tasks.
func (e *Env) Rows() int { return len(e.tasks) }

// Reset draws a task from seed.
func (e *Env) Reset(seed uint64) (multiagent.Start, error) {
	return e.ResetTask(envs.NewRand(seed).IntN(len(e.tasks)))
}

// ResetTask starts the conversation of task row; the customer speaks first.
func (e *Env) ResetTask(row int) (multiagent.Start, error) {
	if row < 0 || row >= len(e.tasks) {
		return multiagent.Start{}, fmt.Errorf("retail: task %d of %d", row, len(e.tasks))
	}
	e.task = &e.tasks[row]
	e.db = e.base.Clone()
	e.auth, e.turn, e.steps, e.writes, e.asked, e.yes = "", Customer, 0, 0, false, false
	e.reads, e.said, e.notices = map[string]bool{}, nil, nil
	e.cust = newCustomer(e.task)
	return multiagent.Start{
		Observations: map[string]string{Assistant: e.systemPrompt(), Customer: customerPrompt(e.task)},
		Info:         envs.Info{Extra: map[string]any{"task_id": e.task.ID, "task_kind": e.task.Kind}},
	}, nil
}

// Next implements multiagent.Env.
func (e *Env) Next() (string, bool) { return e.turn, e.turn != "" }

// Step implements multiagent.Env.
func (e *Env) Step(agent, act string) (multiagent.Result, error) {
	switch {
	case e.task == nil:
		return multiagent.Result{}, multiagent.ErrNotReset
	case e.turn == "":
		return multiagent.Result{}, multiagent.ErrEpisodeOver
	case agent != Assistant && agent != Customer:
		return multiagent.Result{}, fmt.Errorf("%w %q", multiagent.ErrUnknownAgent, agent)
	case agent != e.turn:
		return multiagent.Result{}, fmt.Errorf("%w: %s acted on %s's turn", multiagent.ErrNotYourTurn, agent, e.turn)
	}
	if agent == Customer {
		return e.customerStep(act), nil
	}
	return e.assistantStep(act), nil
}

func (e *Env) assistantStep(act string) multiagent.Result {
	e.steps++
	res := multiagent.Result{Observations: map[string]string{}}
	info := &res.Info
	a := parseAction(act)
	switch {
	case a.callErr != "":
		info.FormatError = true
		res.Observations[Assistant] = "Error: " + a.callErr
	case a.call != nil:
		res.Observations[Assistant] = e.runTool(*a.call, info, &res)
		if res.Done() {
			return res
		}
	case a.message == "":
		info.FormatError = true
		res.Observations[Assistant] = "Error: empty message. Reply to the customer, or call a tool."
	default:
		e.said = append(e.said, a.message)
		e.asked = asksConfirmation(a.message)
		e.cust.heard(a.message)
		e.turn = Customer
		res.Observations[Customer] = a.message
		res.Messages = []multiagent.Message{{From: Assistant, To: Customer, Text: a.message}}
	}
	if e.steps >= MaxTurns {
		e.finish(&res, "truncated")
		res.Truncated = true
		return res
	}
	info.Extra = e.progress(info.Extra)
	return res
}

// runTool executes one call and reports its output.
func (e *Env) runTool(c Call, info *envs.Info, res *multiagent.Result) string {
	// A tool's output is a tool message in chat prompts (native calling
	// pairs it with the call).
	info.ParsedAction, info.UseTool = c.Text(), true
	t, ok := toolsByName[c.Name]
	if !ok {
		info.InvalidAction = true
		return fmt.Sprintf("Error: unknown tool %q; the tools are %s", c.Name, strings.Join(sortedKeys(toolsByName), ", "))
	}
	out, err := apply(e.db, &e.auth, c)
	info.Extra = map[string]any{"tool": c.Name}
	if err != nil {
		info.Extra["tool_error"] = true
		return "Error: " + err.Error()
	}
	if t.write {
		if !e.yes {
			e.notices = append(e.notices, fmt.Sprintf("turn %d: %s without the customer's confirmation", e.steps, c.Name))
		}
		e.writes++
		e.yes = false
	} else {
		e.reads[callKey(c)] = true
	}
	if t.ends {
		e.finish(res, "transfer")
	}
	return out
}

func callKey(c Call) string { return c.Name + string(c.Args) }

func (e *Env) customerStep(act string) multiagent.Result {
	e.cust.check(act, e.writes)
	if e.asked && yesPattern.MatchString(act) {
		e.yes = true
	}
	e.asked = false
	res := multiagent.Result{Observations: map[string]string{Assistant: "Customer: " + act},
		Messages: []multiagent.Message{{From: Customer, To: Assistant, Text: act}}}
	if strings.TrimSpace(act) == "" {
		res.Info.FormatError = true
	}
	if strings.Contains(act, StopToken) {
		e.finish(&res, "stop")
		return res
	}
	e.turn = Assistant
	res.Info.Extra = e.progress(nil)
	return res
}

// settled reports whether the customer's request is done: the goal's
// number of writes made and every fact told.
func (e *Env) settled() bool { return e.writes >= e.task.Writes() && len(e.missingFacts()) == 0 }

func (e *Env) missingFacts() []string {
	var missing []string
	for _, f := range e.task.Facts {
		if !told(e.said, f.Value) {
			missing = append(missing, f.Value)
		}
	}
	return missing
}

// told is tau-bench's output check: the value, lowercased, in a message
// lowercased with its commas removed.
func told(said []string, value string) bool {
	v := strings.ToLower(value)
	for _, m := range said {
		if strings.Contains(strings.ReplaceAll(strings.ToLower(m), ",", ""), v) {
			return true
		}
	}
	return false
}

// finish ends the episode and scores both agents.
func (e *Env) finish(res *multiagent.Result, end string) {
	e.turn = ""
	res.Terminated = true
	match := e.db.Hash() == e.task.GoalHash
	missing := e.missingFacts()
	var ra, rc float64
	if end != "truncated" && match && len(missing) == 0 {
		ra = 1
	}
	if end != "truncated" && len(e.cust.breaks) == 0 {
		rc = 1
	}
	res.Rewards = map[string]float64{Assistant: ra, Customer: rc}
	res.Success = map[string]bool{Assistant: ra == 1, Customer: rc == 1}
	res.Info.Success = ra == 1
	x := e.progress(res.Info.Extra)
	x["end"] = end
	x["db_match"] = match
	x["missing_facts"] = nonNil(missing)
	x["customer_breaks"] = nonNil(e.cust.breaks)
	x["customer_notes"] = nonNil(e.cust.notes)
	x["policy_violations"] = nonNil(e.notices)
	x["assistant_reward"], x["customer_reward"] = ra, rc
	res.Info.Extra = x
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// progress adds what every step reports: the task and whether the customer
// has broken its instructions so far (the flag a trainer filters on).
func (e *Env) progress(m map[string]any) map[string]any {
	if m == nil {
		m = map[string]any{}
	}
	m["task_id"] = e.task.ID
	m["customer_broke_instructions"] = len(e.cust.breaks) > 0
	return m
}

// OracleAction implements multiagent.Oracle: the expert assistant, and for
// the customer the scripted customer.
func (e *Env) OracleAction(agent string) (string, error) {
	if e.task == nil || e.turn == "" {
		return "", multiagent.ErrEpisodeOver
	}
	if agent == Customer {
		return e.cust.scripted(e.writes, e.settled()), nil
	}
	if agent != Assistant {
		return "", fmt.Errorf("%w %q", multiagent.ErrUnknownAgent, agent)
	}
	return e.expert(), nil
}

// expert plays the task's plan from the conversation's state: verify the
// customer, hear the request out, then per step look up, confirm and write,
// and finally tell the facts.
func (e *Env) expert() string {
	t := e.task
	if e.auth == "" {
		if !e.cust.revealed[1] {
			return "Hello! Before I can help, I need to verify your identity: could you give me your email, or your first name, last name and zip code?"
		}
		u := e.base.Users[t.UserID]
		if t.ByEmail {
			return call("find_user_id_by_email", map[string]any{"email": u.Email}).Text()
		}
		return call("find_user_id_by_name_zip", map[string]any{"first_name": u.Name.First, "last_name": u.Name.Last, "zip": u.Address.Zip}).Text()
	}
	for i := range t.Lines {
		if !e.cust.revealed[i] && e.cust.available(i, e.writes) {
			return "Thank you. Please go on: what else should I know about your request?"
		}
	}
	done := 0
	for _, s := range t.Steps {
		if s.Write != nil && done < e.writes {
			done++
			continue
		}
		for _, r := range s.Reads {
			if !e.reads[callKey(r)] {
				return r.Text()
			}
		}
		if s.Write == nil {
			continue
		}
		if !e.yes {
			return "Here is what I will do: " + s.Confirm + ". Do you confirm (yes/no)?"
		}
		return s.Write.Text()
	}
	var b strings.Builder
	b.WriteString("All done.")
	for _, f := range t.Facts {
		b.WriteString(" " + f.Say)
	}
	b.WriteString(" Is there anything else I can do for you?")
	return b.String()
}

// randomMessages are the random assistant's messages; none states a fact
// (an amount, a status).
var randomMessages = []string{
	"Hello! How can I help you today?",
	"Could you please give me your email address?",
	"Which order is this about?",
	"Could you tell me more about your request?",
	"Do you confirm (yes/no)?",
	"I'm sorry, I cannot help with that.",
}

// SampleRandomAction implements multiagent.Env: for the assistant a
// message or a tool call with arguments drawn from the store; for the
// customer a line of its instruction, a filler or the stop token.
func (e *Env) SampleRandomAction(agent string, rng *rand.Rand) string {
	if agent == Customer {
		switch rng.IntN(6) {
		case 0:
			return "Thanks, bye. " + StopToken
		case 1:
			return "Could you help me with that, please?"
		}
		if e.task == nil {
			return "Hello."
		}
		return e.task.Lines[rng.IntN(len(e.task.Lines))].Text
	}
	if rng.IntN(3) == 0 {
		return randomMessages[rng.IntN(len(randomMessages))]
	}
	db := e.base
	users, orders, products := sortedKeys(db.Users), sortedKeys(db.Orders), sortedKeys(db.Products)
	u := db.Users[users[rng.IntN(len(users))]]
	o := db.Orders[orders[rng.IntN(len(orders))]]
	p := db.Products[products[rng.IntN(len(products))]]
	t := toolList[rng.IntN(len(toolList))]
	a := map[string]any{}
	for _, prm := range t.params {
		switch prm.name {
		case "email":
			a["email"] = u.Email
		case "first_name":
			a["first_name"] = u.Name.First
		case "last_name":
			a["last_name"] = u.Name.Last
		case "zip":
			a["zip"] = u.Address.Zip
		case "user_id":
			a["user_id"] = u.ID
		case "order_id":
			a["order_id"] = o.ID
		case "product_id":
			a["product_id"] = p.ID
		case "item_ids":
			a["item_ids"] = []string{o.Items[rng.IntN(len(o.Items))].ItemID}
		case "new_item_ids":
			vs := sortedKeys(p.Variants)
			a["new_item_ids"] = []string{vs[rng.IntN(len(vs))]}
		case "payment_method_id":
			ms := sortedKeys(u.PaymentMethods)
			a["payment_method_id"] = ms[rng.IntN(len(ms))]
		case "reason":
			a["reason"] = reasons[rng.IntN(len(reasons))].arg
		default:
			a[prm.name] = "n/a"
		}
	}
	return call(t.name, a).Text()
}

// FreeText implements envs.FreeText: any non-empty message to the customer
// is a well-formed action.
func (e *Env) FreeText() bool { return true }

// Functions implements multiagent.FunctionTools.
func (e *Env) Functions() []tools.Function { return Functions() }

// Task returns the current task.
func (e *Env) Task() *Task { return e.task }

// Breaks returns the instruction check's breaks so far.
func (e *Env) Breaks() []string { return append([]string(nil), e.cust.breaks...) }

// Notes returns the instruction check's notes so far: deviations that
// cannot mis-score the episode.
func (e *Env) Notes() []string { return append([]string(nil), e.cust.notes...) }

func (e *Env) systemPrompt() string {
	var b strings.Builder
	b.WriteString(Policy)
	b.WriteString("\n## Tools\n\n")
	if e.opts.Native {
		b.WriteString("Call the tools you are given, one per turn; each result comes back to you. Any reply without a tool call is sent to the customer.\n")
	} else {
		b.WriteString("Call a tool by writing, alone in your reply:\n<tool_call>\n{\"name\": \"tool_name\", \"arguments\": {\"param\": \"value\"}}\n</tool_call>\n" +
			"One call per reply; its result comes back to you. Any reply without a tool call is sent to the customer.\n\nThe tools, as JSON Schema:\n")
		for _, f := range Functions() {
			line, _ := json.Marshal(f)
			b.Write(line)
			b.WriteByte('\n')
		}
	}
	b.WriteString("\nThe conversation starts now; the customer's messages begin with \"Customer:\".\n")
	return b.String()
}
