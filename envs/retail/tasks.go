package retail

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/quarry-rl/quarry/envs"
)

// Line is one line of a customer's instruction: what the customer says when
// it reveals it. Slot names what the line answers (the scripted customer
// reveals the line the assistant asks for); Stage is how many of the task's
// writes must have succeeded before the line may be said ("once that is
// done, …").
type Line struct {
	Text  string `json:"text"`
	Slot  string `json:"slot"`
	Stage int    `json:"stage,omitempty"`
}

// Line slots.
const (
	SlotRequest  = "request"
	SlotIdentity = "identity"
	SlotOrder    = "order"
	SlotItems    = "items"
	SlotPayment  = "payment"
	SlotAddress  = "address"
	SlotReason   = "reason"
	SlotQuestion = "question"
)

// Fact is an output the assistant must tell the customer (tau-bench's
// outputs): Value must appear in one of its messages (case and commas
// ignored); Say is how the oracle tells it.
type Fact struct {
	Value string `json:"value"`
	Say   string `json:"say"`
}

// Step is one part of the oracle's plan: lookups, then (after the
// customer's confirmation) a write.
type Step struct {
	Reads   []Call `json:"reads,omitempty"`
	Write   *Call  `json:"write,omitempty"`
	Confirm string `json:"confirm,omitempty"`
}

// Task is one customer's request: the instruction its lines make, the goal
// (the store after the goal writes, by hash) and the facts to tell.
type Task struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	UserID string `json:"user_id"`
	// ByEmail: the customer identifies by email (else by name and zip).
	ByEmail  bool   `json:"by_email"`
	Lines    []Line `json:"lines"`
	Steps    []Step `json:"steps"`
	Facts    []Fact `json:"facts,omitempty"`
	GoalHash string `json:"goal_hash"`
}

// Writes counts the task's goal writes.
func (t *Task) Writes() int {
	n := 0
	for _, s := range t.Steps {
		if s.Write != nil {
			n++
		}
	}
	return n
}

// Instruction is the customer's instruction as one text (what an LLM
// customer is given).
func (t *Task) Instruction() string {
	var b strings.Builder
	for i, l := range t.Lines {
		if l.Stage > 0 && (i == 0 || t.Lines[i-1].Stage < l.Stage) {
			fmt.Fprintf(&b, "Only once the assistant has completed the request above (not before):\n")
		}
		fmt.Fprintf(&b, "%d. %s\n", i+1, l.Text)
	}
	return b.String()
}

// Task kinds, generated in rotation.
var kinds = []string{"cancel", "order_address", "order_payment", "modify_items", "return",
	"exchange", "user_address", "order_total", "order_status", "cancel_then_return"}

// GenerateTasks makes n tasks over db, deterministically from seed. Each
// task's goal is computed by applying its writes with the tools themselves;
// every task changes the store or asks for facts (so doing nothing scores 0).
func GenerateTasks(db *DB, n int, seed uint64) []Task {
	var out []Task
	seen := map[string]bool{}
	initial := db.Hash()
	for i := 0; len(out) < n; i++ {
		rng := envs.NewRand(seed ^ uint64(i+1)*0x9e3779b97f4a7c15)
		kind := kinds[i%len(kinds)]
		t, ok := generateTask(db, initial, kind, rng)
		if !ok {
			continue
		}
		key := kind + show(t.Steps) + show(t.Facts)
		if seen[key] {
			continue
		}
		seen[key] = true
		t.ID = fmt.Sprintf("retail-%03d-%s", len(out), kind)
		out = append(out, t)
		if i > 100*n {
			panic("retail: the store cannot supply enough distinct tasks")
		}
	}
	return out
}

type gen struct {
	db  *DB
	rng *rand.Rand
}

func (g gen) pick(n int) int { return g.rng.IntN(n) }

