package cognition

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// RubikOptions are reasoning-gym's RubiksCubeConfig fields. Its curriculum
// reaches 100 scramble moves; 1000 leaves room. remove_ansi is accepted
// for compatibility: Quarry never colours the rendering, so it changes
// nothing (reasoning-gym colours only on an xterm-256color terminal).
type RubikOptions struct {
	MinScrambleSteps int  `json:"min_scramble_steps" range:"1,1000"`
	MaxScrambleSteps int  `json:"max_scramble_steps" range:"1,1000"`
	CubeSize         int  `json:"cube_size" range:"2,6"`
	RemoveANSI       bool `json:"remove_ansi"`
}

// Validate checks min_scramble_steps ≤ max_scramble_steps.
func (o RubikOptions) Validate() error {
	return rg.MinMax("min_scramble_steps", "max_scramble_steps", o.MinScrambleSteps, o.MaxScrambleSteps)
}

var rubikTemplates = []string{
	"You are given a %[1]dx%[1]dx%[1]d Rubik's cube. It looks like this:\n\n%[2]s \n\nPlease provide a solution to solve this cube using Singmaster notation. Do not combine any steps, for instance, do not write 'U2', and instead write 'U U'.",
	"You see a size %[1]d Rubik's cube arranged as follows::\n\n%[2]s \n\nPlease provide a solution to solve this cube using Singmaster notation. Do not combine any steps, for instance, do not write 'U2', and instead write 'U U'.",
}

// maxAnswerMoves bounds the moves an answer may expand to ("U999999999"
// would otherwise turn a cube for minutes).
const maxAnswerMoves = 10000

// RubiksCube is rg:rubiks_cube: solve a scrambled N×N×N cube, answering a
// move sequence in Singmaster notation. Any sequence that solves it scores 1.
var RubiksCube = rg.Task[RubikOptions]{
	Name:        "rubiks_cube",
	Description: "reasoning-gym rubiks_cube: solve a scrambled Rubik's cube; answer moves in Singmaster notation (any solution counts).",
	Revision:    1,
	Defaults:    RubikOptions{MinScrambleSteps: 3, MaxScrambleSteps: 10, CubeSize: 3, RemoveANSI: true},
	Generate:    generateRubik,
	Score:       scoreRubik,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		n := it.Data.(rubikItem).size
		moves := make([]string, 1+rng.IntN(10))
		for i := range moves {
			moves[i] = randomMove(rng, n).String()
		}
		return strings.Join(moves, " ")
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		d := it.Data.(rubikItem)
		c := newCube(d.size)
		c.apply(d.scramble)
		moves, err := parseMoves(answer, d.size)
		if err != nil {
			return "Your answer is not a valid move sequence: " + err.Error() + "."
		}
		c.apply(moves)
		right, all := c.placed()
		return fmt.Sprintf("After your moves the cube is not solved: %d of %d stickers match their face's centre.", right, all)
	},
}

// rubikItem is what the scorer needs: the scramble to replay.
type rubikItem struct {
	size     int
	scramble []cubeMove
}

// cubeMove is one move: a face turn of layer (or layers 1..layer when
// wide), or a whole-cube rotation (X, Y, Z: every layer).
type cubeMove struct {
	face     byte // one of LRUDFB, or XYZ
	reversed bool
	wide     bool
	layer    int
}

// String writes the move as reasoning-gym (magiccube) does: the layer is
// written unless it is 1 for a face turn or 2 for a wide one.
func (m cubeMove) String() string {
	var b strings.Builder
	if m.face != 'X' && m.face != 'Y' && m.face != 'Z' && !(m.wide && m.layer == 2) && !(!m.wide && m.layer == 1) {
		b.WriteString(strconv.Itoa(m.layer))
	}
	b.WriteByte(m.face)
	if m.wide {
		b.WriteByte('w')
	}
	if m.reversed {
		b.WriteByte('\'')
	}
	return b.String()
}

// randomMove draws a scramble move as reasoning-gym does: a face of
// LRDUBF, either direction, and on cubes above 3 a random wide flag and a
// layer up to half the size.
func randomMove(rng *rand.Rand, n int) cubeMove {
	m := cubeMove{face: "LRDUBF"[rng.IntN(6)], reversed: rng.IntN(2) == 1, layer: 1}
	if n > 3 {
		m.wide = rng.IntN(2) == 1
		m.layer = rg.Between(rng, 1, n/2)
	}
	return m
}

