package rggames

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// BoxnetOptions are reasoning-gym's BoxnetConfig. It bounds nothing
// above; its curriculum stops at 9 rows, columns and boxes a colour.
// Quarry allows 10 of each and 10 colours, each a short word (the plan's
// syntax has no room for spaces, commas or brackets in a colour).
type BoxnetOptions struct {
	MinRowNum    int      `json:"min_row_num" range:"1,10"`
	MaxRowNum    int      `json:"max_row_num" range:"1,10"`
	MinColumnNum int      `json:"min_column_num" range:"1,10"`
	MaxColumnNum int      `json:"max_column_num" range:"1,10"`
	MinBoxNum    int      `json:"min_box_num" range:"1,10"`
	MaxBoxNum    int      `json:"max_box_num" range:"1,10"`
	ColourList   []string `json:"colour_list" len:"1,10"`
}

var boxnetColour = regexp.MustCompile(`^[A-Za-z0-9_]{1,20}$`)

func (o BoxnetOptions) Validate() error {
	switch {
	case o.MinRowNum > o.MaxRowNum:
		return optErr("max_row_num", "%d is below min_row_num %d", o.MaxRowNum, o.MinRowNum)
	case o.MinColumnNum > o.MaxColumnNum:
		return optErr("max_column_num", "%d is below min_column_num %d", o.MaxColumnNum, o.MinColumnNum)
	case o.MinBoxNum > o.MaxBoxNum:
		return optErr("max_box_num", "%d is below min_box_num %d", o.MaxBoxNum, o.MinBoxNum)
	}
	for _, c := range o.ColourList {
		if !boxnetColour.MatchString(c) {
			return optErr("colour_list", "colour %q is not 1 to 20 letters, digits or underscores", c)
		}
	}
	return nil
}

const boxnetPrompt = `
You are a central planner tasked with directing agents in a grid-like field to move colored boxes to their corresponding color-coded targets.
Each agent occupies a 1x1 square and can only interact with objects within its square. Agents can move a box to an adjacent square or
directly to a target square of the same color. A square may contain multiple boxes and targets. The squares are identified by their center
coordinates (e.g., square[0.5, 0.5]). Actions are formatted as: move(box_color, destination), where box_color is the color of the box and
destination is either a target of the same color or an adjacent square. Your objective is to create a sequence of action plans that instructs
each agent to match all boxes to their color-coded targets in the most efficient manner.

Please adhere to the following rules when specifying your action plan:
1. Single Action per Agent: Assign only one action to each agent at a time. However, the final answer shoule be a list of action plans for multiple steps.
2. Unique Agent Keys: Use unique keys for each agent in the JSON format action plan. The key should be the agent's coordinates in the format "Agent[x, y]".
3. Prioritize Matching Boxes to Targets: Always prioritize actions that will match a box to its target over moving a box to an adjacent square.
4. Sequential Action Planning: The whole returned answer should be a list of action plans for multiple steps, do not just return one step plan.
5. Clear Formatting: Ensure the action plan is clearly formatted in JSON, with each agent's action specified as a key-value pair.
6. Conflict Resolution: Ensure that no two agents are assigned actions that would interfere with each other.
7. Optimize Efficiency: Aim to minimize the number of moves required to match all boxes with their targets.

Here is the format for your action plan:
Please provide your final answer as a list of action dictionaries.
For example:
` + "```json" + `
[{"Agent[0.5, 0.5]":"move(box_blue, square[0.5, 1.5])", "Agent[1.5, 0.5]":"move(box_red, target_red)"}, {"Agent[0.5, 1.5]":"move(box_blue, target_blue)", "Agent[2.5, 0.5]":"move...}, {...}...]
` + "```" + `
Include an agent in the action plan only if it has a task to perform next.
`

// boxnet is a field: the items (box_<colour>, target_<colour>) in each
// square, row-major.
type boxnet struct {
	rows, cols int
	squares    [][]string
}

