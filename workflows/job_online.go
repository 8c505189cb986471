package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/schema"
)

// OnlineState is an online job's stream state, carried across
// continue-as-new.
type OnlineState struct {
	// Policy is the live policy version: the last one announced.
	Policy schema.PolicyStep `json:"policy"`
	// NextCommit is the first batch not yet committed: the only one that
	// may write its manifest, so manifests appear in batch order.
	NextCommit int `json:"next_commit"`
	// Slowest is the slowest consumer's next_batch, as last read.
	Slowest int `json:"slowest"`
	// LaunchedStep is the policy step the last batch started under (-1:
	// none yet): a sync job starts the next batch under a newer one only.
	LaunchedStep int `json:"launched_step"`
	// Rejected counts announcements refused (an invalid version label).
	Rejected int `json:"rejected,omitempty"`
}

// OnlineProgress is what the progress query says of an online job.
type OnlineProgress struct {
	Mode    string            `json:"mode"`
	Policy  schema.PolicyStep `json:"policy"`
	Slowest int               `json:"slowest_consumer"`
	// Waiting says why no batch starts: "consumers" (max_batches_ahead
	// reached) or "version" (a sync job waits for the next announcement).
	Waiting  string `json:"waiting,omitempty"`
	Rejected int    `json:"rejected_announcements,omitempty"`
}

// pollConsumers is how long one WaitConsumers activity waits before the
// job asks again.
const pollConsumers = time.Minute

func newOnlineState(spec schema.JobSpec, plan activities.ValidateJobResult) *OnlineState {
	o := &OnlineState{Policy: initialPolicy(spec), LaunchedStep: -1}
	if plan.Policy != nil {
		o.Policy = *plan.Policy // a rerun goes on from the last committed batch's version
	}
	for _, b := range plan.Committed {
		if b == o.NextCommit {
			o.NextCommit++
		}
	}
	return o
}

func (o *OnlineState) progress(spec schema.JobSpec, next, running int) *OnlineProgress {
	w := ""
	if spec.HasBatch(next) {
		w = o.waiting(spec, next, running)
	}
	return &OnlineProgress{Mode: spec.Online.Mode, Policy: o.Policy, Slowest: o.Slowest, Waiting: w, Rejected: o.Rejected}
}

// waiting says why batch next may not start with running batches in
// flight, or "" when it may.
func (o *OnlineState) waiting(spec schema.JobSpec, next, running int) string {
	on := spec.Online
	if on.Mode == schema.OnlineSync && (running > 0 || (o.LaunchedStep >= 0 && o.Policy.Step <= o.LaunchedStep)) {
		return "version"
	}
	if on.MaxBatchesAhead > 0 && next-o.Slowest+1 > on.MaxBatchesAhead {
		return "consumers"
	}
	return ""
}

// onlineHeld reports whether an online job may not start its next batch
// now; when its consumers hold it, a WaitConsumers activity asks their
// cursors until they have read enough.
func (j *jobRun) onlineHeld() bool {
	o := j.st.Online
	if o == nil {
		return false
	}
	next := j.st.NextBatch
	switch o.waiting(j.spec, next, len(j.running)) {
	case "":
		return false
	case "consumers":
		j.pollConsumers(next - j.spec.Online.MaxBatchesAhead + 1)
	}
	return true
}

// pollConsumers starts a WaitConsumers activity unless one is out.
func (j *jobRun) pollConsumers(target int) {
	if j.polling {
		return
	}
	j.polling = true
	actx := workflow.WithActivityOptions(j.ctx, workflow.ActivityOptions{
		StartToCloseTimeout: pollConsumers + time.Minute,
		HeartbeatTimeout:    30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: time.Minute},
	})
	in := activities.WaitConsumersInput{Output: j.spec.Output, Job: j.spec.Job, Consumers: j.spec.Online.Consumers, Target: target, Max: pollConsumers}
	fut := workflow.ExecuteActivity(actx, activities.WaitConsumersName, in)
	j.sel.AddFuture(fut, func(f workflow.Future) {
		j.polling = false
		var r activities.WaitConsumersResult
		if err := f.Get(j.ctx, &r); err == nil && r.Slowest > j.st.Online.Slowest {
			j.st.Online.Slowest = r.Slowest
		}
	})
}

// onlineLaunch gives a starting batch the live version and, when every
// earlier batch is committed, leave to commit.
func (j *jobRun) onlineLaunch(in *BatchInput) {
	o := j.st.Online
	if o == nil {
		return
	}
	p := o.Policy
	in.Policy = &p
	in.CommitReady = in.Batch == o.NextCommit
	o.LaunchedStep = p.Step
}

// onlineCommitted notes batch b's commit under version p and gives the
// next batch in flight leave to commit. A sync batch that started over
// under a newer version counts as launched under it: the next batch waits
// for a version newer still.
func (j *jobRun) onlineCommitted(b int, p *schema.PolicyStep) {
	o := j.st.Online
	if o == nil {
		return
	}
	if p != nil {
		o.LaunchedStep = max(o.LaunchedStep, p.Step)
	}
	o.NextCommit = max(o.NextCommit, b+1)
	if c := j.children[o.NextCommit]; c != nil {
		c.signal(j.ctx, SignalCommit, nil)
	}
}

// keepChild remembers batch b's child of an online job, to signal.
func (j *jobRun) keepChild(b int, c *child) {
	if j.st.Online == nil {
		return
	}
	if j.children == nil {
		j.children = map[int]*child{}
	}
	j.children[b] = c
}

// onPolicy applies announcements: each new version is the next step; the
// batches in flight hear of it. Re-announcing the live version is a no-op.
func (j *jobRun) onPolicy(c workflow.ReceiveChannel) {
	o := j.st.Online
	changed := false
	var s PolicySignal
	for c.ReceiveAsync(&s) {
		switch {
		case schema.CheckVersionLabel(s.Version) != nil || len(s.Model) > schema.MaxNameLen:
			o.Rejected++
		case s.Version == o.Policy.Version && (s.Model == "" || s.Model == o.Policy.Model):
		default:
			o.Policy.Step++
			o.Policy.Version = s.Version
			if s.Model != "" {
				o.Policy.Model = s.Model
			}
			changed = true
		}
		s = PolicySignal{}
	}
	if !changed {
		return
	}
	for _, b := range j.running {
		if c := j.children[b]; c != nil {
			c.signal(j.ctx, SignalPolicy, o.Policy)
		}
	}
}
