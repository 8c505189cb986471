package rggames

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// rushData is reasoning-gym's reasoning_gym/data/rush_18k.txt, unchanged
// (docs/envs.md ("The reasoning-gym catalogue"), "Data"): one puzzle a line, its fewest moves,
// its 36-cell board (o empty, x wall, a letter per vehicle) and the size
// of its state cluster.
//
//go:embed data/rush_18k.txt
var rushData []byte

type rushPuzzle struct {
	board string
	moves int
}

// rushPuzzles parses the data once, in the file's order (fewest moves
// ascending).
var rushPuzzles = sync.OnceValue(func() []rushPuzzle {
	var out []rushPuzzle
	for _, l := range strings.Split(string(rushData), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		n, err := strconv.Atoi(f[0])
		if err != nil || len(f[1]) != rushCells {
			panic(fmt.Sprintf("rush_18k.txt: bad line %q", l))
		}
		out = append(out, rushPuzzle{board: f[1], moves: n})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].moves < out[j].moves })
	return out
})

// rushRange is the slice of puzzles with fewest moves in [lo, hi].
func rushRange(lo, hi int) []rushPuzzle {
	ps := rushPuzzles()
	i := sort.Search(len(ps), func(k int) bool { return ps[k].moves >= lo })
	j := sort.Search(len(ps), func(k int) bool { return ps[k].moves > hi })
	return ps[i:j]
}

// RushHourOptions are reasoning-gym's RushHourConfig. The data's hardest
// puzzle takes 60 moves.
type RushHourOptions struct {
	MinMoves int `json:"min_moves" range:"1,60"`
	MaxMoves int `json:"max_moves" range:"1,100"`
}

func (o RushHourOptions) Validate() error {
	switch {
	case o.MinMoves > o.MaxMoves:
		return optErr("max_moves", "%d is below min_moves %d", o.MaxMoves, o.MinMoves)
	case len(rushRange(o.MinMoves, o.MaxMoves)) == 0:
		return optErr("min_moves", "no puzzle takes %d to %d moves (the data has 1 to 55, 58 and 60)", o.MinMoves, o.MaxMoves)
	}
	return nil
}

const (
	rushSize   = 6
	rushCells  = rushSize * rushSize
	rushTarget = 2*rushSize + rushSize - 2 // the red car's cell when it exits
)

const rushInstructions = "Move the red car (AA) to the exit on the right.\n" +
	"Specify moves in the format: 'F+1 K+1 M-1 C+3 H+2 ...'\n" +
	"where the letter is the vehicle and +/- number is spaces to move right/left or down/up.\n" +
	"Walls are marked with an 'x'. Cars cannot move through walls, and walls cannot be moved.\n" +
	"A car oriented vertically can only move up and down, a car oriented horizontally can only move left and right."

// rushPiece is a vehicle (size 2 or 3) or a wall (size 1).
type rushPiece struct {
	pos, size, stride int
}

// rushBoard is reasoning-gym's Board: vehicles in label order, then walls.
type rushBoard struct {
	pieces []rushPiece
	cars   int // pieces before the walls
}

func parseRush(desc string) (*rushBoard, error) {
	if len(desc) != rushCells {
		return nil, fmt.Errorf("board %q is not %d cells", desc, rushCells)
	}
	cells := map[byte][]int{}
	var walls []int
	for i := range rushCells {
		switch c := desc[i]; c {
		case 'o', '.':
		case 'x':
			walls = append(walls, i)
		default:
			cells[c] = append(cells[c], i)
		}
	}
	labels := make([]byte, 0, len(cells))
	for c := range cells {
		labels = append(labels, c)
	}
	slices.Sort(labels)
	b := &rushBoard{}
	for _, c := range labels {
		ps := cells[c]
		if len(ps) < 2 || len(ps) > 3 {
			return nil, fmt.Errorf("board %q: vehicle %c has %d cells", desc, c, len(ps))
		}
		stride := ps[1] - ps[0]
		for k := 2; k < len(ps); k++ {
			if ps[k]-ps[k-1] != stride {
				stride = 0
			}
		}
		if stride != 1 && stride != rushSize {
			return nil, fmt.Errorf("board %q: vehicle %c is not a line", desc, c)
		}
		b.pieces = append(b.pieces, rushPiece{pos: ps[0], size: len(ps), stride: stride})
	}
	b.cars = len(b.pieces)
	for _, w := range walls {
		b.pieces = append(b.pieces, rushPiece{pos: w, size: 1, stride: 1})
	}
	return b, nil
}