// ordersWith returns the ids of orders in a status, sorted.
func (g gen) ordersWith(status ...string) []string {
	var ids []string
	for _, id := range sortedKeys(g.db.Orders) {
		if slices.Contains(status, g.db.Orders[id].Status) {
			ids = append(ids, id)
		}
	}
	return ids
}

func (g gen) identity(t *Task) Line {
	u := g.db.Users[t.UserID]
	t.ByEmail = g.pick(2) == 0
	if t.ByEmail {
		return Line{Text: "My email is " + u.Email + ".", Slot: SlotIdentity}
	}
	return Line{Text: fmt.Sprintf("My name is %s %s and my zip code is %s.", u.Name.First, u.Name.Last, u.Address.Zip), Slot: SlotIdentity}
}

func (g gen) address() Address {
	c := cities[g.pick(len(cities))]
	a := Address{Address1: fmt.Sprintf("%d %s", 10+g.pick(990), streets[g.pick(len(streets))]),
		City: c.city, State: c.state, Country: "USA", Zip: fmt.Sprintf("%s%02d", c.zip, g.pick(100))}
	if g.pick(2) == 0 {
		a.Address2 = fmt.Sprintf("Apt %d", 1+g.pick(40))
	}
	return a
}

func addressArgs(a Address) map[string]any {
	return map[string]any{"address1": a.Address1, "address2": a.Address2, "city": a.City,
		"state": a.State, "country": a.Country, "zip": a.Zip}
}

func itemText(it Item) string {
	return fmt.Sprintf("the %s (%s)", it.Name, describeOptions(it.Options))
}

func readOrder(id string) Call { return call("get_order_details", map[string]any{"order_id": id}) }
func readUser(id string) Call  { return call("get_user_details", map[string]any{"user_id": id}) }

// alternative draws an available variant of the item's product, at another price.
func (g gen) alternative(it Item) (*Variant, bool) {
	p := g.db.Products[it.ProductID]
	var cands []*Variant
	for _, id := range sortedKeys(p.Variants) {
		v := p.Variants[id]
		if v.Available && v.ItemID != it.ItemID && v.Price != it.Price {
			cands = append(cands, v)
		}
	}
	if len(cands) == 0 {
		return nil, false
	}
	return cands[g.pick(len(cands))], true
}

// payFor picks a payment method of u able to pay diff: the original one
// if it can.
func payFor(u *User, original string, diff Money) (*PaymentMethod, bool) {
	ids := append([]string{original}, sortedKeys(u.PaymentMethods)...)
	for _, id := range ids {
		pm := u.PaymentMethods[id]
		if pm != nil && (pm.Source != GiftCard || *pm.Balance >= diff) {
			return pm, true
		}
	}
	return nil, false
}

func generateTask(db *DB, initial, kind string, rng *rand.Rand) (Task, bool) {
	g := gen{db, rng}
	var t Task
	t.Kind = kind
	var ok bool
	switch kind {
	case "cancel":
		ok = g.cancel(&t)
	case "order_address":
		ok = g.orderAddress(&t)
	case "order_payment":
		ok = g.orderPayment(&t)
	case "modify_items":
		ok = g.swapItems(&t, false)
	case "return":
		ok = g.returnItems(&t, nil)
	case "exchange":
		ok = g.swapItems(&t, true)
	case "user_address":
		ok = g.userAddress(&t)
	case "order_total", "order_status":
		ok = g.question(&t, kind == "order_total")
	case "cancel_then_return":
		ok = g.cancelThenReturn(&t)
	}
	if !ok {
		return Task{}, false
	}
	goal := db.Clone()
	auth := t.UserID
	for _, s := range t.Steps {
		if s.Write == nil {
			continue
		}
		if _, err := apply(goal, &auth, *s.Write); err != nil {
			panic(fmt.Sprintf("retail: task %s: goal write %s: %v", kind, s.Write.Text(), err))
		}
	}
	t.GoalHash = goal.Hash()
	if t.GoalHash == initial && len(t.Facts) == 0 {
		panic("retail: task " + kind + " neither changes the store nor asks for a fact")
	}
	return t, true
}

