package crosswords

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/games/wordgrid"
	"github.com/quarry-rl/quarry/envs/games/words"
)

var ids = []string{"game:Crosswords-v0-easy", "game:Crosswords-v0-hard", "game:Crosswords-v0-random"}

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

func inner(e envs.Env) *Env { return e.(envs.Unwrapper).Unwrap().(*Env) }

// handPuzzle is a 5×5 grid: STONE across row 2, TON down column 1 from the
// T of STONE. Seven letter cells.
//
//	. . . . .
//	. . . . .
//	S T O N E
//	. O . . .
//	. N . . .
var handPuzzle = []placement{{word: "stone", row: 2, col: 0}, {word: "ton", row: 2, col: 1, down: true}}

// game returns a reset -easy env playing handPuzzle with the given limit.
func game(t *testing.T, maxTurns int) (envs.Env, *Env) {
	t.Helper()
	e := envtest.MakeReset(t, registry(t), "game:Crosswords-v0-easy", 1)
	g := inner(e)
	if err := g.install(5, handPuzzle); err != nil {
		t.Fatal(err)
	}
	g.maxTurns = maxTurns
	return e, g
}

// table plays the rule tables: every step shows the board and asks for a guess.
var table = envtest.Table{ComparesParsed: true, Each: envtest.SuffixFramed("Current Board:\n", "\nEnter your guess.")}

func clue(t *testing.T, w string) string {
	t.Helper()
	c, ok := words.Clue(w)
	if !ok {
		t.Fatalf("no clue for %q", w)
	}
	return c
}

func TestRules(t *testing.T) {
	const letter = 1.0 / 7
	t.Run("letters, illegal moves and a win", func(t *testing.T) {
		e, _ := game(t, 30)
		table.Expect(t, e, []envtest.Want{
			{Action: `First \boxed{2 0 s}`, Obs: "At turn 1, you placed S at (2, 0) correctly.", Reward: letter, Parsed: `\boxed{2 0 S}`},
			{Action: `\boxed{2 0 S}`, Obs: "At turn 2, you tried to place S at (2, 0), but the cell is already filled.", InvalidAction: true, Parsed: `\boxed{2 0 S}`},
			{Action: `\boxed{0 0 A}`, Obs: "At turn 3, you tried to place A at (0, 0), which is a black dot and cannot be filled.", InvalidAction: true, Parsed: `\boxed{0 0 A}`},
			{Action: `\boxed{5 0 A}`, Obs: "At turn 4, you tried to place A at (5, 0), which is out of bounds.", InvalidAction: true, Parsed: `\boxed{5 0 A}`},
			{Action: `\boxed{007 1 a}`, Obs: "At turn 5, you tried to place A at (7, 1), which is out of bounds.", InvalidAction: true, Parsed: `\boxed{7 1 A}`},
			{Action: `\boxed{2 99999999999999999999 a}`, Obs: "At turn 6, you tried to place A at (2, 99999999999999999999), which is out of bounds.", InvalidAction: true, Parsed: `\boxed{2 99999999999999999999 A}`},
			// A wrong letter is a legal move: no reward, not invalid.
			{Action: `\boxed{2 1 X}`, Obs: "At turn 7, you tried to place X at (2, 1), but it is incorrect.", Parsed: `\boxed{2 1 X}`},
			// The last box that fits the pattern counts; spacing is free.
			{Action: "\\boxed{2 1 X} no: \\boxed{2\t1\n t} \\boxed{9 9}", Obs: "At turn 8, you placed T at (2, 1) correctly.", Reward: letter, Parsed: `\boxed{2 1 T}`},
			{Action: `\boxed{3 1 o}`, Obs: "At turn 9, you placed O at (3, 1) correctly.", Reward: letter, Parsed: `\boxed{3 1 O}`},
			{Action: `\boxed{4 1 N}`, Obs: "At turn 10, you placed N at (4, 1) correctly.", Reward: letter, Parsed: `\boxed{4 1 N}`},
			{Action: `\boxed{2 2 O}`, Obs: "At turn 11, you placed O at (2, 2) correctly.", Reward: letter, Parsed: `\boxed{2 2 O}`},
			{Action: `\boxed{2 3 N}`, Obs: "At turn 12, you placed N at (2, 3) correctly.", Reward: letter, Parsed: `\boxed{2 3 N}`},
			{Action: `\boxed{2 4 E}`, Obs: "Congratulations! You completed the Crosswords puzzle!", Reward: letter, Terminated: true, Success: true, Parsed: `\boxed{2 4 E}`},
		})
	})
	t.Run("unparseable ends the episode", func(t *testing.T) {
		for _, a := range []string{`\boxed{[2 1 T]}`, `\boxed{2 1}`, `\boxed{2 1 TO}`, `\boxed{-1 0 A}`, `\boxed{2 1 7}`, "2 1 T", `\boxed{2 1 T`, `\boxed{2,1,T}`} {
			e, _ := game(t, 30)
			table.Expect(t, e, []envtest.Want{{Action: a, Obs: "At turn 1, you did not provide a valid guess in \\boxed{row column letter} format.", Reward: -0.1, Terminated: true, FormatError: true}})
		}
	})
	t.Run("max turns", func(t *testing.T) {
		e, _ := game(t, 3)
		table.Expect(t, e, []envtest.Want{
			{Action: `\boxed{2 0 S}`, Obs: "At turn 1, you placed S at (2, 0) correctly.", Reward: letter, Parsed: `\boxed{2 0 S}`},
			{Action: `\boxed{2 1 Q}`, Obs: "At turn 2, you tried to place Q at (2, 1), but it is incorrect.", Parsed: `\boxed{2 1 Q}`},
			// The last turn keeps its own reward.
			{Action: `\boxed{2 1 T}`, Obs: "You have reached the maximum number of turns.", Reward: letter, Terminated: true, Truncated: true, Parsed: `\boxed{2 1 T}`},
		})
	})
	t.Run("invalid on the last turn", func(t *testing.T) {
		e, _ := game(t, 1)
		table.Expect(t, e, []envtest.Want{{Action: `\boxed{0 0 S}`, Obs: "You have reached the maximum number of turns.", Terminated: true, Truncated: true, InvalidAction: true, Parsed: `\boxed{0 0 S}`}})
	})
	t.Run("format error on the last turn is also truncated", func(t *testing.T) {
		e, _ := game(t, 1)
		table.Expect(t, e, []envtest.Want{{Action: "S", Obs: "At turn 1, you did not provide a valid guess in \\boxed{row column letter} format.", Reward: -0.1, Terminated: true, Truncated: true, FormatError: true}})
	})
	t.Run("a win on the last turn is not truncated", func(t *testing.T) {
		e, g := game(t, 7)
		for i, c := range g.solution {
			if c != black && i != 2*5+4 {
				g.board[i] = c - 'a' + 'A'
				g.filled++
			}
		}
		g.turn = 6
		table.Expect(t, e, []envtest.Want{{Action: `\boxed{2 4 e}`, Obs: "Congratulations! You completed the Crosswords puzzle!", Reward: letter, Terminated: true, Success: true, Parsed: `\boxed{2 4 E}`}})
	})
}