func (b *rushBoard) clone() *rushBoard {
	return &rushBoard{pieces: slices.Clone(b.pieces), cars: b.cars}
}

func (b *rushBoard) occupied() [rushCells]bool {
	var occ [rushCells]bool
	for _, p := range b.pieces {
		for k := range p.size {
			occ[p.pos+k*p.stride] = true
		}
	}
	return occ
}

// slide moves vehicle i up to |steps| cells, stopping at the first
// vehicle, wall or edge in the way, as reasoning-gym's Board.move does.
func (b *rushBoard) slide(i, steps int) {
	if i < 0 || i >= b.cars || steps == 0 {
		return
	}
	occ := b.occupied()
	p := &b.pieces[i]
	dir := 1
	if steps < 0 {
		dir, steps = -1, -steps
	}
	for range min(steps, rushSize) {
		var next int // the cell the vehicle moves into
		if dir > 0 {
			next = p.pos + p.size*p.stride
		} else {
			next = p.pos - p.stride
		}
		if next < 0 || next >= rushCells || occ[next] ||
			(p.stride == 1 && next/rushSize != p.pos/rushSize) {
			return
		}
		p.pos += dir * p.stride
	}
}

func (b *rushBoard) solved() bool { return b.pieces[0].pos == rushTarget }

// String is reasoning-gym's board_str: six rows of six cells and a newline
// each, vehicles relabelled A, B, … in label order.
func (b *rushBoard) String() string {
	s := []byte(strings.Repeat(strings.Repeat(".", rushSize)+"\n", rushSize))
	for i, p := range b.pieces {
		c := byte('A' + i)
		if i >= b.cars {
			c = 'x'
		}
		for k := range p.size {
			cell := p.pos + k*p.stride
			s[cell/rushSize*(rushSize+1)+cell%rushSize] = c
		}
	}
	return string(s)
}

// rushMove is reasoning-gym's move pattern; Quarry also allows spaces
// around the sign.
var rushMove = regexp.MustCompile(`([A-Z])\s*([+-])\s*(\d+)`)

// replayRush plays answer's moves (upper-cased: reasoning-gym reads only
// capital letters) and returns the board they leave.
func replayRush(b *rushBoard, answer string) *rushBoard {
	b = b.clone()
	for _, m := range rushMove.FindAllStringSubmatch(strings.ToUpper(answer), -1) {
		n, err := strconv.Atoi(m[3])
		if err != nil || n > rushSize {
			n = rushSize
		}
		if m[2] == "-" {
			n = -n
		}
		b.slide(int(m[1][0]-'A'), n)
	}
	return b
}

