package workflows

import (
	"cmp"
	"fmt"
	"slices"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/schema"
)

// onlineBatch plays an online job's batch (docs/online.md): its episodes
// start with the live policy version, hear of new ones (forwarded from the
// job), and are played again when their turns are too stale to deliver; the
// batch commits only once the job says every earlier batch has committed.
type onlineBatch struct {
	ctx      workflow.Context
	spec     schema.JobSpec
	plans    []activities.EnvPlan
	slots    []schema.Slot
	out      []activities.EpisodeOutcome
	regen    []int  // regenerations per slot
	aborted  []bool // cancelled because a new version arrived (sync, abort)
	cur      schema.PolicyStep
	ready    bool // every earlier batch is committed
	endpoint BatchEndpointSignal
	sel      workflow.Selector
	running  []runningEpisode
}

// runningEpisode is an episode child in flight.
type runningEpisode struct {
	slot   int
	child  *child
	cancel workflow.CancelFunc
}

// runOnline plays the batch's slots until none is stale and the batch may
// commit, and returns the outcomes and the manifest's policy account.
func runOnline(ctx workflow.Context, in BatchInput, slots []schema.Slot) ([]activities.EpisodeOutcome, *schema.ManifestPolicy, error) {
	b := &onlineBatch{
		ctx: ctx, spec: in.Spec, plans: in.Envs, slots: slots,
		out: make([]activities.EpisodeOutcome, len(slots)), regen: make([]int, len(slots)), aborted: make([]bool, len(slots)),
		ready: in.CommitReady, sel: workflow.NewSelector(ctx),
	}
	if in.Policy != nil {
		b.cur = *in.Policy
	}
	b.listen()
	all := make([]int, len(slots))
	for i := range all {
		all[i] = i
	}
	b.play(all)
	for ctx.Err() == nil {
		if !b.ready {
			b.sel.Select(ctx)
			continue
		}
		stale := b.stale()
		if len(stale) == 0 {
			break
		}
		b.play(stale)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return b.out, b.manifestPolicy(), nil
}

// listen wires the batch's signals: the endpoint (as runEpisodes), new
// policy versions and the go-ahead to commit.
func (b *onlineBatch) listen() {
	b.sel.AddReceive(workflow.GetSignalChannel(b.ctx, SignalEndpoint), func(c workflow.ReceiveChannel, _ bool) {
		var s BatchEndpointSignal
		for c.ReceiveAsync(&s) {
			if s.Epoch > b.endpoint.Epoch {
				b.endpoint = s
			}
		}
	})
	b.sel.AddReceive(workflow.GetSignalChannel(b.ctx, SignalCommit), func(c workflow.ReceiveChannel, _ bool) {
		for c.ReceiveAsync(nil) {
			b.ready = true
		}
	})
	b.sel.AddReceive(workflow.GetSignalChannel(b.ctx, SignalPolicy), func(c workflow.ReceiveChannel, _ bool) {
		changed := false
		var p schema.PolicyStep
		for c.ReceiveAsync(&p) {
			if p.Step > b.cur.Step {
				b.cur, changed = p, true
			}
		}
		if changed {
			b.onNewVersion()
		}
	})
}

// onNewVersion tells the running episodes; a sync batch that aborts on new
// versions cancels them instead (they are played again).
func (b *onlineBatch) onNewVersion() {
	abort := b.spec.Online.Mode == schema.OnlineSync && b.spec.Online.OnNewVersion == schema.NewVersionAbort
	for _, r := range b.running {
		if abort {
			b.aborted[r.slot] = true
			r.cancel()
			continue
		}
		r.child.signal(b.ctx, SignalPolicy, b.cur)
	}
}

// play runs the given slots as episode children, a bounded number at a
// time, none while the job reports the endpoint away.
func (b *onlineBatch) play(slots []int) {
	next := 0
	limit := max(1, b.spec.InFlight.Episodes)
	for next < len(slots) || len(b.running) > 0 {
		for next < len(slots) && len(b.running) < limit && !b.endpoint.Down {
			b.start(slots[next])
			next++
		}
		b.sel.Select(b.ctx)
		if b.ctx.Err() != nil {
			return
		}
	}
}

// start starts slot i's episode under the live version.
func (b *onlineBatch) start(i int) {
	slot := b.slots[i]
	ref := activities.EpisodeRef{Spec: b.spec, Env: b.plans[slot.Env], Slot: slot}
	cctx, cancel := workflow.WithCancel(b.ctx)
	cctx = workflow.WithChildOptions(cctx, workflow.ChildWorkflowOptions{
		WorkflowID:            ref.ID(),
		RetryPolicy:           &temporal.RetryPolicy{MaximumAttempts: int32(b.spec.Episode.MaxAttempts)},
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	})
	live := b.cur
	b.aborted[i] = false
	b.out[i] = activities.EpisodeOutcome{}
	fut, c := startSignalable(cctx, EpisodeWorkflowName, EpisodeInput{Episode: ref, Regen: b.regen[i], State: EpisodeState{Policy: &live}})
	b.running = append(b.running, runningEpisode{slot: i, child: c, cancel: cancel})
	b.sel.AddFuture(fut, func(f workflow.Future) {
		b.running = slices.DeleteFunc(b.running, func(r runningEpisode) bool { return r.slot == i })
		if err := f.Get(b.ctx, &b.out[i]); err != nil && !b.aborted[i] {
			b.out[i] = failedOutcome(slot, b.spec, err)
		}
	})
}

// stale lists the slots that may not be delivered as they are, and drops
// (as failures) those that may not be played again. Sync batches that abort
// on new versions need every turn by the live version; async ones turns no
// older than max_version_lag steps.
func (b *onlineBatch) stale() []int {
	o := b.spec.Online
	lag := -1
	switch {
	case o.Mode == schema.OnlineSync && o.OnNewVersion == schema.NewVersionAbort:
		lag = 0
	case o.Mode == schema.OnlineAsync && o.MaxVersionLag != nil:
		lag = *o.MaxVersionLag
	}
	var again []int
	for i := range b.out {
		out := &b.out[i]
		if !b.aborted[i] && (lag < 0 || out.Failure != nil || len(out.Policy) == 0 || out.Policy[0].Step >= b.cur.Step-lag) {
			continue
		}
		if (o.Stale == schema.StaleDrop && !b.aborted[i]) || b.regen[i] >= b.spec.Episode.MaxAttempts {
			out.Failure = b.staleFailure(i, lag)
			continue
		}
		b.regen[i]++
		again = append(again, i)
	}
	return again
}

// staleFailure records slot i as dropped for staleness.
func (b *onlineBatch) staleFailure(i, lag int) *activities.EpisodeFailure {
	oldest := "none (cancelled for a new version)"
	if ps := b.out[i].Policy; len(ps) > 0 {
		oldest = fmt.Sprintf("%s (step %d)", ps[0].Version, ps[0].Step)
	}
	msg := fmt.Sprintf("episode %s: oldest turn by %s with the job at %s (step %d): beyond the version lag of %d after %d regeneration(s)",
		schema.EpisodeID(b.spec.Job, b.slots[i].Batch, b.slots[i].Episode), oldest, b.cur.Version, b.cur.Step, lag, b.regen[i])
	return &activities.EpisodeFailure{ErrorClass: schema.ClassStalePolicy, Message: msg, Attempts: b.regen[i] + 1}
}

// manifestPolicy is the versions of the delivered episodes' turns, oldest
// first, and the live one.
func (b *onlineBatch) manifestPolicy() *schema.ManifestPolicy {
	m := &schema.ManifestPolicy{Current: b.cur}
	for _, o := range b.out {
		if o.Failure != nil {
			continue
		}
		for _, p := range o.Policy {
			if !slices.ContainsFunc(m.Versions, func(q schema.PolicyStep) bool { return q.Step == p.Step }) {
				m.Versions = append(m.Versions, p)
			}
		}
	}
	slices.SortFunc(m.Versions, func(x, y schema.PolicyStep) int { return cmp.Compare(x.Step, y.Step) })
	return m
}