func generateRubik(rng *rand.Rand, o RubikOptions) (rg.Item, error) {
	steps := rg.Between(rng, o.MinScrambleSteps, o.MaxScrambleSteps)
	scramble := make([]cubeMove, steps)
	for i := range scramble {
		scramble[i] = randomMove(rng, o.CubeSize)
	}
	c := newCube(o.CubeSize)
	c.apply(scramble)
	render := c.render()
	// The reference is the scramble undone; reasoning-gym gives no answer
	// (its solver's moves are metadata), and any solving sequence scores 1.
	undo := make([]string, steps)
	for i, m := range scramble {
		m.reversed = !m.reversed
		undo[steps-1-i] = m.String()
	}
	shown := make([]string, steps)
	for i, m := range scramble {
		shown[i] = m.String()
	}
	return rg.Item{
		Question: fmt.Sprintf(rubikTemplates[rng.IntN(len(rubikTemplates))], o.CubeSize, render),
		Answer:   strings.Join(undo, " "),
		Data:     rubikItem{size: o.CubeSize, scramble: scramble},
		Meta:     map[string]any{"cube_size": o.CubeSize, "scramble_steps": steps, "scramble_moves": strings.Join(shown, " ")},
	}, nil
}

// moveToken is one move as an answer may write it: an optional layer, the
// face or rotation, w for wide, ' (or ’) for counter-clockwise, and a
// repeat count, before or after the prime ("U2", "U2'", "U'2").
var moveToken = regexp.MustCompile(`^(\d*)([LRUDFBXYZ])(w?)(['’]?)(\d*)(['’]?)$`)

// parseMoves reads an answer's moves, separated by white space or commas.
func parseMoves(s string, n int) ([]cubeMove, error) {
	var out []cubeMove
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' || r == '\r' }) {
		g := moveToken.FindStringSubmatch(tok)
		if g == nil {
			return nil, fmt.Errorf("%q is not a move", tok)
		}
		m := cubeMove{face: g[2][0], wide: g[3] == "w", reversed: (g[4] != "") != (g[6] != "")}
		whole := m.face == 'X' || m.face == 'Y' || m.face == 'Z'
		switch {
		case whole && (g[1] != "" || m.wide):
			return nil, fmt.Errorf("%q: a cube rotation takes no layer", tok)
		case whole:
			m.layer = n
		case g[1] == "" && m.wide:
			m.layer = 2
		case g[1] == "":
			m.layer = 1
		default:
			l, err := strconv.Atoi(g[1])
			if err != nil || l < 1 || l > n {
				return nil, fmt.Errorf("%q: layer out of range", tok)
			}
			m.layer = l
		}
		if m.layer > n {
			return nil, fmt.Errorf("%q: layer out of range", tok)
		}
		count := 1
		if g[5] != "" {
			c, err := strconv.Atoi(g[5])
			if err != nil || c > maxAnswerMoves {
				return nil, fmt.Errorf("%q: too many turns", tok)
			}
			count = c
		}
		for range count {
			out = append(out, m)
		}
		if len(out) > maxAnswerMoves {
			return nil, fmt.Errorf("more than %d moves", maxAnswerMoves)
		}
	}
	return out, nil
}

// scoreRubik replays the scramble and the answer: 1 when the cube is
// solved, else the fraction of stickers matching their face's centre (at
// least 0.05, or 0.01 for an empty answer), as reasoning-gym scores it; an
// answer that is not a move sequence scores 0.01. Quarry also accepts moves
// with a layer prefix ("2R", which reasoning-gym's expansion drops), "U2'"
// and comma-separated moves.
func scoreRubik(answer string, it *rg.Item) float64 {
	d := it.Data.(rubikItem)
	moves, err := parseMoves(answer, d.size)
	if err != nil {
		return 0.01
	}
	c := newCube(d.size)
	c.apply(d.scramble)
	c.apply(moves)
	right, all := c.placed()
	if right == all {
		return 1
	}
	partial := float64(right) / float64(all)
	floor := 0.05
	if strings.TrimSpace(answer) == "" {
		floor = 0.01
	}
	return max(floor, partial)
}

// sticker is one facelet: its position on the doubled, centred grid
// (coordinates 2i-(n-1), so a turn maps integers to integers) and the
// outward normal of its face. x runs left to right, y down to up, z back
// to front.
type sticker struct {
	pos, normal [3]int
	color       byte
}

type cube struct {
	n        int
	stickers []sticker
}

// faceSpec places face f's grid: row r, column c is the sticker whose
// position is at(r, c) on the doubled grid, with the face's normal.
type faceSpec struct {
	color  byte
	normal [3]int
	at     func(n, r, c int) [3]int
}

