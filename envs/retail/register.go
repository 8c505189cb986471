package retail

import (
	"sync"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/multiagent"
)

// Revision numbers the desk's rules, store generator and tasks.
const Revision = 1

// IDs registered by Register.
const (
	// ID describes the tools in the first observation, called with text tags.
	ID = "multiagent:retail-v0"
	// NativeID expects native tool calling (the env's Functions as the
	// request's tools).
	NativeID = "multiagent:retail-v0-native"
	// CustomerID trains the customer instead: the expert assistant plays
	// inside, and the customer earns 1 iff it ends the conversation without
	// breaking its instruction (a user simulator's reward).
	CustomerID = "multiagent:retail-v0-customer"
)

// Register adds the single-agent retail ids to r: the assistant trained
// with the scripted customer inside, and the customer trained with the
// expert assistant inside.
func Register(r *envs.Registry) error {
	for _, v := range []struct {
		id, desc string
		native   bool
		trained  string
	}{
		{ID, "TAU-bench-style retail desk: serve a scripted customer with tools over a generated store (text tool tags); 1 iff the final store equals the goal and the required facts were told", false, Assistant},
		{NativeID, "TAU-bench-style retail desk with native tool calling: serve a scripted customer with function tools over a generated store; 1 iff the final store equals the goal and the required facts were told", true, Assistant},
		{CustomerID, "TAU-bench-style retail desk, the customer's side: play a customer's instruction a line at a time against the expert assistant; 1 iff it ends the conversation (###STOP###) without breaking its instruction", false, Customer},
	} {
		native, trained := v.native, v.trained
		err := r.Register(envs.Spec{
			ID: v.id, Description: v.desc, MaxTurns: MaxTurns, RewardMin: 0, RewardMax: 1, Revision: Revision,
			Build: envs.Options(DefaultOptions, func(o Options) (envs.Env, error) {
				o.Native = native
				if trained == Customer {
					return multiagent.NewSingle(NewShared(o), Customer, map[string]string{Assistant: multiagent.KindOracle})
				}
				return NewSingle(o)
			}),
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// NewSingle is the desk as a single-agent env for the assistant, with the
// scripted customer.
func NewSingle(o Options) (envs.Env, error) {
	return multiagent.NewSingle(NewShared(o), Assistant, map[string]string{Customer: multiagent.KindScripted})
}

// generated caches stores and tasks by their options: generation is pure,
// and every instance of an id shares one read-only copy (each episode plays
// on its own clone of the store). Bounded by the few option sets a process
// uses; past maxGenerated entries it starts over.
var generated struct {
	sync.Mutex
	m map[Options]*Env
}

const maxGenerated = 16

// NewShared is New with the store and tasks shared between instances of
// the same options.
func NewShared(o Options) *Env {
	key := o
	key.Native = false
	generated.Lock()
	defer generated.Unlock()
	g, ok := generated.m[key]
	if !ok {
		if generated.m == nil || len(generated.m) >= maxGenerated {
			generated.m = map[Options]*Env{}
		}
		g = New(key)
		generated.m[key] = g
	}
	return &Env{opts: o, base: g.base, tasks: g.tasks}
}
