package rggames

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// TsumegoOptions are reasoning-gym's TsumegoConfig. Its random stones are
// drawn until max_stones − 4 are placed, which never ends on a board too
// small to hold them; Quarry refuses more than a third of the smallest
// board, and caps max_stones at 100.
type TsumegoOptions struct {
	MinBoardSize int `json:"min_board_size" range:"5,19"`
	MaxBoardSize int `json:"max_board_size" range:"5,19"`
	MaxStones    int `json:"max_stones" range:"5,100"`
}

func (o TsumegoOptions) Validate() error {
	switch {
	case o.MinBoardSize > o.MaxBoardSize:
		return optErr("max_board_size", "%d is below min_board_size %d", o.MaxBoardSize, o.MinBoardSize)
	case o.MaxStones-4 > o.MinBoardSize*o.MinBoardSize/3:
		return optErr("max_stones", "%d is too many for a %d × %d board (at most %d)", o.MaxStones, o.MinBoardSize, o.MinBoardSize, o.MinBoardSize*o.MinBoardSize/3+4)
	}
	return nil
}

var tsumegoTemplates = [...]string{
	"Tsumego time. Black to play and capture some stones.\nFind the key move.",
	"I have a Go problem for you. Black moves next - can you capture some of the white stones?",
	"Here's a Go challenge. Playing as Black, how can you capture as many white stones as possible?",
}

// tsumegoTries is how many fresh boards are drawn, each with
// reasoning-gym's 50 placements of the formation, before one without
// random stones (where the first placement always works).
const tsumegoTries = 10

// goBoard is a square board: '.', 'X' (black) or 'O' (white).
type goBoard struct {
	n     int
	cells []byte
	ko    int // the point a ko forbids, or -1
}

func (b *goBoard) clone() *goBoard {
	return &goBoard{n: b.n, cells: append([]byte(nil), b.cells...), ko: b.ko}
}

func (b *goBoard) neighbours(p int) []int {
	r, c := p/b.n, p%b.n
	out := make([]int, 0, 4)
	for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
		if nr, nc := r+d[0], c+d[1]; nr >= 0 && nr < b.n && nc >= 0 && nc < b.n {
			out = append(out, nr*b.n+nc)
		}
	}
	return out
}

// group returns the stones connected to p and their liberties.
func (b *goBoard) group(p int) (stones []int, liberties int) {
	colour := b.cells[p]
	seen := map[int]bool{p: true}
	libs := map[int]bool{}
	stones = []int{p}
	for i := 0; i < len(stones); i++ {
		for _, q := range b.neighbours(stones[i]) {
			switch {
			case b.cells[q] == '.':
				libs[q] = true
			case b.cells[q] == colour && !seen[q]:
				seen[q] = true
				stones = append(stones, q)
			}
		}
	}
	return stones, len(libs)
}

// play puts colour at p and removes the opponent's groups left without a
// liberty, returning the stones captured; ok is false for an illegal move
// (occupied, the ko point, or suicide without a capture), which leaves the
// board as it was.
func (b *goBoard) play(p int, colour byte) (captured int, ok bool) {
	if p < 0 || p >= len(b.cells) || b.cells[p] != '.' || p == b.ko {
		return 0, false
	}
	opp := byte('O')
	if colour == 'O' {
		opp = 'X'
	}
	b.cells[p] = colour
	var dead []int
	for _, q := range b.neighbours(p) {
		if b.cells[q] != opp {
			continue
		}
		if stones, libs := b.group(q); libs == 0 {
			for _, s := range stones {
				if b.cells[s] == opp {
					dead = append(dead, s)
					b.cells[s] = '-' // marked, so a group is counted once
				}
			}
		}
	}
	if len(dead) == 0 {
		if _, libs := b.group(p); libs == 0 {
			b.cells[p] = '.'
			return 0, false
		}
	}
	own, _ := b.group(p)
	b.ko = -1
	if len(dead) == 1 && len(own) == 1 {
		b.ko = dead[0]
	}
	for _, s := range dead {
		b.cells[s] = '.'
	}
	return len(dead), true
}