var reasons = []struct{ arg, says string }{
	{"no longer needed", "I'm cancelling because I no longer need it."},
	{"ordered by mistake", "I'm cancelling because I ordered it by mistake."},
}

func (g gen) cancelStep(t *Task, id string, stage int) []Line {
	o := g.db.Orders[id]
	r := reasons[g.pick(len(reasons))]
	t.Steps = append(t.Steps, Step{Reads: []Call{readOrder(id)},
		Write:   ptr(call("cancel_pending_order", map[string]any{"order_id": id, "reason": r.arg})),
		Confirm: fmt.Sprintf("cancel order %s (reason: %s); its total of %s dollars will be refunded to the original payment method", id, r.arg, o.Total())})
	return []Line{
		{Text: "The order is " + id + ".", Slot: SlotOrder, Stage: stage},
		{Text: r.says, Slot: SlotReason, Stage: stage},
	}
}

func (g gen) cancel(t *Task) bool {
	ids := g.ordersWith(Pending)
	if len(ids) == 0 {
		return false
	}
	id := ids[g.pick(len(ids))]
	t.UserID = g.db.Orders[id].UserID
	t.Lines = append([]Line{{Text: "Hi, I'd like to cancel one of my orders.", Slot: SlotRequest}, g.identity(t)}, g.cancelStep(t, id, 0)...)
	return true
}

func (g gen) orderAddress(t *Task) bool {
	ids := g.ordersWith(Pending)
	if len(ids) == 0 {
		return false
	}
	id := ids[g.pick(len(ids))]
	t.UserID = g.db.Orders[id].UserID
	a := g.address()
	args := addressArgs(a)
	args["order_id"] = id
	t.Lines = []Line{{Text: "Hello, I need to change the shipping address of an order that hasn't shipped yet.", Slot: SlotRequest}, g.identity(t),
		{Text: "It's order " + id + ".", Slot: SlotOrder},
		{Text: "Please ship it to " + a.String() + ".", Slot: SlotAddress}}
	t.Steps = []Step{{Reads: []Call{readOrder(id)}, Write: ptr(call("modify_pending_order_address", args)),
		Confirm: fmt.Sprintf("change the shipping address of order %s to %s", id, a)}}
	return true
}

func (g gen) orderPayment(t *Task) bool {
	ids := g.ordersWith(Pending)
	g.rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	for _, id := range ids {
		o := g.db.Orders[id]
		u := g.db.Users[o.UserID]
		for _, pid := range sortedKeys(u.PaymentMethods) {
			pm := u.PaymentMethods[pid]
			if pid == o.paidWith() || (pm.Source == GiftCard && *pm.Balance < o.Total()) {
				continue
			}
			t.UserID = u.ID
			t.Lines = []Line{{Text: "Hi, I want to pay for one of my pending orders with a different payment method.", Slot: SlotRequest}, g.identity(t),
				{Text: "The order is " + id + ".", Slot: SlotOrder},
				{Text: "Please charge " + pm.describe() + " instead.", Slot: SlotPayment}}
			t.Steps = []Step{{Reads: []Call{readOrder(id), readUser(u.ID)},
				Write:   ptr(call("modify_pending_order_payment", map[string]any{"order_id": id, "payment_method_id": pid})),
				Confirm: fmt.Sprintf("pay for order %s (%s dollars) with %s; the original payment method will be refunded", id, o.Total(), pid)}}
			return true
		}
	}
	return false
}

