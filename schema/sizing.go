package schema

import "fmt"

// Sizing: how many episodes a job plays at once. Three limits apply, and
// the lowest wins (docs/operations.md, "Sizing"):
//
//   - the job's: in_flight.batches batches at once, each with at most
//     in_flight.episodes episodes at once (EpisodeCap);
//   - the workers': each worker sends at most policy.openai.concurrency
//     requests at once, so W workers send W × concurrency;
//   - the endpoints': each replica serves some number of sequences at once
//     (vLLM's --max-num-seqs); more requests only queue there.
//
// policy.openai.endpoint_concurrency states the last one. With it, the
// unset in_flight and concurrency fields are sized from it, and explicit
// in_flight limits below it are refused, so the job cap never silently
// caps what the endpoints could serve. Without it, the defaults stay
// (DefaultBatchesInFlight × DefaultEpisodesInFlight episodes,
// DefaultConcurrency requests per worker), whatever the number of workers.

// EpisodeCap is how many episodes the job plays at once under f: f.Batches
// batches, each with min(f.Episodes, batch_size) episodes, and never more
// than the job has.
func (s JobSpec) EpisodeCap(f InFlight) int {
	batches := min(f.Batches, max(1, s.Batches()))
	return min(batches*min(f.Episodes, s.BatchSize), s.Episodes())
}

// EndpointCapacity is the number of requests the endpoints serve at once:
// endpoints × endpoint_concurrency, 0 when endpoint_concurrency is unset.
func (o *OpenAIPolicy) EndpointCapacity() int {
	if o == nil || o.EndpointConcurrency <= 0 {
		return 0
	}
	return len(o.Endpoints) * o.EndpointConcurrency
}

// sizeInFlight sets the unset in_flight fields so the job keeps target
// episodes in flight: a batch's worth up to target, and enough batches for
// target plus one, which starts while another drains its last episodes.
func (s *JobSpec) sizeInFlight(target int) {
	episodes := max(1, min(target, s.BatchSize, MaxEpisodesInFlight))
	if s.InFlight.Episodes == 0 {
		s.InFlight.Episodes = episodes
	}
	if s.InFlight.Batches == 0 {
		per := max(1, min(s.InFlight.Episodes, s.BatchSize))
		s.InFlight.Batches = min((target+per-1)/per+1, MaxBatchesInFlight)
	}
}

// validateSizing refuses an endpoint_concurrency out of bounds, and
// in_flight limits that keep the endpoints below what they serve.
func (s JobSpec) validateSizing(add func(path, format string, args ...any)) {
	o := s.Policy.OpenAI
	if o == nil {
		return
	}
	if o.EndpointConcurrency < 0 || o.EndpointConcurrency > MaxConcurrency {
		add("policy.openai.endpoint_concurrency", "%d: want 1 to %d (the sequences one endpoint replica serves at once, e.g. vLLM's --max-num-seqs), or unset", o.EndpointConcurrency, MaxConcurrency)
		return
	}
	target := o.EndpointCapacity()
	if target == 0 || s.InFlight.Batches < 1 || s.InFlight.Episodes < 1 || s.BatchSize < 1 {
		return
	}
	if got, want := s.EpisodeCap(s.InFlight), min(target, s.Episodes()); got < want {
		sized := s
		sized.InFlight = InFlight{}
		sized.sizeInFlight(target)
		add("in_flight", "batches %d × episodes %d (batch_size %d) = %d episodes at once, below the %d the endpoints serve (%d endpoints × endpoint_concurrency %d): set in_flight.batches: %d and in_flight.episodes: %d, or leave in_flight unset to size it from endpoint_concurrency",
			s.InFlight.Batches, s.InFlight.Episodes, s.BatchSize, got, want, len(o.Endpoints), o.EndpointConcurrency, sized.InFlight.Batches, sized.InFlight.Episodes)
	}
}

// SizingNote says in one line what caps the job's parallelism with workers
// workers polling (0: unknown), for `submit` and `submit status`.
func (s JobSpec) SizingNote(f InFlight, workers int) string {
	limit := s.EpisodeCap(f)
	note := fmt.Sprintf("at most %d episodes at once (in_flight: %d batches × %d episodes)", limit, f.Batches, min(f.Episodes, s.BatchSize))
	o := s.Policy.OpenAI
	if o == nil {
		return note
	}
	if workers > 0 {
		note += fmt.Sprintf("; %d worker(s) × concurrency %d = %d requests at once", workers, o.Concurrency, workers*o.Concurrency)
		if workers*o.Concurrency < limit {
			note += fmt.Sprintf(" caps it: run %d workers or raise policy.openai.concurrency to %d", (limit+o.Concurrency-1)/o.Concurrency, (limit+workers-1)/workers)
		}
	} else {
		note += fmt.Sprintf("; each worker sends at most %d requests (policy.openai.concurrency)", o.Concurrency)
	}
	if t := o.EndpointCapacity(); t > 0 {
		note += fmt.Sprintf("; the endpoints serve %d (%d × endpoint_concurrency %d)", t, len(o.Endpoints), o.EndpointConcurrency)
	} else {
		note += "; set policy.openai.endpoint_concurrency to size in_flight from the endpoints"
	}
	return note
}