// captures is how many stones Black's move at p takes (ok false if it is
// illegal), on a copy.
func (b *goBoard) captures(p int) (int, bool) {
	c := b.clone()
	c.ko = -1
	return c.play(p, 'X')
}

// String is reasoning-gym's _board_to_string.
func (b *goBoard) String() string {
	var s strings.Builder
	s.WriteString("  ")
	for c := range b.n {
		s.WriteByte(' ')
		s.WriteByte(byte('A' + c))
	}
	for r := range b.n {
		fmt.Fprintf(&s, "\n%2d", b.n-r)
		for c := range b.n {
			s.WriteByte(' ')
			s.WriteByte(b.cells[r*b.n+c])
		}
	}
	return s.String()
}

func (b *goBoard) coord(p int) string {
	return fmt.Sprintf("%c%d", 'A'+p%b.n, b.n-p/b.n)
}

var (
	goCoord = regexp.MustCompile(`^([A-Z])\s*(\d+)$`)
	// goPoint is reasoning-gym's test for a letter-number answer.
	goPoint = regexp.MustCompile(`^[A-Z]\d+$`)
)

// point reads a coordinate such as "C4" (any case, spaces between).
func (b *goBoard) point(s string) (int, bool) {
	m := goCoord.FindStringSubmatch(strings.ToUpper(strings.TrimSpace(s)))
	if m == nil {
		return 0, false
	}
	c := int(m[1][0] - 'A')
	row, err := strconv.Atoi(m[2])
	if err != nil || c >= b.n || row < 1 || row > b.n {
		return 0, false
	}
	return (b.n-row)*b.n + c, true
}

type tsumegoItem struct {
	board *goBoard
	take  int // stones the key move captures
}

type formation struct {
	white       [][2]int
	forced      [2]int
	neighbourly [][2]int
}

// formations are reasoning-gym's plus, L and T, in its order.
var formations = [...]formation{
	{[][2]int{{0, 0}, {-1, 0}, {1, 0}, {0, -1}}, [2]int{0, 1}, [][2]int{{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}}},
	{[][2]int{{0, 0}, {0, 1}, {1, 0}}, [2]int{1, 1}, [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}}},
	{[][2]int{{0, -1}, {0, 0}, {0, 1}, {1, 0}}, [2]int{-1, 0}, [][2]int{{0, -1}, {0, 0}, {0, 1}, {1, 0}, {-1, 0}}},
}

func registerTsumego(r *envs.Registry) error {
	return rg.Register(r, rg.Task[TsumegoOptions]{
		Name:        "tsumego",
		Description: "reasoning-gym tsumego: Black's one move that captures a surrounded white group; any move capturing as many stones scores 1.",
		Revision:    1,
		Defaults:    TsumegoOptions{MinBoardSize: 9, MaxBoardSize: 13, MaxStones: 15},
		Generate:    generateTsumego,
		Score:       scoreTsumego,
		Guess: func(rng *rand.Rand, it *rg.Item) string {
			b := it.Data.(*tsumegoItem).board
			return b.coord(rng.IntN(len(b.cells)))
		},
		Retry: true,
		Feedback: func(answer string, it *rg.Item, _ float64) string {
			t := it.Data.(*tsumegoItem)
			p, ok := t.board.point(answer)
			if !ok {
				return "Your answer is not a point such as 'C4' on this board."
			}
			n, legal := t.board.captures(p)
			switch {
			case !legal:
				return "That move is not legal for Black."
			case n == 0:
				return "That move captures no stones."
			}
			return fmt.Sprintf("That move captures %d stones; another captures more.", n)
		},
	})
}

// scoreTsumego: a legal Black move capturing at least as many stones as
// the key move scores 1 (reasoning-gym accepts only the key move), as does
// the key move however it is cased or spaced; otherwise reasoning-gym's
// score_answer: len(key)/len(answer) when the answer contains the key, 0.05
// for another point, 0.01 for anything else, 0 for nothing.
func scoreTsumego(answer string, it *rg.Item) float64 {
	t := it.Data.(*tsumegoItem)
	if p, ok := t.board.point(answer); ok {
		if n, legal := t.board.captures(p); legal && n >= t.take {
			return 1
		}
	}
	a := strings.ToUpper(strings.TrimSpace(answer))
	switch {
	case a == "":
		return 0
	case a == it.Answer:
		return 1
	case strings.Contains(a, it.Answer):
		return float64(len(it.Answer)) / float64(len(a))
	case goPoint.MatchString(a):
		return 0.05
	}
	return 0.01
}