func (b *boxnet) clone() *boxnet {
	c := &boxnet{rows: b.rows, cols: b.cols, squares: make([][]string, len(b.squares))}
	for i, s := range b.squares {
		c.squares[i] = slices.Clone(s)
	}
	return c
}

func (b *boxnet) boxes() int {
	n := 0
	for _, s := range b.squares {
		for _, it := range s {
			if strings.HasPrefix(it, "box_") {
				n++
			}
		}
	}
	return n
}

// coord writes a square's centre coordinate as Python prints i+0.5.
func coord(i int) string { return strconv.Itoa(i) + ".5" }

// pyStrings writes a list of strings as Python's repr does (none of these
// strings holds a quote).
func pyStrings(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = "'" + x + "'"
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// state is reasoning-gym's state_update_func: each agent, what it sees and
// the actions it can take.
func (b *boxnet) state() string {
	var s strings.Builder
	for i := range b.rows {
		for j := range b.cols {
			items := b.squares[i*b.cols+j]
			fmt.Fprintf(&s, "Agent[%s, %s]: I am in square[%s, %s], I can observe %s, I can do ", coord(i), coord(j), coord(i), coord(j), pyStrings(items))
			var actions []string
			for _, it := range items {
				if !strings.HasPrefix(it, "box_") {
					continue
				}
				for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
					r, c := i+d[0], j+d[1]
					if r >= 0 && r < b.rows && c >= 0 && c < b.cols {
						actions = append(actions, fmt.Sprintf("move(%s, square[%s, %s])", it, coord(r), coord(c)))
					}
				}
				if slices.Contains(items, "target"+it[3:]) {
					actions = append(actions, fmt.Sprintf("move(%s, target%s)", it, it[3:]))
				}
			}
			s.WriteString(pyStrings(actions) + "\n")
		}
	}
	return s.String()
}

func registerBoxnet(r *envs.Registry) error {
	return rg.Register(r, rg.Task[BoxnetOptions]{
		Name:        "boxnet",
		Description: "reasoning-gym boxnet: a JSON list of steps in which agents on a grid move coloured boxes to their targets; the share of boxes matched, at least 0.05 for a readable plan.",
		Revision:    1,
		Defaults: BoxnetOptions{MinRowNum: 1, MaxRowNum: 4, MinColumnNum: 2, MaxColumnNum: 4,
			MinBoxNum: 1, MaxBoxNum: 1, ColourList: []string{"red", "blue", "green"}},
		Generate: generateBoxnet,
		Score: func(answer string, it *rg.Item) float64 {
			s, _ := scoreBoxnet(answer, it.Data.(*boxnet))
			return s
		},
		Guess: func(rng *rand.Rand, it *rg.Item) string {
			b := it.Data.(*boxnet)
			i, j := rng.IntN(b.rows), rng.IntN(b.cols)
			r, c := i+rng.IntN(2), j+1-rng.IntN(2)
			colour := "box_" + strconv.Itoa(rng.IntN(100))
			return fmt.Sprintf(`[{"Agent[%s, %s]": "move(%s, square[%s, %s])"}]`, coord(i), coord(j), colour, coord(r), coord(c))
		},
		Retry: true,
		Feedback: func(answer string, it *rg.Item, _ float64) string {
			_, why := scoreBoxnet(answer, it.Data.(*boxnet))
			return why
		},
	})
}

func generateBoxnet(rng *rand.Rand, o BoxnetOptions) (rg.Item, error) {
	b := &boxnet{rows: rg.Between(rng, o.MinRowNum, o.MaxRowNum), cols: rg.Between(rng, o.MinColumnNum, o.MaxColumnNum)}
	b.squares = make([][]string, b.rows*b.cols)
	for i := range b.squares {
		b.squares[i] = []string{}
	}
	for _, colour := range o.ColourList {
		for range rg.Between(rng, o.MinBoxNum, o.MaxBoxNum) {
			box, target := rng.IntN(len(b.squares)), rng.IntN(len(b.squares))
			b.squares[box] = append(b.squares[box], "box_"+colour)
			b.squares[target] = append(b.squares[target], "target_"+colour)
		}
	}
	initial := map[string][]string{}
	for i, s := range b.squares {
		initial[coord(i/b.cols)+"_"+coord(i%b.cols)] = slices.Clone(s)
	}
	return rg.Item{
		Question: boxnetPrompt + "\n\nThe current left boxes and agents are: " + b.state() + "\n",
		Answer:   planBoxnet(b),
		Data:     b,
		Meta:     map[string]any{"row_num": b.rows, "column_num": b.cols, "initial_state": initial},
	}, nil
}

