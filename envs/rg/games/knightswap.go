package rggames

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"regexp"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// KnightSwapOptions are reasoning-gym's KnightSwapConfig. Its board has 12
// squares (A1 to D3), so min_nodes 6 to 12; max_steps is capped at 100 and
// max_attempts at its default, 100. As in reasoning-gym, every puzzle has
// min_pieces knights of each colour (max_pieces is only checked).
type KnightSwapOptions struct {
	MinNodes        int     `json:"min_nodes" range:"6,12"`
	MaxNodes        int     `json:"max_nodes" range:"6,12"`
	MinPieces       int     `json:"min_pieces" range:"1,6"`
	MaxPieces       int     `json:"max_pieces" range:"1,6"`
	MinSteps        int     `json:"min_steps" range:"1,100"`
	MaxSteps        int     `json:"max_steps" range:"1,100"`
	MaxAttempts     int     `json:"max_attempts" range:"1,100"`
	ImpossibleRatio float64 `json:"impossible_ratio" range:"0,1"`
}

// Validate checks reasoning-gym's assertions, and that min_pieces knights
// of each colour fit on the smallest board (reasoning-gym retries such
// boards until max_attempts runs out).
func (o KnightSwapOptions) Validate() error {
	switch {
	case o.MaxNodes < o.MinNodes:
		return optErr("max_nodes", "%d is below min_nodes %d", o.MaxNodes, o.MinNodes)
	case o.MaxPieces < o.MinPieces:
		return optErr("max_pieces", "%d is below min_pieces %d", o.MaxPieces, o.MinPieces)
	case o.MaxSteps < o.MinSteps:
		return optErr("max_steps", "%d is below min_steps %d", o.MaxSteps, o.MinSteps)
	case 2*o.MinPieces > o.MinNodes:
		return optErr("min_pieces", "%d knights of each colour do not fit on min_nodes %d squares", o.MinPieces, o.MinNodes)
	}
	return nil
}

const knightSwapTemplate = `Knight Swap Challenge:

` + "```" + `
%s
` + "```" + `

Legend:
- 'w' = White Knight
- 'B' = Black Knight
- Empty squares are marked with '.'

Objective:
Swap the positions of all white knights with all black knights through valid moves.

Rules:
1. Knights move in L-shape (2 squares + 1 square perpendicular)
2. Knights can only move to empty squares
3. %s moves first, then players alternate
4. All knights must reach their target positions (white ↔ black)

Question:
Is it possible to swap all knights' positions? If yes, list the moves.

Answer Format:
- For impossible puzzles: "No"
- For possible puzzles: List moves as ["color,from,to", ...]
  Example: ["w,A1,B3"] means white knight moves A1→B3
`

// knightStates bounds the states one item's searches visit together (a
// search visits at most 2·12!/(4!·4!·4!) ≈ 69,000); once spent, the last
// puzzle searched is served.
const knightStates = 1000000

// Squares are numbered column-major: A1 A2 A3 B1 … D3 are 0 … 11.
func squareName(k int) string { return string(rune('A'+k/3)) + string(rune('1'+k%3)) }

func squareIndex(s string) (int, bool) {
	if len(s) != 2 || s[0] < 'A' || s[0] > 'D' || s[1] < '1' || s[1] > '3' {
		return 0, false
	}
	return int(s[0]-'A')*3 + int(s[1]-'1'), true
}

func knightMove(a, b int) bool {
	dc, dr := a/3-b/3, a%3-b%3
	return dc*dc+dr*dr == 5
}

// knightPuzzle is a board (a set of squares; edges are the knight moves
// between them), the knights and who moves first.
type knightPuzzle struct {
	squares      uint16
	white, black uint16
	blackFirst   bool
	optimal      int // moves of the shortest swap; 0 when impossible
}

func (p *knightPuzzle) adj(k int) uint16 {
	var m uint16
	for j := range 12 {
		if p.squares>>j&1 == 1 && knightMove(k, j) {
			m |= 1 << j
		}
	}
	return m
}