func TestObservations(t *testing.T) {
	e := envtest.Make(t, registry(t), "game:Crosswords-v0-hard", nil)
	obs, _, err := e.Reset(4)
	if err != nil {
		t.Fatal(err)
	}
	want := "You are playing Crosswords.\n" +
		"Here is the current state of the Crosswords grid. Each row and column are numbered.\n" +
		"The cells that need to be populated with letters are represented by '_', and those that do not need words are represented by '.'.\n\n" +
		"You can only provide one response per turn. Hence, plan your approach and risk appetite.\n" +
		"Only guesses in the format of \\boxed{row column letter} will be fetched from your response, e.g. \\boxed{0 0 d}, \\boxed{1 2 G}.\n" +
		"you have to finish the game in a maximum of 40 turns.\n" +
		"As you play, the history of your choices will be appended below. Use the information to complete the game."
	if obs != want {
		t.Errorf("reset observation:\n%s\nwant\n%s", obs, want)
	}

	g := inner(e)
	if err := g.install(5, handPuzzle); err != nil {
		t.Fatal(err)
	}
	cluesText := "Here are the clues for the words you need to find:\n" +
		"1. " + clue(t, "stone") + " (across): 5 letters\n" +
		"2. " + clue(t, "ton") + " (down): 3 letters\n" +
		"Enter your guess."
	wantBoard := "Current Board:\n" +
		"   C00 C01 C02 C03 C04\n" +
		"R00  .   .   .   .   .  \n" +
		"R01  .   .   .   .   .  \n" +
		"R02  _   _   _   _   _  \n" +
		"R03  .   _   .   .   .  \n" +
		"R04  .   _   .   .   .  \n"
	if got := g.info().Suffix; got != wantBoard+cluesText {
		t.Errorf("suffix:\n%s\nwant\n%s", got, wantBoard+cluesText)
	}
	res, err := e.Step(`\boxed{3 1 o}`)
	if err != nil {
		t.Fatal(err)
	}
	wantBoard = strings.Replace(wantBoard, "R03  .   _ ", "R03  .   O ", 1)
	if res.Info.Suffix != wantBoard+cluesText {
		t.Errorf("suffix after a letter:\n%s\nwant\n%s", res.Info.Suffix, wantBoard+cluesText)
	}
}