// swapItems makes a modify-items task (pending orders) or an exchange task
// (delivered orders): one or two items for other variants.
func (g gen) swapItems(t *Task, exchange bool) bool {
	status, tool, verb := Pending, "modify_pending_order_items", "change"
	if exchange {
		status, tool, verb = Delivered, "exchange_delivered_order_items", "exchange"
	}
	ids := g.ordersWith(status)
	g.rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	for _, id := range ids {
		o := g.db.Orders[id]
		u := g.db.Users[o.UserID]
		positions := g.rng.Perm(len(o.Items))[:min(len(o.Items), 1+g.pick(2))]
		slices.Sort(positions)
		var olds, news []string
		var texts []string
		var diff Money
		products := map[string]bool{}
		for _, i := range positions {
			it := o.Items[i]
			v, ok := g.alternative(it)
			if !ok {
				continue
			}
			olds, news = append(olds, it.ItemID), append(news, v.ItemID)
			diff += v.Price - it.Price
			products[it.ProductID] = true
			texts = append(texts, fmt.Sprintf("%s to the one with %s", itemText(it), describeOptions(v.Options)))
		}
		if len(olds) == 0 || diff == 0 {
			continue
		}
		pm, ok := payFor(u, o.paidWith(), diff)
		if !ok {
			continue
		}
		t.UserID = u.ID
		payText := "Please use the original payment method for any price difference."
		if pm.ID != o.paidWith() {
			payText = "Please use " + pm.describe() + " for any price difference."
		}
		request := "Hi, I'd like to change some items in an order I haven't received yet."
		if exchange {
			request = "Hi, I received an order and want to exchange some items."
		}
		t.Lines = []Line{{Text: request, Slot: SlotRequest}, g.identity(t),
			{Text: "The order is " + id + ".", Slot: SlotOrder},
			{Text: "I want to " + verb + " " + strings.Join(texts, ", and ") + ".", Slot: SlotItems},
			{Text: payText, Slot: SlotPayment}}
		reads := []Call{readOrder(id), readUser(u.ID)}
		for _, pid := range sortedKeys(products) {
			reads = append(reads, call("get_product_details", map[string]any{"product_id": pid}))
		}
		way, to := "charged to", pm.ID
		if diff < 0 {
			way = "refunded to"
		}
		t.Steps = []Step{{Reads: reads,
			Write:   ptr(call(tool, map[string]any{"order_id": id, "item_ids": olds, "new_item_ids": news, "payment_method_id": pm.ID})),
			Confirm: fmt.Sprintf("%s items %s of order %s for items %s; the price difference of %s dollars will be %s %s", verb, strings.Join(olds, ", "), id, strings.Join(news, ", "), abs(diff), way, to)}}
		t.Facts = []Fact{{Value: abs(diff).String(), Say: fmt.Sprintf("The price difference is %s dollars, %s %s.", abs(diff), way, to)}}
		return true
	}
	return false
}

// returnItems makes a return task; with stage set (cancel_then_return) its
// lines wait for the earlier write.
func (g gen) returnItems(t *Task, only []string) bool {
	ids := only
	if ids == nil {
		ids = g.ordersWith(Delivered)
	}
	if len(ids) == 0 {
		return false
	}
	id := ids[g.pick(len(ids))]
	o := g.db.Orders[id]
	u := g.db.Users[o.UserID]
	positions := g.rng.Perm(len(o.Items))[:min(len(o.Items), 1+g.pick(2))]
	slices.Sort(positions)
	var items, texts []string
	var refund Money
	for _, i := range positions {
		items = append(items, o.Items[i].ItemID)
		texts = append(texts, itemText(o.Items[i]))
		refund += o.Items[i].Price
	}
	to, payText := o.paidWith(), "Please refund it to the original payment method."
	for _, pid := range sortedKeys(u.PaymentMethods) {
		if u.PaymentMethods[pid].Source == GiftCard && pid != to && g.pick(2) == 0 {
			to, payText = pid, "Please put the refund on my gift card."
		}
	}
	stage := 0
	var lines []Line
	if only == nil {
		t.UserID = u.ID
		lines = []Line{{Text: "Hi, I want to return some items from an order I received.", Slot: SlotRequest}, g.identity(t),
			{Text: "The order is " + id + ".", Slot: SlotOrder},
			{Text: "I want to return " + strings.Join(texts, " and ") + ".", Slot: SlotItems}}
	} else {
		stage = 1
		lines = []Line{{Text: "I also want to return " + strings.Join(texts, " and ") + " from order " + id + ".", Slot: SlotItems, Stage: stage}}
	}
	t.Lines = append(t.Lines, append(lines, Line{Text: payText, Slot: SlotPayment, Stage: stage})...)
	t.Steps = append(t.Steps, Step{Reads: []Call{readOrder(id), readUser(u.ID)},
		Write:   ptr(call("return_delivered_order_items", map[string]any{"order_id": id, "item_ids": items, "payment_method_id": to})),
		Confirm: fmt.Sprintf("return items %s of order %s; the refund of %s dollars goes to %s", strings.Join(items, ", "), id, refund, to)})
	t.Facts = append(t.Facts, Fact{Value: refund.String(), Say: fmt.Sprintf("You will be refunded %s dollars.", refund)})
	return true
}