func (p *knightPuzzle) connected() bool {
	start := bits.TrailingZeros16(p.squares)
	seen := uint16(1) << start
	for stack := []int{start}; len(stack) > 0; {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for m := p.adj(k) &^ seen; m != 0; m &= m - 1 {
			j := bits.TrailingZeros16(m)
			seen |= 1 << j
			stack = append(stack, j)
		}
	}
	return seen == p.squares
}

// knightMv is one move: a colour ('w' or 'B') from a square to another.
type knightMv struct {
	color    byte
	from, to int
}

func (m knightMv) String() string {
	return string(m.color) + "," + squareName(m.from) + "," + squareName(m.to)
}

// solve is reasoning-gym's solve_swap: a breadth-first search over
// (white, black, turn) for the knights swapped, so the moves are fewest;
// pred is scratch space.
// ok is false when no swap exists or the budget ran out (exhausted).
func (p *knightPuzzle) solve(budget *int, pred map[uint32]uint32) (moves []knightMv, ok, exhausted bool) {
	var adj [12]uint16
	for k := range 12 {
		adj[k] = p.adj(k)
	}
	key := func(w, b uint16, blackTurn bool) uint32 {
		k := uint32(w) | uint32(b)<<12
		if blackTurn {
			k |= 1 << 24
		}
		return k
	}
	start := key(p.white, p.black, p.blackFirst)
	clear(pred)
	pred[start] = start
	for queue := []uint32{start}; len(queue) > 0; queue = queue[1:] {
		s := queue[0]
		w, b, blackTurn := uint16(s&0xfff), uint16(s>>12&0xfff), s>>24 == 1
		if w == p.black && b == p.white {
			for s != start {
				prev := pred[s]
				pw, pb := uint16(prev&0xfff), uint16(prev>>12&0xfff)
				mv := knightMv{color: 'w', from: bits.TrailingZeros16(pw &^ w), to: bits.TrailingZeros16(w &^ pw)}
				if pb != b {
					mv = knightMv{color: 'B', from: bits.TrailingZeros16(pb &^ b), to: bits.TrailingZeros16(b &^ pb)}
				}
				moves = append(moves, mv)
				s, w, b = prev, pw, pb
			}
			for i, j := 0, len(moves)-1; i < j; i, j = i+1, j-1 {
				moves[i], moves[j] = moves[j], moves[i]
			}
			return moves, true, false
		}
		if *budget--; *budget < 0 {
			return nil, false, true
		}
		own := w
		if blackTurn {
			own = b
		}
		for m := own; m != 0; m &= m - 1 {
			from := bits.TrailingZeros16(m)
			for t := adj[from] &^ (w | b); t != 0; t &= t - 1 {
				to := bits.TrailingZeros16(t)
				nw, nb := w, b
				if blackTurn {
					nb = b&^(1<<from) | 1<<to
				} else {
					nw = w&^(1<<from) | 1<<to
				}
				n := key(nw, nb, !blackTurn)
				if _, seen := pred[n]; !seen {
					pred[n] = s
					queue = append(queue, n)
				}
			}
		}
	}
	return nil, false, false
}

// boardString is reasoning-gym's _format_board: the board's columns and
// rows (highest first), a knight or '.' on each square, blanks elsewhere.
func (p *knightPuzzle) boardString() string {
	var cols, rows []int
	for c := range 4 {
		if p.squares>>(3*c)&7 != 0 {
			cols = append(cols, c)
		}
	}
	for r := 2; r >= 0; r-- {
		if p.squares&(0x249<<r) != 0 { // A, B, C, D of row r
			rows = append(rows, r)
		}
	}
	var b strings.Builder
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = string(rune('A' + c))
	}
	rule := "   " + strings.Repeat("----", len(cols))
	b.WriteString("    " + strings.Join(names, "   ") + "\n" + rule)
	for _, r := range rows {
		fmt.Fprintf(&b, "\n%d |", r+1)
		for _, c := range cols {
			k := 3*c + r
			switch {
			case p.white>>k&1 == 1:
				b.WriteString(" w |")
			case p.black>>k&1 == 1:
				b.WriteString(" B |")
			case p.squares>>k&1 == 1:
				b.WriteString(" . |")
			default:
				b.WriteString("   |")
			}
		}
		b.WriteString("\n" + rule)
	}
	return b.String()
}

