package retail

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseAction(t *testing.T) {
	cases := []struct {
		in           string
		name, args   string // a call
		message, err string // or a message, or a malformed call's error
	}{
		{in: "Hello, how can I help?", message: "Hello, how can I help?"},
		{in: "  \n", message: ""},
		{in: `<tool_call>{"name": "get_order_details", "arguments": {"order_id": "#W1"}}</tool_call>`, name: "get_order_details", args: `{"order_id":"#W1"}`},
		{in: "Let me check.\n<tool_call>\n{\"name\": \"list_all_product_types\", \"arguments\": {}}\n</tool_call>", name: "list_all_product_types", args: `{}`},
		{in: `<tool_call>{"name": "x", "arguments": "{\"a\": 1}"}</tool_call>`, name: "x", args: `{"a":1}`},
		{in: `<tool_call><tool_name>get_user_details</tool_name><arguments>{"user_id": "a_b_1"}</arguments></tool_call>`, name: "get_user_details", args: `{"user_id":"a_b_1"}`},
		{in: `<tool_call><tool_name>list_all_product_types</tool_name></tool_call>`, name: "list_all_product_types", args: `{}`},
		{in: `<tool_call>{"name": "x", "arguments": {"a": }}</tool_call>`, err: "not valid JSON"},
		{in: `<tool_call>{"arguments": {}}</tool_call>`, err: `without a "name"`},
		{in: `<tool_call>{"name": "x"} trailing</tool_call>`, err: "text after"},
		{in: `<tool_call>{"name": "x", "arguments": {`, err: "unterminated"},
		{in: "<tool_call>\n{\"name\": \"x\", \"arguments\": {}}\n", name: "x", args: `{}`},
		{in: `<tool_call>{"name": "x"} and more`, err: "unterminated"},
		{in: `<tool_call>get_user_details</tool_call>`, err: "unreadable"},
		{in: `<tool_call><tool_name>x</tool_name><arguments>{oops}</arguments></tool_call>`, err: "not valid JSON"},
	}
	for _, c := range cases {
		a := parseAction(c.in)
		switch {
		case c.name != "":
			if a.call == nil || a.call.Name != c.name || string(a.call.Args) != c.args {
				t.Errorf("%q: got %+v, want call %s(%s)", c.in, a, c.name, c.args)
			}
		case c.err != "":
			if a.call != nil || !strings.Contains(a.callErr, c.err) {
				t.Errorf("%q: got %+v, want an error saying %q", c.in, a, c.err)
			}
		default:
			if a.call != nil || a.callErr != "" || a.message != c.message {
				t.Errorf("%q: got %+v, want message %q", c.in, a, c.message)
			}
		}
	}
}

// FuzzParseAction: any text is a call with JSON-object-or-other valid JSON
// arguments, a malformed call, or a message; a call's Text reads back as
// the same call.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"hi", "", `<tool_call>{"name": "a", "arguments": {"b": [1]}}</tool_call>`,
		`<tool_call><tool_name>a</tool_name><arguments>{}</arguments></tool_call>`, "<tool_call>", "</tool_call><tool_call>",
		`<tool_call>{"name": "a", "arguments": "{}"}</tool_call>`, "\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a := parseAction(s)
		n := 0
		if a.call != nil {
			n++
			if !json.Valid(a.call.Args) {
				t.Fatalf("%q: arguments %q are not JSON", s, a.call.Args)
			}
			back := parseAction(a.call.Text())
			if back.call == nil || back.call.Name != a.call.Name || string(back.call.Args) != string(a.call.Args) {
				t.Fatalf("%q: %+v does not read back (%+v)", s, a.call, back)
			}
		}
		if a.callErr != "" {
			n++
		}
		if a.message != "" {
			n++
			if strings.Contains(a.message, openTag) {
				t.Fatalf("%q: a message holding a tool call", s)
			}
		}
		if n > 1 {
			t.Fatalf("%q: %+v is more than one thing", s, a)
		}
		// The env never fails on it either.
		e := NewShared(DefaultOptions)
		if _, err := e.ResetTask(0); err != nil {
			t.Fatal(err)
		}
		e.Step(Customer, e.tasks[0].Lines[0].Text)
		if _, err := e.Step(Assistant, s); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
	})
}