func (g gen) userAddress(t *Task) bool {
	users := sortedKeys(g.db.Users)
	t.UserID = users[g.pick(len(users))]
	a := g.address()
	args := addressArgs(a)
	args["user_id"] = t.UserID
	t.Lines = []Line{{Text: "Hi, I moved recently and want to update the default address on my account.", Slot: SlotRequest}, g.identity(t),
		{Text: "My new address is " + a.String() + ".", Slot: SlotAddress}}
	t.Steps = []Step{{Reads: []Call{readUser(t.UserID)}, Write: ptr(call("modify_user_address", args)),
		Confirm: fmt.Sprintf("change your default address to %s", a)}}
	return true
}

func (g gen) question(t *Task, total bool) bool {
	ids := g.ordersWith(Pending, Processed, Delivered, Cancelled)
	id := ids[g.pick(len(ids))]
	o := g.db.Orders[id]
	t.UserID = o.UserID
	q, f := "What is the status of that order?", Fact{Value: o.Status, Say: fmt.Sprintf("Order %s is %s.", id, o.Status)}
	if total {
		q, f = "How much did that order cost in total?", Fact{Value: o.Total().String(), Say: fmt.Sprintf("Order %s cost %s dollars in total.", id, o.Total())}
	}
	t.Lines = []Line{{Text: "Hi, I have a question about one of my orders.", Slot: SlotRequest}, g.identity(t),
		{Text: "It's order " + id + ".", Slot: SlotOrder}, {Text: q, Slot: SlotQuestion}}
	t.Steps = []Step{{Reads: []Call{readOrder(id)}}}
	t.Facts = []Fact{f}
	return true
}

func (g gen) cancelThenReturn(t *Task) bool {
	var cands []string
	for _, uid := range sortedKeys(g.db.Users) {
		u := g.db.Users[uid]
		var pend, deliv bool
		for _, id := range u.Orders {
			pend = pend || g.db.Orders[id].Status == Pending
			deliv = deliv || g.db.Orders[id].Status == Delivered
		}
		if pend && deliv {
			cands = append(cands, uid)
		}
	}
	if len(cands) == 0 {
		return false
	}
	u := g.db.Users[cands[g.pick(len(cands))]]
	var pend, deliv []string
	for _, id := range u.Orders {
		switch g.db.Orders[id].Status {
		case Pending:
			pend = append(pend, id)
		case Delivered:
			deliv = append(deliv, id)
		}
	}
	t.UserID = u.ID
	t.Lines = []Line{{Text: "Hi, I need to cancel an order, and then I have one more request.", Slot: SlotRequest}, g.identity(t)}
	t.Lines = append(t.Lines, g.cancelStep(t, pend[g.pick(len(pend))], 0)...)
	return g.returnItems(t, deliv)
}

func ptr[T any](v T) *T { return &v }