// checkPuzzle verifies everything the generator promises about g's puzzle.
func checkPuzzle(t *testing.T, g *Env, hardcore bool, n, maxTurns int) {
	t.Helper()
	p := poolFor(hardcore)
	if len(g.placed) != n {
		t.Fatalf("%d words placed, want %d", len(g.placed), n)
	}
	longest := len(g.placed[0].word)
	if g.size != wordgrid.Size(longest) {
		t.Fatalf("grid %d for a longest word of %d", g.size, longest)
	}
	first := g.placed[0]
	if r, c := first.row, first.col; (first.down && (c != g.size/2 || r != (g.size-longest)/2)) || (!first.down && (r != g.size/2 || c != (g.size-longest)/2)) {
		t.Fatalf("first word %+v not centred on a %d grid", first, g.size)
	}
	covered := make([]int, g.size*g.size)
	var seen []string
	for i, w := range g.placed {
		if slices.Contains(seen, w.word) {
			t.Fatalf("word %q twice", w.word)
		}
		seen = append(seen, w.word)
		if len(w.word) < p.minLen || len(w.word) > p.maxLen || !slices.Contains(words.Words(len(w.word)), w.word) {
			t.Fatalf("word %q not a common word of %d-%d letters", w.word, p.minLen, p.maxLen)
		}
		if i > 0 && len(w.word) > len(g.placed[i-1].word) {
			t.Fatalf("words not longest first: %q after %q", w.word, g.placed[i-1].word)
		}
		if c, _ := words.Clue(w.word); w.clue != c || c == "" {
			t.Fatalf("word %q has clue %q", w.word, w.clue)
		}
		dr, dc := wordgrid.Delta(w.down)
		for k := range len(w.word) {
			r, c := w.row+k*dr, w.col+k*dc
			if r < 0 || c < 0 || r >= g.size || c >= g.size {
				t.Fatalf("word %+v leaves the grid", w)
			}
			if g.solution[r*g.size+c] != w.word[k] {
				t.Fatalf("cell (%d,%d) holds %c, word %q needs %c: a bad crossing", r, c, g.solution[r*g.size+c], w.word, w.word[k])
			}
			covered[r*g.size+c]++
		}
	}
	letters := 0
	for i, c := range g.solution {
		switch {
		case c == black && covered[i] != 0, c != black && covered[i] == 0:
			t.Fatalf("cell %d is %c but covered by %d words", i, c, covered[i])
		case covered[i] > 2:
			t.Fatalf("cell %d covered by %d words", i, covered[i])
		}
		if c != black {
			letters++
		}
		if want := byte(blank); c == black {
			if g.board[i] != black {
				t.Fatalf("board shows %c over a black cell", g.board[i])
			}
		} else if g.board[i] != want {
			t.Fatalf("board shows %c over a letter cell at reset", g.board[i])
		}
	}
	if letters != g.letters || letters > maxTurns {
		t.Fatalf("%d letters (counted %d) for %d turns", letters, g.letters, maxTurns)
	}
	// The crossword rules: every run of two or more letters, across or down,
	// is exactly one of the words, so the grid shows where the words are.
	runs := map[placement]bool{}
	for _, down := range []bool{false, true} {
		for line := range g.size {
			start := -1
			for k := 0; k <= g.size; k++ {
				r, c := line, k
				if down {
					r, c = k, line
				}
				if k < g.size && g.solution[r*g.size+c] != black {
					if start < 0 {
						start = k
					}
					continue
				}
				if start >= 0 && k-start >= 2 {
					p := placement{row: line, col: start, down: down}
					if down {
						p.row, p.col = start, line
					}
					dr, dc := wordgrid.Delta(down)
					var b []byte
					for j := range k - start {
						b = append(b, g.solution[(p.row+j*dr)*g.size+p.col+j*dc])
					}
					p.word = string(b)
					runs[p] = true
				}
				start = -1
			}
		}
	}
	if len(runs) != n {
		t.Fatalf("%d runs of letters for %d words: %v", len(runs), n, runs)
	}
	for _, w := range g.placed {
		if !runs[placement{word: w.word, row: w.row, col: w.col, down: w.down}] {
			t.Fatalf("word %+v is not a run of its own: %v", w, runs)
		}
	}
}

