package dataset

import "math/bits"

// Index maps task number task to a row of a dataset of n rows, in a seeded
// order that covers every row once per epoch: epoch e = task / n holds tasks
// e·n … e·n+n-1, and task maps to perm_{seed,e}(task mod n), where each
// perm_{seed,e} is a bijection on [0, n). So tasks 0..n-1 visit every row once,
// the next n visit every row again in a new order, and so on.
//
// Index is a pure function: the same on every machine, process and call, with
// O(1) memory and no per-call permutation. perm_{seed,e} is a six-round
// keyed Feistel network over the smallest even power of two ≥ n (at least
// 4), made a bijection on [0, n) by cycle walking: re-encrypting until the
// value falls below n (the domain is under 4n, so fewer than four passes are
// expected). The round keys are derived from (seed, epoch) with SplitMix64.
// The output for given inputs is part of the data contract — golden values in
// the tests freeze it — because an env version promises its task order.
//
// Index panics when n < 1 or task < 0: both are programming errors.
func Index(seed uint64, n int, task int) int {
	if n < 1 {
		panic("dataset.Index: n must be at least 1")
	}
	if task < 0 {
		panic("dataset.Index: task must not be negative")
	}
	if n == 1 {
		return 0
	}
	epoch := uint64(task / n)
	i := uint64(task % n)
	p := newFeistel(seed, epoch, uint64(n))
	x := p.encrypt(i)
	for x >= uint64(n) {
		x = p.encrypt(x)
	}
	return int(x)
}

// feistelRounds is enough for a well-mixed order; the permutation is a
// shuffle, not a cipher.
const feistelRounds = 6

type feistel struct {
	half uint   // bits in each half
	mask uint64 // (1<<half)-1
	keys [feistelRounds]uint64
}

func newFeistel(seed, epoch, n uint64) feistel {
	w := uint(bits.Len64(n - 1)) // domain 2^w ≥ n
	if w%2 == 1 {
		w++
	}
	if w < 2 {
		w = 2
	}
	f := feistel{half: w / 2, mask: 1<<(w/2) - 1}
	s := splitmix(seed ^ 0x51_7c_c1_b7_27_22_0a_95)
	s = splitmix(s ^ epoch)
	for r := range f.keys {
		s = splitmix(s + uint64(r))
		f.keys[r] = s
	}
	return f
}

// encrypt permutes [0, 2^(2·half)).
func (f feistel) encrypt(x uint64) uint64 {
	l, r := x>>f.half, x&f.mask
	for _, k := range f.keys {
		l, r = r, l^(splitmix(r^k)&f.mask)
	}
	return l<<f.half | r
}

// splitmix is SplitMix64's finaliser: a fast, well-mixed 64-bit hash.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