// planBoxnet writes a plan that matches every box: each step, every agent
// with a box matches one if a target of its colour shares the square, or
// else moves one a square towards the nearest target of its colour. Each
// move shortens a box's way to its nearest target, and a match removes a
// box, so the plan ends.
func planBoxnet(start *boxnet) string {
	b := start.clone()
	var steps []string
	for b.boxes() > 0 {
		type act struct{ square, to int } // to < 0: match
		var acts []struct {
			act
			item string
		}
		for sq, items := range b.squares {
			var chosen string
			to := -1
			for _, it := range items {
				if strings.HasPrefix(it, "box_") && slices.Contains(items, "target"+it[3:]) {
					chosen = it
					break
				}
			}
			if chosen == "" {
				for _, it := range items {
					if !strings.HasPrefix(it, "box_") {
						continue
					}
					best, bd := -1, 1<<30
					for t, titems := range b.squares {
						if slices.Contains(titems, "target"+it[3:]) {
							if d := abs(t/b.cols-sq/b.cols) + abs(t%b.cols-sq%b.cols); d < bd {
								best, bd = t, d
							}
						}
					}
					if best < 0 {
						continue
					}
					chosen = it
					switch r, c := sq/b.cols, sq%b.cols; {
					case best/b.cols > r:
						to = sq + b.cols
					case best/b.cols < r:
						to = sq - b.cols
					case best%b.cols > c:
						to = sq + 1
					default:
						to = sq - 1
					}
					break
				}
			}
			if chosen != "" {
				acts = append(acts, struct {
					act
					item string
				}{act{sq, to}, chosen})
			}
		}
		var step []string
		for _, a := range acts {
			key := fmt.Sprintf("Agent[%s, %s]", coord(a.square/b.cols), coord(a.square%b.cols))
			var v string
			if a.to < 0 {
				v = fmt.Sprintf("move(%s, target%s)", a.item, a.item[3:])
				b.remove(a.square, a.item)
				b.remove(a.square, "target"+a.item[3:])
			} else {
				v = fmt.Sprintf("move(%s, square[%s, %s])", a.item, coord(a.to/b.cols), coord(a.to%b.cols))
				b.remove(a.square, a.item)
				b.squares[a.to] = append(b.squares[a.to], a.item)
			}
			k, _ := json.Marshal(key)
			val, _ := json.Marshal(v)
			step = append(step, string(k)+": "+string(val))
		}
		steps = append(steps, "{"+strings.Join(step, ", ")+"}")
	}
	return "[" + strings.Join(steps, ", ") + "]"
}

func (b *boxnet) remove(sq int, item string) bool {
	i := slices.Index(b.squares[sq], item)
	if i < 0 {
		return false
	}
	b.squares[sq] = slices.Delete(b.squares[sq], i, i+1)
	return true
}

var (
	boxnetNumber = regexp.MustCompile(`\d+\.?\d*`)
	// boxnetAction is reasoning-gym's pattern, with any space after the
	// comma (it asks for one).
	boxnetAction = regexp.MustCompile(`^\s*move\((.*?),\s*(.*?)\)`)
)

// square finds the square whose centre is (x, y).
func (b *boxnet) square(x, y float64) (int, bool) {
	i, j := x-0.5, y-0.5
	if i != float64(int(i)) || j != float64(int(j)) || i < 0 || j < 0 || int(i) >= b.rows || int(j) >= b.cols {
		return 0, false
	}
	return int(i)*b.cols + int(j), true
}

