package sokoban

import "math/bits"

// solve returns a shortest move sequence (in moves, walking included) from
// start to a solved room, of at most bound moves. It is A* over (player,
// boxes) with the cheapest assignment of boxes to targets by push distance
// as heuristic: admissible, since every push moves one box one cell, and
// consistent, since a move changes it by at most one. ok is false when no
// solution fits the bound or budget states were stored first.
func solve(lv *level, start state, bound, budget int) (plan []int8, ok bool) {
	if lv.solved(start) {
		return nil, true
	}
	h0 := heuristic(lv, start.boxes)
	if h0 > bound {
		return nil, false
	}
	type node struct {
		st     state
		parent int32
		dir    int8
		g, h   int16
	}
	nodes := []node{{st: start, parent: -1, dir: -1, h: int16(h0)}}
	best := map[state]int16{start: 0}
	buckets := make([][]int32, bound+1) // by f = g + h; LIFO within a bucket
	buckets[h0] = append(buckets[h0], 0)
	for f := h0; f <= bound; f++ {
		for len(buckets[f]) > 0 {
			i := buckets[f][len(buckets[f])-1]
			buckets[f] = buckets[f][:len(buckets[f])-1]
			n := nodes[i]
			if best[n.st] < n.g { // reached more cheaply since it was queued
				continue
			}
			for d := range 4 {
				next, pushed, legal := lv.move(n.st, d)
				if !legal {
					continue
				}
				g, h := n.g+1, n.h
				if pushed {
					h = int16(heuristic(lv, next.boxes))
				}
				if int(g)+int(h) > bound { // also drops dead boxes (h = noPath·boxes)
					continue
				}
				if old, seen := best[next]; seen && old <= g {
					continue
				}
				if len(nodes) >= budget {
					return nil, false
				}
				best[next] = g
				nodes = append(nodes, node{st: next, parent: i, dir: int8(d), g: g, h: h})
				if pushed && lv.solved(next) {
					// With a consistent heuristic no cheaper solution remains.
					for j := int32(len(nodes) - 1); nodes[j].parent >= 0; j = nodes[j].parent {
						plan = append(plan, nodes[j].dir)
					}
					for a, b := 0, len(plan)-1; a < b; a, b = a+1, b-1 {
						plan[a], plan[b] = plan[b], plan[a]
					}
					return plan, true
				}
				buckets[int(g)+int(h)] = append(buckets[int(g)+int(h)], int32(len(nodes)-1))
			}
		}
	}
	return nil, false
}

// heuristic is the cheapest assignment of boxes to targets by push distance,
// by dynamic programming over subsets of targets. A box that reaches no
// target makes it at least noPath.
func heuristic(lv *level, boxes bitset) int {
	var cells [maxBoxes]int
	k := 0
	for w, word := range boxes {
		for word != 0 {
			cells[k] = w*64 + bits.TrailingZeros64(word)
			k++
			word &= word - 1
		}
	}
	var dp [1 << maxBoxes]int
	full := 1<<k - 1
	for m := 1; m <= full; m++ {
		dp[m] = 1 << 20
	}
	dp[0] = 0
	for m := 0; m < full; m++ {
		if dp[m] >= 1<<20 {
			continue
		}
		b := cells[bits.OnesCount(uint(m))] // the next box to assign
		for t := range k {
			if m&(1<<t) != 0 {
				continue
			}
			d := int(lv.pushDist[t][b])
			if d == noPath {
				continue
			}
			dp[m|1<<t] = min(dp[m|1<<t], dp[m]+d)
		}
	}
	if dp[full] >= 1<<20 {
		return noPath * k
	}
	return dp[full]
}
