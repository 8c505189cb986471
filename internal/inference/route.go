package inference

import (
	"hash/fnv"
	"math"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Routing is rendezvous (highest-random-weight) hashing with bounded loads
// (Mirrokni, Thorup, Zadimoghaddam, "Consistent Hashing with Bounded
// Loads", 2018). Every endpoint gets a score for the affinity key; the key
// goes to the highest-scoring endpoint whose in-flight load is below
// ⌈(1+ε)·(L+1)/n⌉, where L is the pool's total in-flight load. So the
// turns of an episode, and the samples of a group, land on the replica that
// already holds their prompt prefix in its cache, unless that replica is
// more than ε above the average; then the key spills to its next choice,
// which is the same for every worker. Scores hash the key and the endpoint
// URL only, so every worker process routes a key alike, and adding or
// removing a replica moves only the keys that scored it highest.

type endpoint struct {
	url    string
	index  int
	seed   uint64
	client *openai.Client

	// Guarded by router.mu.
	load      int
	downUntil time.Time
}

type router struct {
	eps     []*endpoint
	epsilon float64

	mu    sync.Mutex
	total int
	next  int // round-robin start for keyless requests
}

func fnv64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// mix is SplitMix64's finalizer: FNV's low bits alone spread poorly.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

func score(key uint64, ep *endpoint) uint64 { return mix(key ^ ep.seed) }

// rank returns the endpoints ordered by their score for key, best first.
func (r *router) rank(key string, buf []*endpoint) []*endpoint {
	h := fnv64(key)
	out := append(buf[:0], r.eps...)
	// Insertion sort: a pool has a handful of replicas.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && score(h, out[j]) > score(h, out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// pick chooses the endpoint for key, skipping endpoints in avoid (they
// failed earlier in this call) and endpoints marked unreachable, unless
// nothing else is left, and counts the request in flight there. Every pick
// must be followed by one release.
func (r *router) pick(key string, avoid uint64, now time.Time) *endpoint {
	var buf [16]*endpoint
	var order []*endpoint
	if key != "" {
		order = r.rank(key, buf[:0])
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	usable := func(ep *endpoint) bool {
		return avoid&bit(ep.index) == 0 && !now.Before(ep.downUntil)
	}
	n := 0
	for _, ep := range r.eps {
		if usable(ep) {
			n++
		}
	}
	if n == 0 { // everything failed or is down: try them all again
		usable = func(*endpoint) bool { return true }
		n = len(r.eps)
	}
	var chosen *endpoint
	if key == "" {
		// No affinity: the least loaded, ties taken in turn.
		for i := range r.eps {
			ep := r.eps[(r.next+i)%len(r.eps)]
			if usable(ep) && (chosen == nil || ep.load < chosen.load) {
				chosen = ep
			}
		}
		r.next++
	} else {
		capacity := int(math.Ceil((1 + r.epsilon) * float64(r.total+1) / float64(n)))
		for _, ep := range order {
			if usable(ep) && ep.load < capacity {
				chosen = ep
				break
			}
		}
		if chosen == nil { // only when unusable endpoints carry load: the least loaded
			for _, ep := range order {
				if usable(ep) && (chosen == nil || ep.load < chosen.load) {
					chosen = ep
				}
			}
		}
	}
	chosen.load++
	r.total++
	return chosen
}

func (r *router) release(ep *endpoint) {
	r.mu.Lock()
	ep.load--
	r.total--
	r.mu.Unlock()
}

// markDown keeps ep out of routing until now+d (while other endpoints are
// usable); markUp clears that after a success.
func (r *router) markDown(ep *endpoint, until time.Time) {
	r.mu.Lock()
	ep.downUntil = until
	r.mu.Unlock()
}

func (r *router) markUp(ep *endpoint) {
	r.mu.Lock()
	ep.downUntil = time.Time{}
	r.mu.Unlock()
}

// bit is ep's flag in an avoid set; endpoints beyond the 64th are never
// avoided (they are still retried, just not steered away from).
func bit(i int) uint64 {
	if i >= 64 {
		return 0
	}
	return 1 << i
}