func numbers(s string) []float64 {
	var out []float64
	for _, m := range boxnetNumber.FindAllString(s, -1) {
		if f, err := strconv.ParseFloat(m, 64); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// scoreBoxnet is reasoning-gym's score_answer: the plan is replayed step by
// step, each step's actions in their order, an action that does not apply
// skipped; the score is the share of boxes matched, at least 0.05 for a
// plan that parses. More lenient: a code fence around the JSON and a
// single step's object without its list are read, and an agent outside the
// field, a key with one number or a square past the edge is skipped
// (reasoning-gym raises). Stricter: only boxes move (reasoning-gym moves a
// target too when asked).
func scoreBoxnet(answer string, start *boxnet) (float64, string) {
	steps, ok := parsePlan(answer)
	if !ok {
		return 0, "Your answer is not a JSON list of action dictionaries."
	}
	b := start.clone()
	for _, step := range steps {
		type action struct {
			x, y     float64
			item, to string
		}
		// reasoning-gym keys a step's actions by the agent's coordinates:
		// a repeated agent keeps its first place and its last action.
		var acts []action
		for _, kv := range step {
			c := numbers(kv[0])
			m := boxnetAction.FindStringSubmatch(kv[1])
			if len(c) < 2 || m == nil {
				continue
			}
			a := action{x: c[0], y: c[1], item: m[1], to: m[2]}
			if i := slices.IndexFunc(acts, func(p action) bool { return p.x == a.x && p.y == a.y }); i >= 0 {
				acts[i] = a
			} else {
				acts = append(acts, a)
			}
		}
		for _, a := range acts {
			sq, ok := b.square(a.x, a.y)
			if !ok || !slices.Contains(b.squares[sq], a.item) || !strings.HasPrefix(a.item, "box_") {
				continue
			}
			if !strings.Contains(a.to, "square") {
				if a.to == "target_"+a.item[4:] && slices.Contains(b.squares[sq], a.to) {
					b.remove(sq, a.item)
					b.remove(sq, a.to)
				}
				continue
			}
			c := numbers(a.to)
			if len(c) < 2 || abs2(c[0]-a.x)+abs2(c[1]-a.y) != 1 || (c[0] != a.x && c[1] != a.y) {
				continue
			}
			if to, ok := b.square(c[0], c[1]); ok {
				b.remove(sq, a.item)
				b.squares[to] = append(b.squares[to], a.item)
			}
		}
	}
	total, left := start.boxes(), b.boxes()
	return max(0.05, float64(total-left)/float64(total)), fmt.Sprintf("Your plan matches %d of the %d boxes with their targets.", total-left, total)
}

func abs2(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// parsePlan reads a list of steps, each an object of agent → action, keys
// in their order; non-string actions are dropped.
func parsePlan(answer string) ([][][2]string, bool) {
	s := strings.TrimSpace(answer)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(strings.TrimPrefix(s, "```json"), "```")
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
	}
	var raws []json.RawMessage
	if err := json.Unmarshal([]byte(s), &raws); err != nil {
		var one map[string]any
		if json.Unmarshal([]byte(s), &one) != nil {
			return nil, false
		}
		raws = []json.RawMessage{json.RawMessage(s)}
	}
	var steps [][][2]string
	for _, raw := range raws {
		d := json.NewDecoder(bytes.NewReader(raw))
		if t, err := d.Token(); err != nil || t != json.Delim('{') {
			return nil, false // reasoning-gym raises on a step that is not an object
		}
		var step [][2]string
		for d.More() {
			t, err := d.Token()
			if err != nil {
				return nil, false
			}
			var v any
			if err := d.Decode(&v); err != nil {
				return nil, false
			}
			if str, ok := v.(string); ok {
				step = append(step, [2]string{t.(string), str})
			}
		}
		steps = append(steps, step)
	}
	return steps, true
}
