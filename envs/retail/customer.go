package retail

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// StopToken ends the conversation when the customer says it (tau-bench's).
const StopToken = "###STOP###"

// patience is how many replies without progress the scripted customer
// gives once its request is told but not settled, before it gives up.
const patience = 3

// entityPattern finds the identifiers a customer could state: order ids,
// emails, user ids, item and product ids, payment method ids, zip codes and
// street addresses. The instruction check compares a customer's message's
// entities with its instruction's.
var entityPattern = regexp.MustCompile(`#W\d{7}|[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}|` +
	`\b(?:credit_card|paypal|gift_card)_\d{7}\b|\b[a-z]+_[a-z]+_\d{4}\b|\b\d{10}\b|\b\d{5}\b|` +
	`\b\d{1,4} [A-Z][a-z]+ (?:Street|Avenue|Drive|Lane|Road)\b`)

func entities(s string) []string {
	found := entityPattern.FindAllString(s, -1)
	for i, e := range found {
		found[i] = strings.ToLower(e)
	}
	slices.Sort(found)
	return slices.Compact(found)
}

var (
	confirmWords = []string{"confirm", "yes/no", "(yes", "shall i proceed", "should i proceed"}
	yesPattern   = regexp.MustCompile(`(?i)\b(yes|yeah|yep|confirm(ed)?|go ahead|proceed)\b`)
	slotWords    = map[string][]string{
		SlotIdentity: {"email", "zip", "your name", "first name", "last name", "verify", "authenticate", "identity"},
		SlotOrder:    {"order id", "order number", "which order"},
		SlotItems:    {"which item", "what item", "items"},
		SlotPayment:  {"payment", "refund", "charge", "pay "},
		SlotAddress:  {"address"},
		SlotReason:   {"reason", "why"},
		SlotQuestion: {"question"},
	}
)

// asksConfirmation reports whether an assistant message asks the customer
// to confirm an action.
func asksConfirmation(msg string) bool {
	low := strings.ToLower(msg)
	return slices.ContainsFunc(confirmWords, func(w string) bool { return strings.Contains(low, w) })
}

// customer is the customer's side of an episode: which instruction lines
// it revealed, and the instruction check's findings.
type customer struct {
	task      *Task
	lineEnts  [][]string      // entities of each line
	known     map[string]int  // instruction entity → its line
	said      map[string]bool // entities the assistant said (the customer may repeat them)
	revealed  []bool
	idle      int // replies since the last revealed line
	spoke     bool
	breaks    []string // instruction breaks: the episode may be mis-scored
	notes     []string // deviations that cannot mis-score it (several lines at once)
	turns     int
	lastAsked string // the assistant's last message
}

func newCustomer(t *Task) *customer {
	c := &customer{task: t, known: map[string]int{}, said: map[string]bool{}, revealed: make([]bool, len(t.Lines))}
	for i, l := range t.Lines {
		ents := entities(l.Text)
		c.lineEnts = append(c.lineEnts, ents)
		for _, e := range ents {
			if _, dup := c.known[e]; !dup {
				c.known[e] = i
			}
		}
	}
	return c
}

// heard notes an assistant message.
func (c *customer) heard(msg string) {
	c.lastAsked = msg
	for _, e := range entities(msg) {
		c.said[e] = true
	}
}

// available reports whether line i may be said after writes writes.
func (c *customer) available(i, writes int) bool { return c.task.Lines[i].Stage <= writes }

func (c *customer) allRevealed() bool { return !slices.Contains(c.revealed, false) }

// check applies the rule-based instruction check to a customer message and
// records what it revealed. writes is how many writes had succeeded.
func (c *customer) check(msg string, writes int) {
	c.turns++
	flag := func(format string, a ...any) {
		c.breaks = append(c.breaks, fmt.Sprintf("turn %d: ", c.turns)+fmt.Sprintf(format, a...))
	}
	text := strings.TrimSpace(strings.ReplaceAll(msg, StopToken, ""))
	if text == "" && !strings.Contains(msg, StopToken) {
		flag("empty message")
	}
	ents := entities(msg)
	for _, e := range ents {
		i, ok := c.known[e]
		switch {
		case !ok && !c.said[e]:
			flag("said %s, which is not in its instruction", e)
		case ok && !c.available(i, writes):
			flag("revealed %s (line %d) before the earlier request was done", e, i+1)
		}
	}
	var newly []int
	for i, l := range c.task.Lines {
		if c.revealed[i] {
			continue
		}
		hit := strings.Contains(msg, l.Text)
		if !hit && len(c.lineEnts[i]) > 0 {
			hit = !slices.ContainsFunc(c.lineEnts[i], func(e string) bool { return !slices.Contains(ents, e) })
		}
		if hit {
			c.revealed[i] = true
			newly = append(newly, i+1)
		}
	}
	if len(newly) > 1 {
		// Telling more than asked makes the task easier, never scores it
		// wrongly: a note, not a break.
		c.notes = append(c.notes, fmt.Sprintf("turn %d: revealed lines %v at once (one line at a time)", c.turns, newly))
	}
	if len(newly) > 0 {
		c.idle = 0
	} else {
		c.idle++
	}
	if strings.Contains(msg, StopToken) {
		for i, r := range c.revealed {
			if !r && len(c.lineEnts[i]) > 0 && c.available(i, writes) {
				flag("stopped before telling line %d", i+1)
			}
		}
	}
	c.spoke = true
}

// scripted is the scripted customer's next message: its first line first;
// then the line the assistant asks for (by keyword), else yes to a
// confirmation request, else the next line it may say; once everything is told, the stop
// token when the request is settled (writes done, facts told) or after
// patience replies without progress.
func (c *customer) scripted(writes int, settled bool) string {
	if !c.spoke {
		return c.task.Lines[0].Text
	}
	low := strings.ToLower(c.lastAsked)
	next, asked := -1, -1
	for i := range c.task.Lines {
		if c.revealed[i] || !c.available(i, writes) {
			continue
		}
		if next < 0 {
			next = i
		}
		if slices.ContainsFunc(slotWords[c.task.Lines[i].Slot], func(w string) bool { return strings.Contains(low, w) }) {
			asked = i
			break
		}
	}
	switch {
	case asked >= 0: // "can you confirm your email?" asks for the email
		return c.task.Lines[asked].Text
	case asksConfirmation(c.lastAsked):
		return "Yes, please go ahead."
	case next >= 0:
		return c.task.Lines[next].Text
	case c.allRevealed() && settled:
		return "Thank you, that's all I needed. " + StopToken
	case c.idle >= patience:
		return "This doesn't seem to be going anywhere. " + StopToken
	}
	return "Could you help me with that, please?"
}

// Prompt is what an LLM playing the customer is given (tau-bench's user
// simulator prompt, rewritten).
func customerPrompt(t *Task) string {
	return "You are a customer chatting with the customer service assistant of an online store. " +
		"Play the customer this instruction describes:\n\n" + t.Instruction() + "\n" +
		"Rules:\n" +
		"- Say one line of the instruction at a time, when the assistant needs it or asks for it; never the whole instruction at once.\n" +
		"- Never make up anything the instruction does not say (order ids, emails, items, addresses, payment methods).\n" +
		"- When the assistant asks you to confirm an action that matches your instruction, answer yes.\n" +
		"- Lines marked as coming only once the request above is completed wait until the assistant has done it.\n" +
		"- When your requests are fulfilled, or clearly cannot be, end your message with " + StopToken + ".\n" +
		"Write only what the customer says."
}