func generateTsumego(rng *rand.Rand, o TsumegoOptions) (rg.Item, error) {
	size := rg.Between(rng, o.MinBoardSize, o.MaxBoardSize)
	var b *goBoard
	forced, take := -1, 0
	for try := 0; forced < 0; try++ {
		stones := o.MaxStones - 4
		if try == tsumegoTries {
			stones = 0
		}
		if try > tsumegoTries {
			return rg.Item{}, fmt.Errorf("tsumego: no capture problem on a %d board", size)
		}
		b = &goBoard{n: size, cells: []byte(strings.Repeat(".", size*size)), ko: -1}
		for placed, draws := 0, 0; placed < stones && draws < 100*o.MaxStones; draws++ {
			p := rng.IntN(size)*size + rng.IntN(size)
			colour := byte('O')
			if rng.Float64() < 0.5 {
				colour = 'X'
			}
			if _, ok := b.play(p, colour); ok {
				placed++
			}
		}
		forced, take = placeFormation(rng, b, o.MaxStones)
	}
	b.ko = -1
	q := tsumegoTemplates[rng.IntN(len(tsumegoTemplates))] + "\n\n```\n" + b.String() + "\n```\n\n" +
		"X - Black\nO - White\n\nSpecify your move in coordinates (e.g. 'C4' for column C, row 4)"
	rows := make([][]string, size)
	for r := range rows {
		rows[r] = strings.Split(string(b.cells[r*size:(r+1)*size]), "")
	}
	return rg.Item{
		Question: q,
		Answer:   b.coord(forced),
		Data:     &tsumegoItem{board: b, take: take},
		Meta:     map[string]any{"board": rows, "board_size": size},
	}, nil
}

// placeFormation is reasoning-gym's capture set-up: up to 50 times, a
// white formation on empty points, Black on every liberty but one, and a
// decoy stone two steps away; the one liberty is the key move. Quarry also
// requires that the key move captures (a white stone already on the board
// may join the formation and give it liberties reasoning-gym does not fill).
// It returns the key move (-1 if none) and the stones it captures.
func placeFormation(rng *rand.Rand, b *goBoard, maxStones int) (int, int) {
	n := b.n
	at := func(r, c int) int { return r*n + c }
	for range 50 {
		row, col := rg.Between(rng, 1, n-2), rg.Between(rng, 1, n-2)
		f := formations[rng.IntN(len(formations))]
		free := true
		for _, d := range f.neighbourly {
			free = free && b.cells[at(row+d[0], col+d[1])] == '.'
		}
		if !free {
			continue
		}
		for _, d := range f.white {
			b.cells[at(row+d[0], col+d[1])] = 'O'
		}
		forced := at(row+f.forced[0], col+f.forced[1])
		for _, d := range f.white {
			for _, q := range b.neighbours(at(row+d[0], col+d[1])) {
				if q != forced && b.cells[q] == '.' {
					b.cells[q] = 'X'
				}
			}
		}
		if strings.Count(string(b.cells), ".") > len(b.cells)-(maxStones+7) {
			var decoys []int
			for i := row - 2; i <= row+2; i++ {
				for j := col - 2; j <= col+2; j++ {
					if abs(i-row)+abs(j-col) == 2 && i >= 0 && i < n && j >= 0 && j < n && b.cells[at(i, j)] == '.' && at(i, j) != forced {
						decoys = append(decoys, at(i, j))
					}
				}
			}
			if len(decoys) > 0 {
				d := decoys[rng.IntN(len(decoys))]
				b.cells[d] = 'O'
				if rng.Float64() < 0.5 {
					b.cells[d] = 'X'
				}
			}
		}
		if take, ok := b.captures(forced); ok && take > 0 {
			return forced, take
		}
	}
	return -1, 0
}
