package game2048

import (
	"math"

	"github.com/quarry-rl/quarry/envs/games"
)

// OracleAction searches two plies of expectimax (move, spawn, move) and
// scores the leaves with a heuristic that favours concentrating value in few
// large tiles held in a corner: the target must be built fast, not survived
// towards.
func (e *Env) OracleAction() (string, error) {
	best, bestV := -1, math.Inf(-1)
	for d := range 4 {
		next, ok := e.b.slide(d)
		if !ok {
			continue
		}
		if v := expectSpawn(&next, 1); v > bestV {
			best, bestV = d, v
		}
	}
	if best < 0 { // no move changes the board; the game is already over
		best = 0
	}
	return games.BoxedDirection(best), nil
}

// expectSpawn averages over the tile that spawns on b, then lets the player
// choose (depth more moves).
func expectSpawn(b *board, depth int) float64 {
	var sum, weight float64
	for i := range b.n * b.n {
		if b.c[i] != 0 {
			continue
		}
		for _, s := range [2]struct {
			v uint8
			p float64
		}{{1, 0.9}, {2, 0.1}} {
			b.c[i] = s.v
			sum += s.p * choose(b, depth)
			weight += s.p
		}
		b.c[i] = 0
	}
	if weight == 0 {
		return eval(b)
	}
	return sum / weight
}

func choose(b *board, depth int) float64 {
	if depth == 0 {
		return eval(b)
	}
	best := math.Inf(-1)
	for d := range 4 {
		next, ok := b.slide(d)
		if !ok {
			continue
		}
		v := eval(&next)
		if depth > 1 {
			v = expectSpawn(&next, depth-1)
		}
		best = max(best, v)
	}
	if math.IsInf(best, -1) {
		return -1e9 // a dead board
	}
	return best
}

// eval scores a board: the sum of squared tile values rewards merging into
// large tiles; empty cells keep the board alive; monotone rows and columns
// keep the large tiles mergeable.
func eval(b *board) float64 {
	n := b.n
	var sq, empty float64
	for i := range n * n {
		v := b.c[i]
		if v == 0 {
			empty++
			continue
		}
		t := float64(int(1) << v)
		sq += t * t
	}
	var mono float64
	for l := range n {
		var incR, decR, incC, decC float64
		for k := 0; k+1 < n; k++ {
			a, c := float64(b.c[l*n+k]), float64(b.c[l*n+k+1])
			if a > c {
				decR += a - c
			} else {
				incR += c - a
			}
			a, c = float64(b.c[k*n+l]), float64(b.c[(k+1)*n+l])
			if a > c {
				decC += a - c
			} else {
				incC += c - a
			}
		}
		mono += min(incR, decR) + min(incC, decC)
	}
	return sq + 40*empty - 30*mono
}
