package workflows

import "github.com/quarry-rl/quarry/schema"

// Signals of online jobs (docs/online.md).
const (
	// SignalPolicy announces a new policy version to a job (PolicySignal):
	// the trainer sends it once the inference servers serve the weights.
	// The job numbers announcements (schema.PolicyStep) and tells its
	// batches, which tell their episodes.
	SignalPolicy = "policy"
	// SignalCommit tells an online batch that every earlier batch is
	// committed, so its manifest may follow: manifests appear in batch
	// order.
	SignalCommit = "commit"
)

// PolicySignal is what SignalPolicy carries.
type PolicySignal struct {
	Version string `json:"version"`
	// Model is the served model name from this version on ("" keeps the
	// current one).
	Model string `json:"model,omitempty"`
}

// initialPolicy is the version an online job starts with.
func initialPolicy(spec schema.JobSpec) schema.PolicyStep {
	v := schema.DefaultInitialVersion
	if o := spec.Policy.OpenAI; o != nil && o.PolicyVersion != "" {
		v = o.PolicyVersion
	}
	return schema.PolicyStep{Version: v}
}
