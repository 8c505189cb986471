package workflows

import (
	"slices"
	"strings"
	"time"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/schema"
)

// Progress is what the progress query answers.
type Progress struct {
	Job             string    `json:"job"`
	Batches         int       `json:"batches"`
	BatchesDone     int       `json:"batches_done"`
	BatchesInFlight int       `json:"batches_in_flight"`
	Episodes        int64     `json:"episodes"`
	EpisodesDone    int64     `json:"episodes_done"`
	EpisodesFailed  int64     `json:"episodes_failed"`
	Successes       int64     `json:"successes"`
	Turns           int64     `json:"turns"`
	PromptTokens    int64     `json:"prompt_tokens"`
	ResponseTokens  int64     `json:"response_tokens"`
	RewardSum       float64   `json:"reward_sum"`
	StartedAt       time.Time `json:"started_at"`
	UpdatedAt       time.Time `json:"updated_at"`
	Paused          bool      `json:"paused"`
	// InFlight is a running job's in-flight limits (the query's answer
	// only; a finished job's result has none).
	InFlight       *schema.InFlight `json:"in_flight,omitempty"`
	Done           bool             `json:"done"`
	ContinuedAsNew int              `json:"continued_as_new"`
	// Endpoint is set while the policy endpoint is unavailable: the job
	// starts no new batches (nor its batches new episodes), and Waiting
	// turns retry when it answers again.
	Endpoint *Outage `json:"endpoint,omitempty"`
	Faults   Faults  `json:"faults"`
	// Resumed is what an earlier run of the job committed (included in
	// BatchesDone, EpisodesDone and EpisodesFailed; Turns, Successes,
	// RewardSum and tokens count this job's own runs only).
	Resumed Resumed `json:"resumed"`
	// Online is an online job's stream: the live policy version, where
	// its consumers are, and what generation waits for.
	Online *OnlineProgress `json:"online,omitempty"`
}

// Resumed counts what an earlier run of a job committed.
type Resumed struct {
	Batches  int   `json:"batches,omitempty"`
	Episodes int64 `json:"episodes,omitempty"`
	Failed   int64 `json:"failed,omitempty"`
}

// Outage is an endpoint outage as the job sees it.
type Outage struct {
	Since time.Time `json:"since"`
	// Waiting is how many episodes have a turn waiting for the endpoint.
	Waiting int    `json:"waiting"`
	Reason  string `json:"reason,omitempty"`
}

// Faults are the job's fault counters.
type Faults struct {
	// Failed counts failed episodes by error class, sorted by class.
	Failed []ClassCount `json:"failed,omitempty"`
	// EndpointOutages counts the times the endpoint went away with the job
	// running; TurnsPaused the turns that waited for it to come back.
	EndpointOutages int64 `json:"endpoint_outages,omitempty"`
	TurnsPaused     int64 `json:"turns_paused,omitempty"`
}

// ClassCount is one error class and how many episodes failed with it.
type ClassCount struct {
	Class string `json:"class"`
	Count int64  `json:"count"`
}

// addClasses merges counts into cs, keeping cs sorted by class.
func addClasses(cs []ClassCount, counts []ClassCount) []ClassCount {
	for _, c := range counts {
		i, ok := slices.BinarySearchFunc(cs, c.Class, func(x ClassCount, class string) int { return strings.Compare(x.Class, class) })
		if ok {
			cs[i].Count += c.Count
		} else {
			cs = slices.Insert(cs, i, c)
		}
	}
	return cs
}

// MeanReward is the mean total reward of the finished episodes.
func (p Progress) MeanReward() float64 {
	if n := p.EpisodesDone - p.EpisodesFailed - (p.Resumed.Episodes - p.Resumed.Failed); n > 0 {
		return p.RewardSum / float64(n)
	}
	return 0
}

// TurnsPerSecond since the job started.
func (p Progress) TurnsPerSecond() float64 {
	if d := p.UpdatedAt.Sub(p.StartedAt).Seconds(); d > 0 {
		return float64(p.Turns) / d
	}
	return 0
}

// FailedFraction is the share of finished episodes that failed.
func (p Progress) FailedFraction() float64 {
	if p.EpisodesDone == 0 {
		return 0
	}
	return float64(p.EpisodesFailed) / float64(p.EpisodesDone)
}

// BatchResult is what a batch returns: its shard's summary and the error
// classes of its failed episodes (older batches return the summary only).
type BatchResult struct {
	activities.ShardSummary
	FailedClasses []ClassCount `json:"failed_classes,omitempty"`
	// Policy is the version an online batch was committed under.
	Policy *schema.PolicyStep `json:"policy,omitempty"`
}

// EndpointSignal is what an episode tells its job when its turn starts
// waiting for the endpoint (Down) and when it goes on.
type EndpointSignal struct {
	Episode string    `json:"episode"`
	Down    bool      `json:"down"`
	At      time.Time `json:"at"`
	Reason  string    `json:"reason,omitempty"`
}

// BatchEndpointSignal is what a job tells its batches when the endpoint
// goes away or comes back; Epoch orders them (signals may overtake).
type BatchEndpointSignal struct {
	Down  bool `json:"down"`
	Epoch int  `json:"epoch"`
}

// waitingTurn is an episode whose turn waits for the endpoint.
type waitingTurn struct {
	Episode string    `json:"episode"`
	Since   time.Time `json:"since"`
}

// outages is the job's view of the endpoint: which episodes wait, since
// when. A sorted slice, so workflow code never ranges over a map.
type outages struct {
	Waiting []waitingTurn `json:"waiting,omitempty"`
	Reason  string        `json:"reason,omitempty"`
	Epoch   int           `json:"epoch,omitempty"`
}

// apply records an episode's signal and reports whether the endpoint
// changed between down and up for the job.
func (o *outages) apply(s EndpointSignal) (changed bool) {
	was := len(o.Waiting) > 0
	i, found := slices.BinarySearchFunc(o.Waiting, s.Episode, func(w waitingTurn, id string) int { return strings.Compare(w.Episode, id) })
	switch {
	case s.Down && !found:
		o.Waiting = slices.Insert(o.Waiting, i, waitingTurn{Episode: s.Episode, Since: s.At})
		o.Reason = s.Reason
	case !s.Down && found:
		o.Waiting = slices.Delete(o.Waiting, i, i+1)
	}
	return was != (len(o.Waiting) > 0)
}

// forgetBatch drops the waiting turns of a batch that ended (its episodes
// may have been cancelled while waiting) and reports a change like apply.
func (o *outages) forgetBatch(batchID string) (changed bool) {
	was := len(o.Waiting) > 0
	o.Waiting = slices.DeleteFunc(o.Waiting, func(w waitingTurn) bool { return strings.HasPrefix(w.Episode, batchID+"/") })
	return was != (len(o.Waiting) > 0)
}

// outage is what the progress query shows, nil while the endpoint answers.
func (o *outages) outage() *Outage {
	if len(o.Waiting) == 0 {
		return nil
	}
	since := o.Waiting[0].Since
	for _, w := range o.Waiting[1:] {
		if w.Since.Before(since) {
			since = w.Since
		}
	}
	return &Outage{Since: since, Waiting: len(o.Waiting), Reason: o.Reason}
}
