package multiagent

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Assignment is a job's choice of policy kind per role (the spec's
// `agents: {assistant: endpoint, customer: scripted}`).
type Assignment map[string]string

// Modes of a Plan.
const (
	// ModeLocal: every role is played in-process; whole episodes run with
	// Play (one heartbeating activity, as local single-agent policies do).
	ModeLocal = "local"
	// ModeSingle: one role is an endpoint; the Single adapter makes the env
	// a plain envs.Env for that agent and today's episode loop runs it.
	ModeSingle = "single"
	// ModeMulti: several roles are endpoints; each turn the workflow asks
	// Next, generates for that agent from its own observation stream, and
	// steps the env.
	ModeMulti = "multi"
)

// Plan is how a job plays a multi-agent env under an assignment.
type Plan struct {
	Mode string
	// Trained is the agent played by the endpoint in ModeSingle.
	Trained string
	// Local maps each role played in-process to its kind.
	Local map[string]string
	// Endpoints lists the roles played by endpoints, sorted.
	Endpoints []string
}

// PlanFor validates an assignment against env's roles and says how to run
// it. Every role needs a kind; errors name the role and the allowed values.
func PlanFor(env Env, a Assignment) (Plan, error) {
	roles := map[string][]string{} // role → agent ids
	for _, ag := range env.Agents() {
		roles[ag.Role] = append(roles[ag.Role], ag.ID)
	}
	known := slices.Sorted(maps.Keys(roles))
	for _, role := range slices.Sorted(maps.Keys(a)) {
		if _, ok := roles[role]; !ok {
			return Plan{}, fmt.Errorf("agents.%s: not a role of this env (its roles: %s)", role, strings.Join(known, ", "))
		}
	}
	p := Plan{Local: map[string]string{}}
	for _, role := range known {
		kind, ok := a[role]
		switch {
		case !ok:
			return Plan{}, fmt.Errorf("agents.%s: no policy; want one of %s", role, strings.Join(Kinds, ", "))
		case !slices.Contains(Kinds, kind):
			return Plan{}, fmt.Errorf("agents.%s: %q: want one of %s", role, kind, strings.Join(Kinds, ", "))
		case kind == KindEndpoint:
			p.Endpoints = append(p.Endpoints, role)
		default:
			p.Local[role] = kind
		}
	}
	switch len(p.Endpoints) {
	case 0:
		p.Mode = ModeLocal
	case 1:
		ids := roles[p.Endpoints[0]]
		if len(ids) > 1 {
			p.Mode = ModeMulti // one endpoint plays several agents of a role
			break
		}
		p.Mode, p.Trained = ModeSingle, ids[0]
	default:
		p.Mode = ModeMulti
	}
	return p, nil
}