func registerKnightSwap(r *envs.Registry) error {
	return rg.Register(r, rg.Task[KnightSwapOptions]{
		Name:        "knight_swap",
		Description: "reasoning-gym knight_swap: swap white and black knights on a small board by alternating knight moves, or say No; a longer valid swap earns optimal/length.",
		Revision:    1,
		Defaults: KnightSwapOptions{
			MinNodes: 6, MaxNodes: 9, MinPieces: 2, MaxPieces: 2, MinSteps: 4, MaxSteps: 20,
			MaxAttempts: 100, ImpossibleRatio: 0.2,
		},
		Generate: generateKnightSwap,
		Score: func(answer string, it *rg.Item) float64 {
			s, _ := scoreKnightSwap(answer, it.Data.(*knightPuzzle))
			return s
		},
		Guess: guessKnightSwap,
		Retry: true,
		Feedback: func(answer string, it *rg.Item, score float64) string {
			_, why := scoreKnightSwap(answer, it.Data.(*knightPuzzle))
			return "Your answer does not solve the puzzle: " + why + "."
		},
	})
}

func generateKnightSwap(rng *rand.Rand, o KnightSwapOptions) (rg.Item, error) {
	budget := knightStates
	pred := make(map[uint32]uint32, 4096) // one search's states, reused
	var last *knightPuzzle
	var lastMoves []knightMv
	// Drawn once per item: reasoning-gym draws it again with every board,
	// and as possible puzzles of the right length take more boards to find,
	// far more of its puzzles are impossible than impossible_ratio says.
	impossible := rng.Float64() < o.ImpossibleRatio
	for range o.MaxAttempts {
		n := rg.Between(rng, o.MinNodes, o.MaxNodes)
		squares := knightBoard(rng, n, o.MaxAttempts+1)
		var positions []int
		for m := squares; m != 0; m &= m - 1 {
			positions = append(positions, bits.TrailingZeros16(m))
		}
		for range 50 {
			perm := rng.Perm(len(positions))
			p := &knightPuzzle{squares: squares}
			for i, k := range perm[:2*o.MinPieces] {
				if i < o.MinPieces {
					p.white |= 1 << positions[k]
				} else {
					p.black |= 1 << positions[k]
				}
			}
			for _, blackFirst := range []bool{false, true} {
				q := *p
				q.blackFirst = blackFirst
				moves, ok, exhausted := q.solve(&budget, pred)
				if exhausted && last != nil {
					return knightSwapItem(last, lastMoves), nil
				}
				q.optimal = len(moves)
				last, lastMoves = &q, moves
				if (impossible && !ok) || (!impossible && ok && o.MinSteps <= len(moves) && len(moves) <= o.MaxSteps) {
					return knightSwapItem(last, lastMoves), nil
				}
			}
		}
	}
	return knightSwapItem(last, lastMoves), nil
}

// knightBoard is reasoning-gym's generate_board: n random squares, drawn
// again until the knight moves between them connect them, up to tries
// times. Where reasoning-gym then gives up, Quarry grows a board from a
// random square by random knight moves (the 12 squares are connected).
func knightBoard(rng *rand.Rand, n, tries int) uint16 {
	for range tries {
		var squares uint16
		for _, k := range rng.Perm(12)[:n] {
			squares |= 1 << k
		}
		if (&knightPuzzle{squares: squares}).connected() {
			return squares
		}
	}
	all := &knightPuzzle{squares: 1<<12 - 1}
	squares := uint16(1) << rng.IntN(12)
	for bits.OnesCount16(squares) < n {
		var frontier []int
		for m := squares; m != 0; m &= m - 1 {
			for t := all.adj(bits.TrailingZeros16(m)) &^ squares; t != 0; t &= t - 1 {
				frontier = append(frontier, bits.TrailingZeros16(t))
			}
		}
		squares |= 1 << frontier[rng.IntN(len(frontier))]
	}
	return squares
}

