package retail

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/quarry-rl/quarry/tools"
)

// Call is one tool call: a function name and its JSON arguments.
type Call struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"arguments"`
}

// call builds a Call from Go values (task generation, the oracle).
func call(name string, args map[string]any) Call {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return Call{Name: name, Args: b}
}

// Text is the call as the assistant writes it (the Hermes form that native
// tool calls are recorded in).
func (c Call) Text() string {
	return "<tool_call>\n{\"name\": " + quote(c.Name) + ", \"arguments\": " + string(c.Args) + "}\n</tool_call>"
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// param is one argument of a tool.
type param struct {
	name, typ, desc string // typ: string or array (of strings)
}

// tool is one function the assistant can call.
type tool struct {
	name, desc string
	params     []param
	// write: the call changes the store (needs the customer's confirmation).
	write bool
	// ends: a successful call ends the episode (transfer to a human).
	ends bool
	run  func(db *DB, auth *string, a args) (string, error)
}

var errAuth = errors.New("the user is not authenticated: find their user id by email, or by name and zip code, first")

// args are a call's decoded arguments.
type args map[string]any

func (a args) str(k string) string { s, _ := a[k].(string); return s }
func (a args) list(k string) []string {
	xs, _ := a[k].([]any)
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i], _ = x.(string)
	}
	return out
}

var addressParams = []param{
	{"address1", "string", "The first line of the address, such as '123 Main St'."},
	{"address2", "string", "The second line of the address, such as 'Apt 1' or ''."},
	{"city", "string", "The city, such as 'San Francisco'."},
	{"state", "string", "The state, such as 'CA'."},
	{"country", "string", "The country, such as 'USA'."},
	{"zip", "string", "The zip code, such as '12345'."},
}

func addressOf(a args) Address {
	return Address{Address1: a.str("address1"), Address2: a.str("address2"), City: a.str("city"),
		State: a.str("state"), Country: a.str("country"), Zip: a.str("zip")}
}

var (
	pOrder   = param{"order_id", "string", "The order id, such as '#W0000000'. Mind the '#' at the beginning."}
	pUser    = param{"user_id", "string", "The user id, such as 'sara_doe_1234'."}
	pPayment = param{"payment_method_id", "string", "The payment method id, such as 'gift_card_0000000' or 'credit_card_0000000'; look it up in the user's or the order's details."}
	pItems   = param{"item_ids", "array", "The item ids, each such as '1008292230'; an id may repeat."}
	pNew     = param{"new_item_ids", "array", "The new item ids, each of the same product as the item id at the same position."}
)

// toolList is every tool, in the order the assistant is shown them.
var toolList = []tool{
	{name: "find_user_id_by_email", desc: "Find a user's id by their email address. Authenticates the user.",
		params: []param{{"email", "string", "The email, such as 'something@example.com'."}},
		run: func(db *DB, auth *string, a args) (string, error) {
			for _, id := range sortedKeys(db.Users) {
				if strings.EqualFold(db.Users[id].Email, strings.TrimSpace(a.str("email"))) {
					return authenticate(auth, id)
				}
			}
			return "", errors.New("user not found")
		}},
	{name: "find_user_id_by_name_zip", desc: "Find a user's id by first name, last name and zip code. Authenticates the user.",
		params: []param{{"first_name", "string", "The first name, such as 'John'."}, {"last_name", "string", "The last name, such as 'Doe'."}, {"zip", "string", "The zip code, such as '12345'."}},
		run: func(db *DB, auth *string, a args) (string, error) {
			for _, id := range sortedKeys(db.Users) {
				u := db.Users[id]
				if strings.EqualFold(u.Name.First, a.str("first_name")) && strings.EqualFold(u.Name.Last, a.str("last_name")) && u.Address.Zip == strings.TrimSpace(a.str("zip")) {
					return authenticate(auth, id)
				}
			}
			return "", errors.New("user not found")
		}},
	{name: "get_user_details", desc: "Get the details of the authenticated user: profile, payment methods and order ids.",
		params: []param{pUser},
		run: func(db *DB, auth *string, a args) (string, error) {
			u, err := authUser(db, *auth, a.str("user_id"))
			if err != nil {
				return "", err
			}
			return show(u), nil
		}},
	{name: "get_order_details", desc: "Get the status and details of one of the authenticated user's orders.",
		params: []param{pOrder},
		run: func(db *DB, auth *string, a args) (string, error) {
			o, err := ownOrder(db, *auth, a.str("order_id"))
			if err != nil {
				return "", err
			}
			return show(o), nil
		}},
	{name: "get_product_details", desc: "Get a product's variants: item ids, options, prices and availability.",
		params: []param{{"product_id", "string", "The product id, such as '6086499569'. Product ids and item ids are different things."}},
		run: func(db *DB, _ *string, a args) (string, error) {
			p, ok := db.Products[a.str("product_id")]
			if !ok {
				return "", errors.New("product not found")
			}
			return show(p), nil
		}},
	{name: "list_all_product_types", desc: "List the name and product id of every product type the store sells.",
		run: func(db *DB, _ *string, _ args) (string, error) {
			m := map[string]string{}
			for id, p := range db.Products {
				m[p.Name] = id
			}
			return show(m), nil
		}},
	{name: "cancel_pending_order", write: true,
		desc:   "Cancel a pending order; the total is refunded to the original payment method (at once for a gift card). Needs the customer's explicit confirmation.",
		params: []param{pOrder, {"reason", "string", "The reason: 'no longer needed' or 'ordered by mistake'."}},
		run: func(db *DB, auth *string, a args) (string, error) {
			o, err := ownOrder(db, *auth, a.str("order_id"))
			if err != nil {
				return "", err
			}
			if o.Status != Pending {
				return "", errors.New("non-pending order cannot be cancelled")
			}
			reason := a.str("reason")
			if reason != "no longer needed" && reason != "ordered by mistake" {
				return "", errors.New("invalid reason: want 'no longer needed' or 'ordered by mistake'")
			}
			u := db.Users[o.UserID]
			var refunds []Transaction
			for _, t := range o.PaymentHistory {
				if t.Type == "payment" {
					refunds = append(refunds, Transaction{Type: "refund", Amount: t.Amount, PaymentMethodID: t.PaymentMethodID})
					credit(u, t.PaymentMethodID, t.Amount)
				}
			}
			o.PaymentHistory = append(o.PaymentHistory, refunds...)
			o.Status, o.CancelReason = Cancelled, reason
			return show(o), nil
		}},
	{name: "modify_pending_order_address", write: true,
		desc:   "Change the shipping address of a pending order. Needs the customer's explicit confirmation.",
		params: append([]param{pOrder}, addressParams...),
		run: func(db *DB, auth *string, a args) (string, error) {
			o, err := ownOrder(db, *auth, a.str("order_id"))
			if err != nil {
				return "", err
			}
			if o.Status != Pending {
				return "", errors.New("non-pending order cannot be modified")
			}
			o.Address = addressOf(a)
			return show(o), nil
		}},
	{name: "modify_pending_order_payment", write: true,
		desc:   "Pay for a pending order with another of the user's payment methods; the original one is refunded. A gift card must cover the total. Needs the customer's explicit confirmation.",
		params: []param{pOrder, pPayment},
		run: func(db *DB, auth *string, a args) (string, error) {
			o, err := ownOrder(db, *auth, a.str("order_id"))
			if err != nil {
				return "", err
			}
			if o.Status != Pending {
				return "", errors.New("non-pending order cannot be modified")
			}
			u := db.Users[o.UserID]
			id := a.str("payment_method_id")
			pm, ok := u.PaymentMethods[id]
			if !ok {
				return "", errors.New("payment method not found")
			}
			old := o.paidWith()
			if id == old {
				return "", errors.New("the new payment method must differ from the current one")
			}
			total := o.Total()
			if pm.Source == GiftCard && *pm.Balance < total {
				return "", errors.New("insufficient gift card balance to pay for the order")
			}
			o.PaymentHistory = append(o.PaymentHistory,
				Transaction{Type: "payment", Amount: total, PaymentMethodID: id},
				Transaction{Type: "refund", Amount: total, PaymentMethodID: old})
			credit(u, id, -total)
			credit(u, old, total)
			return show(o), nil
		}},
	{name: "modify_pending_order_items", write: true,
		desc:   "Change items of a pending order to other variants of the same products; can be done once per order. The price difference is paid or refunded with the given payment method. Needs the customer's explicit confirmation.",
		params: []param{pOrder, pItems, pNew, pPayment},
		run: func(db *DB, auth *string, a args) (string, error) {
			o, err := ownOrder(db, *auth, a.str("order_id"))
			if err != nil {
				return "", err
			}
			if o.Status != Pending {
				return "", errors.New("non-pending order cannot be modified")
			}
			idx, newItems, diff, err := swap(db, o, a.list("item_ids"), a.list("new_item_ids"))
			if err != nil {
				return "", err
			}
			u := db.Users[o.UserID]
			pm, ok := u.PaymentMethods[a.str("payment_method_id")]
			if !ok {
				return "", errors.New("payment method not found")
			}
			if pm.Source == GiftCard && *pm.Balance < diff {
				return "", errors.New("insufficient gift card balance to pay for the price difference")
			}
			kind := "payment"
			if diff < 0 {
				kind = "refund"
			}
			o.PaymentHistory = append(o.PaymentHistory, Transaction{Type: kind, Amount: abs(diff), PaymentMethodID: pm.ID})
			credit(u, pm.ID, -diff)
			for k, i := range idx {
				o.Items[i] = newItems[k]
			}
			o.Status = ItemsModified
			return show(o), nil
		}},
	{name: "return_delivered_order_items", write: true,
		desc:   "Request the return of items of a delivered order; the refund goes to the original payment method or an existing gift card. Needs the customer's explicit confirmation.",
		params: []param{pOrder, pItems, pPayment},
		run: func(db *DB, auth *string, a args) (string, error) {
			o, err := ownOrder(db, *auth, a.str("order_id"))
			if err != nil {
				return "", err
			}
			if o.Status != Delivered {
				return "", errors.New("non-delivered order cannot be returned")
			}
			items := a.list("item_ids")
			if _, err := positions(o, items); err != nil {
				return "", err
			}
			id := a.str("payment_method_id")
			pm, ok := db.Users[o.UserID].PaymentMethods[id]
			if !ok {
				return "", errors.New("payment method not found")
			}
			if id != o.paidWith() && pm.Source != GiftCard {
				return "", errors.New("the refund must go to the original payment method or a gift card")
			}
			o.Status, o.ReturnItems, o.ReturnPaymentMethodID = ReturnRequested, slices.Sorted(slices.Values(items)), id
			return show(o), nil
		}},
	{name: "exchange_delivered_order_items", write: true,
		desc:   "Exchange items of a delivered order for other variants of the same products; can be done once per order. The price difference is paid or refunded with the given payment method. Needs the customer's explicit confirmation.",
		params: []param{pOrder, pItems, pNew, pPayment},
		run: func(db *DB, auth *string, a args) (string, error) {
			o, err := ownOrder(db, *auth, a.str("order_id"))
			if err != nil {
				return "", err
			}
			if o.Status != Delivered {
				return "", errors.New("non-delivered order cannot be exchanged")
			}
			items, news := a.list("item_ids"), a.list("new_item_ids")
			_, _, diff, err := swap(db, o, items, news)
			if err != nil {
				return "", err
			}
			pm, ok := db.Users[o.UserID].PaymentMethods[a.str("payment_method_id")]
			if !ok {
				return "", errors.New("payment method not found")
			}
			if pm.Source == GiftCard && *pm.Balance < diff {
				return "", errors.New("insufficient gift card balance to pay for the price difference")
			}
			o.Status = ExchangeRequested
			o.ExchangeItems, o.ExchangeNewItems = slices.Sorted(slices.Values(items)), slices.Sorted(slices.Values(news))
			o.ExchangePaymentMethodID, o.ExchangePriceDifference = pm.ID, &diff
			return show(o), nil
		}},
	{name: "modify_user_address", write: true,
		desc:   "Change the authenticated user's default address. Needs the customer's explicit confirmation.",
		params: append([]param{pUser}, addressParams...),
		run: func(db *DB, auth *string, a args) (string, error) {
			u, err := authUser(db, *auth, a.str("user_id"))
			if err != nil {
				return "", err
			}
			u.Address = addressOf(a)
			return show(u), nil
		}},
	{name: "transfer_to_human_agents", ends: true,
		desc:   "Transfer the customer to a human agent, with a summary, when the request cannot be handled with these tools. Ends the conversation.",
		params: []param{{"summary", "string", "A summary of the customer's issue."}},
		run:    func(*DB, *string, args) (string, error) { return "Transfer successful", nil }},
}

var toolsByName = func() map[string]*tool {
	m := map[string]*tool{}
	for i := range toolList {
		m[toolList[i].name] = &toolList[i]
	}
	return m
}()

// authenticate records the conversation's user: one user per conversation.
func authenticate(auth *string, id string) (string, error) {
	if *auth != "" && *auth != id {
		return "", errors.New("another user is already authenticated in this conversation; you can only help one user")
	}
	*auth = id
	return id, nil
}

func authUser(db *DB, auth, id string) (*User, error) {
	if auth == "" {
		return nil, errAuth
	}
	u, ok := db.Users[id]
	if !ok {
		return nil, errors.New("user not found")
	}
	if id != auth {
		return nil, errors.New("you can only help the authenticated user")
	}
	return u, nil
}

func ownOrder(db *DB, auth, id string) (*Order, error) {
	if auth == "" {
		return nil, errAuth
	}
	o, ok := db.Orders[id]
	if !ok {
		return nil, errors.New("order not found")
	}
	if o.UserID != auth {
		return nil, errors.New("the order belongs to another user")
	}
	return o, nil
}

// positions finds each item id in the order (repeats take successive
// lines).
func positions(o *Order, items []string) ([]int, error) {
	if len(items) == 0 {
		return nil, errors.New("no item ids given")
	}
	used := map[int]bool{}
	var idx []int
	for _, id := range items {
		found := -1
		for i, it := range o.Items {
			if it.ItemID == id && !used[i] {
				found = i
				break
			}
		}
		if found < 0 {
			return nil, fmt.Errorf("%s not found in the order", id)
		}
		used[found] = true
		idx = append(idx, found)
	}
	return idx, nil
}

// swap checks that each new item is an available variant of the same
// product and returns the new lines and the price difference.
func swap(db *DB, o *Order, items, news []string) ([]int, []Item, Money, error) {
	idx, err := positions(o, items)
	if err != nil {
		return nil, nil, 0, err
	}
	if len(items) != len(news) {
		return nil, nil, 0, errors.New("the number of items and new items must match")
	}
	var diff Money
	out := make([]Item, len(idx))
	for k, i := range idx {
		old := o.Items[i]
		v, ok := db.Products[old.ProductID].Variants[news[k]]
		if !ok || !v.Available {
			return nil, nil, 0, fmt.Errorf("new item %s not found or not available", news[k])
		}
		diff += v.Price - old.Price
		out[k] = Item{Name: old.Name, ProductID: old.ProductID, ItemID: v.ItemID, Price: v.Price, Options: v.Options}
	}
	return idx, out, diff, nil
}

// credit adds amount to a gift card's balance (nothing for other methods:
// their refunds take 5 to 7 business days outside the store).
func credit(u *User, id string, amount Money) {
	if pm, ok := u.PaymentMethods[id]; ok && pm.Source == GiftCard {
		b := *pm.Balance + amount
		pm.Balance = &b
	}
}

func abs(m Money) Money {
	if m < 0 {
		return -m
	}
	return m
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// decode checks a call's arguments against the tool's parameters: every
// one given, of its type, and no other.
func (t *tool) decode(raw json.RawMessage) (args, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	var a args
	if err := json.Unmarshal(raw, &a); err != nil || a == nil {
		return nil, errors.New("arguments must be a JSON object")
	}
	for k := range a {
		if !slices.ContainsFunc(t.params, func(p param) bool { return p.name == k }) {
			return nil, fmt.Errorf("unexpected argument %q", k)
		}
	}
	for _, p := range t.params {
		v, ok := a[p.name]
		if !ok {
			return nil, fmt.Errorf("missing argument %q", p.name)
		}
		switch p.typ {
		case "string":
			if _, ok := v.(string); !ok {
				return nil, fmt.Errorf("argument %q must be a string", p.name)
			}
		case "array":
			xs, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("argument %q must be a list of strings", p.name)
			}
			for _, x := range xs {
				if _, ok := x.(string); !ok {
					return nil, fmt.Errorf("argument %q must be a list of strings", p.name)
				}
			}
		}
	}
	return a, nil
}

// apply runs a call on db for the user auth names (which find_user_id_*
// sets) and returns its output; an error is the tool's refusal, shown to
// the assistant as "Error: …".
func apply(db *DB, auth *string, c Call) (string, error) {
	t, ok := toolsByName[c.Name]
	if !ok {
		return "", fmt.Errorf("unknown tool %q", c.Name)
	}
	a, err := t.decode(c.Args)
	if err != nil {
		return "", err
	}
	return t.run(db, auth, a)
}

// schema is the tool's parameters as a JSON Schema object.
func (t *tool) schema() json.RawMessage {
	props := map[string]any{}
	required := []string{}
	for _, p := range t.params {
		s := map[string]any{"type": p.typ, "description": p.desc}
		if p.typ == "array" {
			s["items"] = map[string]string{"type": "string"}
		}
		props[p.name] = s
		required = append(required, p.name)
	}
	b, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": required})
	return b
}

// Functions returns the tools as OpenAI function tools, for native calling.
func Functions() []tools.Function {
	out := make([]tools.Function, len(toolList))
	for i := range toolList {
		out[i] = tools.Function{Name: toolList[i].name, Description: toolList[i].desc, Parameters: toolList[i].schema()}
	}
	return out
}
