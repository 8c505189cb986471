package retail_test

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs/multiagent"
	"github.com/quarry-rl/quarry/envs/retail"
)

// Play the desk with the oracle assistant and the scripted customer, and
// read each agent's return over its own turns.
func ExampleNew() {
	env := retail.NewShared(retail.DefaultOptions)
	ep, err := multiagent.Play(env, 1, map[string]multiagent.Policy{
		retail.Assistant: multiagent.OraclePolicy(),
		retail.Customer:  multiagent.OraclePolicy(), // the scripted customer
	}, 100)
	if err != nil {
		panic(err)
	}
	g := ep.Returns(1)
	fmt.Println(ep.Info.Extra["end"], g[retail.Assistant][0], g[retail.Customer][0], ep.Info.Extra["customer_broke_instructions"])
	// Output: stop 1 1 false
}