func knightSwapItem(p *knightPuzzle, moves []knightMv) rg.Item {
	answer := "No"
	var sol []string
	if len(moves) > 0 {
		for _, m := range moves {
			sol = append(sol, m.String())
		}
		b, _ := json.Marshal(sol)
		answer = strings.ReplaceAll(string(b), `","`, `", "`) // Python's json.dumps spacing
	}
	turn := "w"
	if p.blackFirst {
		turn = "B"
	}
	board := p.boardString()
	return rg.Item{
		Question: fmt.Sprintf(knightSwapTemplate, board, turn),
		Answer:   answer,
		Data:     p,
		Meta:     map[string]any{"board": board, "start_turn": turn, "solution": sol, "is_possible": len(moves) > 0, "num_steps": len(moves)},
	}
}

var knightMovePattern = regexp.MustCompile(`([wWbB])\s*,\s*([A-Da-d][1-3])\s*,\s*([A-Da-d][1-3])`)

// scoreKnightSwap is reasoning-gym's score_answer: "No" (any case) is right
// for an impossible puzzle only; otherwise the moves are replayed: an
// illegal move (wrong turn, no such knight, not a knight move on the
// board, an occupied square) or an unreadable answer scores 0, legal moves
// that do not swap the knights 0.05, a swap optimal/len(moves) capped at 1.
// More lenient: the moves may be quoted with ' or not at all and spaced,
// colours b and W and lowercase squares are read, and "No" may carry
// quotes or a full stop. why says what is wrong, for the feedback.
func scoreKnightSwap(answer string, p *knightPuzzle) (score float64, why string) {
	no := strings.EqualFold(strings.Trim(strings.TrimSpace(answer), `"'.`), "no")
	switch {
	case p.optimal == 0 && no:
		return 1, ""
	case p.optimal == 0, no:
		return 0, "your answer is incorrect"
	}
	found := knightMovePattern.FindAllStringSubmatch(answer, -1)
	if len(found) == 0 {
		return 0, `it is neither "No" nor a list of moves "color,from,to"`
	}
	w, b, blackTurn := p.white, p.black, p.blackFirst
	for i, f := range found {
		color := strings.ToLower(f[1])[0]
		from, _ := squareIndex(strings.ToUpper(f[2]))
		to, _ := squareIndex(strings.ToUpper(f[3]))
		own := &w
		if color == 'b' {
			own = &b
		}
		switch {
		case (color == 'b') != blackTurn:
			return 0, fmt.Sprintf("move %d is out of turn", i+1)
		case *own>>from&1 == 0:
			return 0, fmt.Sprintf("move %d starts from a square without a knight of that colour", i+1)
		case p.squares>>to&1 == 0 || !knightMove(from, to):
			return 0, fmt.Sprintf("move %d is not a knight move to a square of the board", i+1)
		case (w|b)>>to&1 == 1:
			return 0, fmt.Sprintf("move %d goes to an occupied square", i+1)
		}
		*own = *own&^(1<<from) | 1<<to
		blackTurn = !blackTurn
	}
	if w != p.black || b != p.white {
		return 0.05, "the moves are legal but do not swap the knights"
	}
	if len(found) <= p.optimal {
		return 1, ""
	}
	return float64(p.optimal) / float64(len(found)), "the swap takes more moves than needed"
}

// guessKnightSwap plays a few random legal moves.
func guessKnightSwap(rng *rand.Rand, it *rg.Item) string {
	p := it.Data.(*knightPuzzle)
	w, b, blackTurn := p.white, p.black, p.blackFirst
	var moves []string
	for range 1 + rng.IntN(8) {
		own, color := &w, byte('w')
		if blackTurn {
			own, color = &b, 'B'
		}
		var options []knightMv
		for m := *own; m != 0; m &= m - 1 {
			from := bits.TrailingZeros16(m)
			for t := p.adj(from) &^ (w | b); t != 0; t &= t - 1 {
				options = append(options, knightMv{color: color, from: from, to: bits.TrailingZeros16(t)})
			}
		}
		if len(options) == 0 {
			break
		}
		mv := options[rng.IntN(len(options))]
		*own = *own&^(1<<mv.from) | 1<<mv.to
		blackTurn = !blackTurn
		moves = append(moves, `"`+mv.String()+`"`)
	}
	if len(moves) == 0 {
		return `["w,A1,B3"]`
	}
	return "[" + strings.Join(moves, ", ") + "]"
}