// solveRush is a breadth-first search over slides of any length: the
// fewest moves, as the data counts them. A position is the vehicles'
// cells, six bits each (15 vehicles at most in the data).
func solveRush(start *rushBoard) []string {
	type node struct {
		key    [2]uint64
		parent int32
		move   int16 // vehicle*16 + 8 + signed cells
	}
	cars := start.cars
	pos := make([]int, cars)
	pack := func() [2]uint64 {
		var k [2]uint64
		for i, p := range pos {
			k[i/10] |= uint64(p) << (6 * (i % 10))
		}
		return k
	}
	unpack := func(k [2]uint64) {
		for i := range pos {
			pos[i] = int(k[i/10] >> (6 * (i % 10)) & 63)
		}
	}
	var walls uint64
	for _, p := range start.pieces[cars:] {
		walls |= 1 << p.pos
	}
	for i := range pos {
		pos[i] = start.pieces[i].pos
	}
	cells := func(i, at int) uint64 {
		p := start.pieces[i]
		var m uint64
		for k := range p.size {
			m |= 1 << (at + k*p.stride)
		}
		return m
	}
	nodes := []node{{key: pack(), parent: -1}}
	seen := map[[2]uint64]bool{nodes[0].key: true}
	for q := 0; q < len(nodes); q++ {
		unpack(nodes[q].key)
		if pos[0] == rushTarget {
			var path []string
			for i := q; nodes[i].parent >= 0; i = int(nodes[i].parent) {
				m := int(nodes[i].move)
				path = append(path, fmt.Sprintf("%c%+d", 'A'+m/16, m%16-8))
			}
			slices.Reverse(path)
			return path
		}
		occ := walls
		for i := range pos {
			occ |= cells(i, pos[i])
		}
		for i := range pos {
			p := start.pieces[i]
			here := pos[i]
			own := cells(i, here)
			for _, dir := range []int{-1, 1} {
				for n := 1; n < rushSize; n++ {
					at := here + dir*n*p.stride
					last := at + (p.size-1)*p.stride
					if at < 0 || last >= rushCells || (p.stride == 1 && (at/rushSize != here/rushSize || last/rushSize != here/rushSize)) {
						break
					}
					if cells(i, at)&^own&occ != 0 {
						break
					}
					pos[i] = at
					k := pack()
					pos[i] = here
					if seen[k] {
						continue
					}
					seen[k] = true
					nodes = append(nodes, node{key: k, parent: int32(q), move: int16(i*16 + 8 + dir*n)})
				}
			}
		}
	}
	return nil
}

func registerRushHour(r *envs.Registry) error {
	return rg.Register(r, rg.Task[RushHourOptions]{
		Name:        "rush_hour",
		Description: "reasoning-gym rush_hour: slide vehicles on a 6 × 6 board until the red car reaches the exit; any solution scores 1.",
		Revision:    1,
		DataDigest:  envs.Digest(rushData),
		Defaults:    RushHourOptions{MinMoves: 1, MaxMoves: 50},
		Generate:    generateRushHour,
		Score: func(answer string, it *rg.Item) float64 {
			switch {
			case answer == "":
				return 0
			case replayRush(it.Data.(*rushBoard), answer).solved():
				return 1
			}
			return 0.01
		},
		Guess: func(rng *rand.Rand, it *rg.Item) string {
			b := it.Data.(*rushBoard)
			moves := make([]string, 1+rng.IntN(8))
			for i := range moves {
				moves[i] = fmt.Sprintf("%c%+d", 'A'+rng.IntN(b.cars), []int{-1, 1}[rng.IntN(2)]*(1+rng.IntN(4)))
			}
			return strings.Join(moves, " ")
		},
		Retry: true,
		Feedback: func(answer string, it *rg.Item, _ float64) string {
			b := replayRush(it.Data.(*rushBoard), answer)
			left := rushTarget - b.pieces[0].pos
			if len(rushMove.FindAllString(strings.ToUpper(answer), -1)) == 0 {
				return "Your answer has no moves of the form 'F+1'."
			}
			return fmt.Sprintf("After your moves the red car is %d cells short of the exit.", left)
		},
	})
}

func generateRushHour(rng *rand.Rand, o RushHourOptions) (rg.Item, error) {
	ps := rushRange(o.MinMoves, o.MaxMoves)
	p := ps[rng.IntN(len(ps))]
	b, err := parseRush(p.board)
	if err != nil {
		return rg.Item{}, err
	}
	path := solveRush(b)
	if path == nil {
		return rg.Item{}, fmt.Errorf("rush_hour: board %s has no solution", p.board)
	}
	return rg.Item{
		Question: rushInstructions + "\n\nBoard:\n" + b.String(),
		Answer:   strings.Join(path, " "),
		Data:     b,
		Meta:     map[string]any{"board_config": p.board, "min_moves": p.moves},
	}, nil
}