// The faces in rendering order U, L, F, R, B, D, coloured as magiccube's
// solved cube (yellow up, red left, green front, orange right, blue back,
// white down); the grids are the unfolded net's, seen from outside.
var faces = []faceSpec{
	{'Y', [3]int{0, 1, 0}, func(n, r, c int) [3]int { return [3]int{c, n - 1, r} }},
	{'R', [3]int{-1, 0, 0}, func(n, r, c int) [3]int { return [3]int{0, n - 1 - r, c} }},
	{'G', [3]int{0, 0, 1}, func(n, r, c int) [3]int { return [3]int{c, n - 1 - r, n - 1} }},
	{'O', [3]int{1, 0, 0}, func(n, r, c int) [3]int { return [3]int{n - 1, n - 1 - r, n - 1 - c} }},
	{'B', [3]int{0, 0, -1}, func(n, r, c int) [3]int { return [3]int{n - 1 - c, n - 1 - r, 0} }},
	{'W', [3]int{0, -1, 0}, func(n, r, c int) [3]int { return [3]int{c, 0, n - 1 - r} }},
}

func doubled(n int, p [3]int) [3]int {
	return [3]int{2*p[0] - (n - 1), 2*p[1] - (n - 1), 2*p[2] - (n - 1)}
}

func newCube(n int) *cube {
	c := &cube{n: n}
	for _, f := range faces {
		for r := range n {
			for col := range n {
				c.stickers = append(c.stickers, sticker{doubled(n, f.at(n, r, col)), f.normal, f.color})
			}
		}
	}
	return c
}

// turn rotates v a quarter turn about axis: sign -1 is clockwise seen from
// the axis's positive end.
func turn(v [3]int, axis, sign int) [3]int {
	a, b := (axis+1)%3, (axis+2)%3 // (y,z), (z,x) or (x,y): right-handed
	out := v
	if sign < 0 {
		out[a], out[b] = v[b], -v[a]
	} else {
		out[a], out[b] = -v[b], v[a]
	}
	return out
}

// moveAxis gives a move's axis, the end its layers count from (+1 for
// R, U, F and the rotations), and the direction of a clockwise turn.
func moveAxis(face byte) (axis, end, sign int) {
	switch face {
	case 'R', 'X':
		return 0, 1, -1
	case 'L':
		return 0, -1, 1
	case 'U', 'Y':
		return 1, 1, -1
	case 'D':
		return 1, -1, 1
	case 'F', 'Z':
		return 2, 1, -1
	}
	return 2, -1, 1 // B
}

func (c *cube) apply(moves []cubeMove) {
	for _, m := range moves {
		axis, end, sign := moveAxis(m.face)
		if m.reversed {
			sign = -sign
		}
		lo, hi := m.layer, m.layer // layers counted from the face, 1-based
		if m.wide || m.face == 'X' || m.face == 'Y' || m.face == 'Z' {
			lo = 1
		}
		for i := range c.stickers {
			s := &c.stickers[i]
			// layer k from the end holds doubled coordinate end·(n+1-2k).
			k := (c.n + 1 - end*s.pos[axis]) / 2
			if k < lo || k > hi {
				continue
			}
			s.pos, s.normal = turn(s.pos, axis, sign), turn(s.normal, axis, sign)
		}
	}
}

// grid returns face f's colours, row by row.
func (c *cube) grid(f faceSpec) [][]byte {
	at := make(map[[3]int]byte, c.n*c.n)
	for _, s := range c.stickers {
		if s.normal == f.normal {
			at[s.pos] = s.color
		}
	}
	g := make([][]byte, c.n)
	for r := range c.n {
		g[r] = make([]byte, c.n)
		for col := range c.n {
			g[r][col] = at[doubled(c.n, f.at(c.n, r, col))]
		}
	}
	return g
}

// placed counts stickers matching the sticker at row n/2, column n/2 of
// their face (the centre on odd cubes), reasoning-gym's partial score.
func (c *cube) placed() (right, all int) {
	for _, f := range faces {
		g := c.grid(f)
		centre := g[c.n/2][c.n/2]
		for _, row := range g {
			for _, x := range row {
				if x == centre {
					right++
				}
				all++
			}
		}
	}
	return right, all
}

// render draws the unfolded cube as magiccube prints it: U above, then the
// L F R B band, then D, each sticker " X ".
func (c *cube) render() string {
	var b strings.Builder
	pad, tail := strings.Repeat(" ", 3*c.n), strings.Repeat(" ", 6*c.n)
	topBottom := func(g [][]byte) {
		for _, row := range g {
			b.WriteString(pad)
			for _, x := range row {
				b.WriteString(" " + string(x) + " ")
			}
			b.WriteString(tail + "\n")
		}
	}
	topBottom(c.grid(faces[0]))
	band := [][][]byte{c.grid(faces[1]), c.grid(faces[2]), c.grid(faces[3]), c.grid(faces[4])}
	for r := range c.n {
		for _, g := range band {
			for _, x := range g[r] {
				b.WriteString(" " + string(x) + " ")
			}
		}
		b.WriteString("\n")
	}
	topBottom(c.grid(faces[5]))
	return b.String()
}