func TestGenerator(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct {
		id       string
		hardcore []bool
		turns    int
	}{
		{"game:Crosswords-v0-easy", []bool{false}, 30},
		{"game:Crosswords-v0-hard", []bool{true}, 40},
		{"game:Crosswords-v0-random", []bool{false, true}, 20},
	} {
		t.Run(tt.id, func(t *testing.T) {
			e := envtest.Make(t, r, tt.id, nil)
			g := inner(e)
			hardcore, crossed, puzzles := map[bool]int{}, 0, map[string]bool{}
			for seed := range uint64(400) {
				if _, _, err := e.Reset(seed); err != nil {
					t.Fatal(err)
				}
				if g.maxTurns != tt.turns || g.numWords != 3 || !slices.Contains(tt.hardcore, g.hardcore) {
					t.Fatalf("seed %d: %d turns, %d words, hardcore %v", seed, g.maxTurns, g.numWords, g.hardcore)
				}
				hardcore[g.hardcore]++
				checkPuzzle(t, g, g.hardcore, 3, g.maxTurns)
				if total := 0; true {
					for _, w := range g.placed {
						total += len(w.word)
					}
					if total > g.letters {
						crossed++
					}
				}
				puzzles[string(g.solution)] = true
			}
			if len(hardcore) != len(tt.hardcore) {
				t.Errorf("hardcore draws %v", hardcore)
			}
			if crossed < 200 || len(puzzles) < 390 {
				t.Errorf("%d of 400 puzzles have a crossing, %d distinct", crossed, len(puzzles))
			}
			t.Logf("hardcore %v; %d/400 with crossings", hardcore, crossed)
		})
	}
}

// TestGeneratorTightLimits: every limit Validate accepts yields puzzles that
// fit it, down to the fewest letters the words can have.
func TestGeneratorTightLimits(t *testing.T) {
	for _, hardcore := range []bool{false, true} {
		p := poolFor(hardcore)
		for n := 1; n <= maxWords; n++ {
			lo, hi := minTurns(p, n), n*p.maxLen
			for turns := lo; turns <= hi; turns++ {
				e := &Env{opts: Options{&hardcore, &turns, &n}}
				if err := e.opts.Validate(); err != nil {
					t.Fatal(err)
				}
				for seed := range uint64(12) {
					if _, _, err := e.Reset(seed); err != nil {
						t.Fatalf("hardcore %v, %d words, %d turns, seed %d: %v", hardcore, n, turns, seed, err)
					}
					checkPuzzle(t, e, hardcore, n, turns)
				}
			}
			low := lo - 1
			if err := (Options{&hardcore, &low, &n}).Validate(); err == nil {
				t.Errorf("hardcore %v, %d words: %d turns accepted", hardcore, n, low)
			}
		}
	}
}

var actionRE = regexp.MustCompile(`^\\boxed\{(\d+) (\d+) ([A-Z])\}$`)

func TestRandomActions(t *testing.T) {
	r := registry(t)
	rng := envs.NewRand(3)
	for _, id := range ids {
		e, _ := r.Make(id, nil)
		if a := e.SampleRandomAction(rng); !actionRE.MatchString(a) {
			t.Fatalf("%s before Reset: %q", id, a)
		}
		for seed := range uint64(50) {
			if _, _, err := e.Reset(seed); err != nil {
				t.Fatal(err)
			}
			g := inner(e)
			for {
				a := e.SampleRandomAction(rng)
				m := actionRE.FindStringSubmatch(a)
				if m == nil || envs.LastMatch(actionPattern, a) == nil {
					t.Fatalf("%s: random action %q does not parse", id, a)
				}
				row, _ := number(m[1])
				col, _ := number(m[2])
				if g.board[row*g.size+col] != blank {
					t.Fatalf("%s: random action %q targets a cell that is not empty", id, a)
				}
				res, err := e.Step(a)
				if err != nil {
					t.Fatal(err)
				}
				if res.Info.FormatError || res.Info.InvalidAction {
					t.Fatalf("%s: random action %q rejected: %s", id, a, res.Observation)
				}
				if res.Done() {
					break
				}
			}
		}
	}
}

func TestConformance(t *testing.T) { envtest.RunAll(t, registry(t), ids...) }

