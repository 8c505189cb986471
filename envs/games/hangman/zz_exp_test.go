package hangman

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/games/words"
)

type dpKey struct {
	set string
	t   int
}

// best win probability*|S| (count of secrets won) with t turns, fair play.
func dpWins(S []string, t int, memo map[dpKey]int) int {
	n := len(S)
	if t == 0 || n == 0 {
		return 0
	}
	if n == 1 {
		return 1
	}
	if t == 1 {
		return 1
	}
	k := dpKey{strings.Join(S, ","), t}
	if v, ok := memo[k]; ok {
		return v
	}
	// word guess: 1 + wins(S minus w, t-1); best w? all symmetric-ish: try first few
	best := 0
	for i := range S {
		rest := append(append([]string{}, S[:i]...), S[i+1:]...)
		v := 1 + dpWins(rest, t-1, memo)
		if v > best {
			best = v
		}
		if i > 3 {
			break
		}
	}
	for l := byte('a'); l <= 'z'; l++ {
		parts := map[string][]string{}
		for _, w := range S {
			p := []byte(w)
			for i := range p {
				if p[i] != l {
					p[i] = '.'
				}
			}
			parts[string(p)] = append(parts[string(p)], w)
		}
		if len(parts) == 1 {
			continue
		}
		v := 0
		for _, P := range parts {
			v += dpWins(P, t-1, memo)
		}
		if v > best {
			best = v
		}
	}
	memo[k] = best
	return best
}

func TestExpDP(t *testing.T) {
	S := words.Words(3)
	memo := map[dpKey]int{}
	t.Log(dpWins(S, 10, memo), len(S))
}