func TestToolRules(t *testing.T) {
	e := NewShared(DefaultOptions)
	db := e.Store()
	var u, other *User
	for _, id := range sortedKeys(db.Users) {
		if u == nil {
			u = db.Users[id]
		} else if other == nil {
			other = db.Users[id]
		}
	}
	mine, theirs := u.Orders[0], other.Orders[0]
	var pending, delivered string
	for _, id := range u.Orders {
		switch db.Orders[id].Status {
		case Pending:
			pending = id
		case Delivered:
			delivered = id
		}
	}
	auth := ""
	run := func(name string, a map[string]any) (string, error) { return apply(db, &auth, call(name, a)) }
	want := func(what string, err error, sub string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), sub) {
			t.Errorf("%s: err = %v, want %q", what, err, sub)
		}
	}
	_, err := run("get_order_details", map[string]any{"order_id": mine})
	want("a look-up before authentication", err, "not authenticated")
	_, err = run("cancel_pending_order", map[string]any{"order_id": mine, "reason": "no longer needed"})
	want("a write before authentication", err, "not authenticated")
	if id, err := run("find_user_id_by_email", map[string]any{"email": strings.ToUpper(u.Email)}); err != nil || id != u.ID {
		t.Fatalf("find by email: %q %v", id, err)
	}
	_, err = run("find_user_id_by_name_zip", map[string]any{"first_name": other.Name.First, "last_name": other.Name.Last, "zip": other.Address.Zip})
	want("a second user", err, "one user")
	_, err = run("get_order_details", map[string]any{"order_id": theirs})
	want("another user's order", err, "another user")
	_, err = run("get_user_details", map[string]any{"user_id": other.ID})
	want("another user's profile", err, "authenticated user")
	_, err = run("get_order_details", map[string]any{"order_id": mine, "extra": 1})
	want("an unknown argument", err, "unexpected argument")
	_, err = run("get_order_details", map[string]any{})
	want("a missing argument", err, "missing argument")
	_, err = run("return_delivered_order_items", map[string]any{"order_id": mine, "item_ids": "x", "payment_method_id": "p"})
	want("a string for a list", err, "list of strings")
	if pending != "" {
		_, err = run("cancel_pending_order", map[string]any{"order_id": pending, "reason": "too expensive"})
		want("a reason outside the two", err, "invalid reason")
		if _, err := run("cancel_pending_order", map[string]any{"order_id": pending, "reason": "ordered by mistake"}); err != nil {
			t.Fatal(err)
		}
		_, err = run("cancel_pending_order", map[string]any{"order_id": pending, "reason": "ordered by mistake"})
		want("cancelling twice", err, "non-pending")
		o := db.Orders[pending]
		if o.Status != Cancelled || len(o.PaymentHistory) != 2 || o.PaymentHistory[1].Type != "refund" || o.PaymentHistory[1].Amount != o.Total() {
			t.Errorf("cancelled order %+v: want a refund of the total", o)
		}
	}
	if delivered != "" {
		_, err = run("exchange_delivered_order_items", map[string]any{"order_id": delivered, "item_ids": []string{"0"}, "new_item_ids": []string{"1"}, "payment_method_id": "p"})
		want("an item not in the order", err, "not found")
	}
	if _, err := apply(db, &auth, Call{Name: "nope", Args: json.RawMessage(`{}`)}); err == nil {
		t.Error("an unknown tool ran")
	}
}

func TestMoney(t *testing.T) {
	for m, s := range map[Money]string{0: "0.00", 5: "0.05", 1999: "19.99", -250: "-2.50", 123456: "1234.56"} {
		if m.String() != s {
			t.Errorf("%d cents: %q, want %q", int64(m), m.String(), s)
		}
		var back Money
		if err := json.Unmarshal([]byte(s), &back); err != nil || back != m {
			t.Errorf("%q reads back as %d (%v)", s, int64(back), err)
		}
	}
}