func TestOracleWinsEverySeed(t *testing.T) {
	r := registry(t)
	for _, id := range ids {
		spec, _ := r.Lookup(id)
		e := envtest.Make(t, r, id, nil)
		wins, longest := 0, 0
		for tr := range envtest.OracleEpisodes(t, e, 200, spec.MaxTurns) {
			if tr.Success() && len(tr.Steps) == inner(e).letters && math.Abs(tr.Return()-1) < 1e-9 {
				wins++
			}
			for _, s := range tr.Steps {
				if s.Reward > spec.RewardMax+1e-12 {
					t.Fatalf("%s seed %d: reward %v above RewardMax %v", id, tr.Seed, s.Reward, spec.RewardMax)
				}
			}
			longest = max(longest, len(tr.Steps))
		}
		if wins != 200 {
			t.Errorf("%s: oracle solved %d/200 with one turn per letter and a return of 1", id, wins)
		}
		t.Logf("%s: oracle won %d/200, longest game %d turns", id, wins, longest)
	}
}

func TestSpecs(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct {
		id        string
		turns     int
		rewardMax float64
		defaults  map[string]any
	}{
		{"game:Crosswords-v0-easy", 30, 1.0 / 7, map[string]any{"hardcore": false, "max_turns": 30.0, "num_words": 3.0}},
		{"game:Crosswords-v0-hard", 40, 1.0 / 19, map[string]any{"hardcore": true, "max_turns": 40.0, "num_words": 3.0}},
		{"game:Crosswords-v0-random", 20, 1.0 / 7, map[string]any{"hardcore": nil, "max_turns": nil, "num_words": nil}},
	} {
		s, err := r.Lookup(tt.id)
		if err != nil {
			t.Fatal(err)
		}
		if s.MaxTurns != tt.turns || s.RewardMin != -0.1 || math.Abs(s.RewardMax-tt.rewardMax) > 1e-15 || s.Revision != 1 || s.DataDigest != words.Digest() {
			t.Errorf("%s: spec %+v", tt.id, s)
		}
		if d := s.Defaults(); len(d) != len(tt.defaults) {
			t.Errorf("%s: defaults %v, want %v", tt.id, d, tt.defaults)
		} else {
			for k, v := range tt.defaults {
				if d[k] != v {
					t.Errorf("%s: default %s = %v, want %v", tt.id, k, d[k], v)
				}
			}
		}
	}
}

func TestOptionErrors(t *testing.T) {
	r := registry(t)
	envtest.OptionErrors(t, r, "game:Crosswords-v0-easy", []envtest.OptionCase{
		{Options: map[string]any{"num_words": 0}, Option: "num_words"},
		{Options: map[string]any{"num_words": 6}, Option: "num_words"},
		{Options: map[string]any{"num_words": "three"}, Option: "num_words"},
		{Options: map[string]any{"max_turns": 0}, Option: "max_turns"},
		{Options: map[string]any{"max_turns": 6}, Option: "max_turns"},                    // 3 easy words need 7
		{Options: map[string]any{"hardcore": true, "max_turns": 18}, Option: "max_turns"}, // 3 hardcore words need 19
		{Options: map[string]any{"num_words": 4, "max_turns": 23}, Option: "max_turns"},   // 4 words need 4 × 6
		{Options: map[string]any{"hardcore": "yes"}, Option: "hardcore"},
		{Options: map[string]any{"num_words": 0, "max_turns": nil}, Option: "num_words"}, // checked in a random game too
		{Options: map[string]any{"word_length": 5}, Option: "word_length"},
	})
	envtest.OptionsAccepted(t, r, "game:Crosswords-v0-easy",
		map[string]any{"max_turns": 7},
		map[string]any{"hardcore": true, "max_turns": 19},
		map[string]any{"num_words": 5, "max_turns": 30},
		map[string]any{"num_words": 1, "max_turns": 3},
		map[string]any{"hardcore": nil, "max_turns": 1}, // random: GEM's settings replace max_turns
	)
	e, err := r.Make("game:Crosswords-v0-easy", map[string]any{"num_words": 2, "max_turns": 9, "hardcore": true})
	if err == nil {
		t.Fatal("2 hardcore words in 9 turns accepted")
	}
	e = envtest.Make(t, r, "game:Crosswords-v0-easy", map[string]any{"num_words": 2, "max_turns": 13, "hardcore": true})
	if _, _, err := e.Reset(5); err != nil {
		t.Fatal(err)
	}
	if g := inner(e); len(g.placed) != 2 || g.maxTurns != 13 || !g.hardcore || g.letters > 13 {
		t.Fatalf("options not applied: %d words, %d turns, hardcore %v, %d letters", len(g.placed), g.maxTurns, g.hardcore, g.letters)
	}
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkSteps(b, registry(b), ids...) }
