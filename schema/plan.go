package schema

import "math"

// The job plan: which task and sample every episode of every batch plays,
// and with which seeds. Pure functions of the spec, so any worker, any rerun
// and the shard writer agree on them without asking anyone.
//
// Episodes are numbered job-wide in task-major order: episode k plays task
// k / samples_per_task, sample k % samples_per_task. Batch b holds episodes
// [b·batch_size, (b+1)·batch_size), so the samples of a task (a group) are
// always in one batch.

// mix is SplitMix64's finaliser: a bijection that spreads nearby inputs.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// TaskSeed is the seed of task i of a job: the env's Reset seed, shared by
// every sample of the task (the group sees one task).
func TaskSeed(jobSeed uint64, task int64) uint64 {
	return mix(mix(jobSeed) ^ uint64(task))
}

// SampleSeed is the seed of one sample of a task: it seeds the policy's
// randomness (the random policy, a per-sample request seed), never the task.
func SampleSeed(taskSeed uint64, sample int) uint64 {
	return mix(taskSeed ^ mix(uint64(sample)+1))
}

// EnvIndex picks task's env from the weighted mixture: the same on every
// worker and rerun.
func (s JobSpec) EnvIndex(task int64) int {
	if len(s.Envs) <= 1 {
		return 0
	}
	var total float64
	for _, e := range s.Envs {
		total += e.weight()
	}
	// A uniform draw in [0,1) from the task's own hash stream.
	u := float64(mix(mix(s.Seed^0x656e76)^uint64(task))>>11) / (1 << 53)
	x := u * total
	last := 0
	for i, e := range s.Envs {
		w := e.weight()
		if w > 0 {
			last = i
		}
		if x < w {
			return i
		}
		x -= w
	}
	return last // rounding at the top end
}

// Slot is one episode of the plan.
type Slot struct {
	Batch   int   `json:"batch"`
	Episode int   `json:"episode"` // index within the batch
	Group   int   `json:"group"`   // group index within the batch
	Sample  int   `json:"sample"`  // sample index within the group
	Task    int64 `json:"task"`    // job-wide task index
	Env     int   `json:"env"`     // index into spec.Envs
	// TaskSeed is the env's Reset seed; SampleSeed seeds the policy.
	TaskSeed   uint64 `json:"task_seed"`
	SampleSeed uint64 `json:"sample_seed"`
}

// BatchSlots lists the episodes of batch b (a defaulted spec); the last
// batch may be short. Out-of-range batches have no slots.
func (s JobSpec) BatchSlots(b int) []Slot {
	if s.Online != nil {
		return s.onlineSlots(b)
	}
	n := s.Episodes()
	first := b * s.BatchSize
	if b < 0 || s.BatchSize <= 0 || s.SamplesPerTask <= 0 || first >= n {
		return nil
	}
	last := min(first+s.BatchSize, n)
	slots := make([]Slot, 0, last-first)
	for k := first; k < last; k++ {
		task := int64(k / s.SamplesPerTask)
		sample := k % s.SamplesPerTask
		ts := TaskSeed(s.Seed, task)
		slots = append(slots, Slot{
			Batch:      b,
			Episode:    k - first,
			Group:      (k - first) / s.SamplesPerTask,
			Sample:     sample,
			Task:       task,
			Env:        s.EnvIndex(task),
			TaskSeed:   ts,
			SampleSeed: SampleSeed(ts, sample),
		})
	}
	return slots
}

// SeedColumn stores a uint64 seed in an int64 column bit for bit; readers
// that want the unsigned value reinterpret it (numpy: .view("uint64")).
func SeedColumn(seed uint64) int64 {
	if seed > math.MaxInt64 {
		return int64(seed-math.MaxInt64-1) + math.MinInt64
	}
	return int64(seed)
}
