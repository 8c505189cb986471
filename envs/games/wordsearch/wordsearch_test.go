package wordsearch

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

var ids = []string{"game:WordSearch-v0-easy", "game:WordSearch-v0-hard", "game:WordSearch-v0-random"}

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

func inner(e envs.Env) *Env { return e.(envs.Unwrapper).Unwrap().(*Env) }

// handGrid hides CAT across from (0,0), TEA down from (0,2) and DOG across
// from (4,2); no word can be read anywhere else, either way.
var (
	handGrid = []byte("" +
		"CATXZ" +
		"QZEQX" +
		"XQAZQ" +
		"ZXQXZ" +
		"QZDOG")
	handWords = []placement{{"CAT", 0, 0, false}, {"TEA", 0, 2, true}, {"DOG", 4, 2, false}}
)

// game returns a reset -easy env playing handGrid with the given limit.
func game(t *testing.T, maxTurns int) (envs.Env, *Env) {
	t.Helper()
	e := envtest.MakeReset(t, registry(t), "game:WordSearch-v0-easy", 1)
	g := inner(e)
	g.install(5, handGrid, handWords)
	g.maxTurns = maxTurns
	return e, g
}

// table plays the rule tables: every step shows the board and asks for a guess.
var table = envtest.Table{ComparesParsed: true, Each: envtest.SuffixFramed("Current Board:\n", "\nEnter your guess.")}

func TestRules(t *testing.T) {
	const word = 1.0 / 3
	t.Run("words, illegal moves and a win", func(t *testing.T) {
		e, _ := game(t, 20)
		table.Expect(t, e, []envtest.Want{
			{Action: `It is \boxed{0 0 0 2}`, Obs: "At turn 1, correct! You found the word 'CAT' at coordinates (0, 0) to (0, 2).", Reward: word, Parsed: `\boxed{0 0 0 2}`},
			// GEM pays CAT again when given end first; Quarry does not.
			{Action: `\boxed{0 2 0 0}`, Obs: "At turn 2, you have already found the word 'CAT'.", InvalidAction: true, Parsed: `\boxed{0 2 0 0}`},
			{Action: `\boxed{0 0 0 2}`, Obs: "At turn 3, you have already tried the coordinates (0, 0) to (0, 2).", InvalidAction: true, Parsed: `\boxed{0 0 0 2}`},
			{Action: `\boxed{0 0 5 0}`, Obs: "At turn 4, your tried coordinates (0, 0) to (5, 0) are out of bounds.", InvalidAction: true, Parsed: `\boxed{0 0 5 0}`},
			// Bounds come before repeats, as in GEM.
			{Action: `\boxed{0 0 5 0}`, Obs: "At turn 5, your tried coordinates (0, 0) to (5, 0) are out of bounds.", InvalidAction: true, Parsed: `\boxed{0 0 5 0}`},
			{Action: `\boxed{0 0 2 2}`, Obs: "At turn 6, you tried (0, 0) to (2, 2), which is not valid because words must be either across (horizontal) or down (vertical).", InvalidAction: true, Parsed: `\boxed{0 0 2 2}`},
			// A wrong span is a legal move: no reward, not invalid; part of a word is wrong.
			{Action: `\boxed{1 0 1 2}`, Obs: "At turn 7, incorrect attempt. No word found at coordinates (1, 0) to (1, 2).", Parsed: `\boxed{1 0 1 2}`},
			{Action: `\boxed{1 0 1 2}`, Obs: "At turn 8, you have already tried the coordinates (1, 0) to (1, 2).", InvalidAction: true, Parsed: `\boxed{1 0 1 2}`},
			{Action: `\boxed{4 2 4 3}`, Obs: "At turn 9, incorrect attempt. No word found at coordinates (4, 2) to (4, 3).", Parsed: `\boxed{4 2 4 3}`},
			{Action: `\boxed{3 3 3 3}`, Obs: "At turn 10, incorrect attempt. No word found at coordinates (3, 3) to (3, 3).", Parsed: `\boxed{3 3 3 3}`},
			{Action: `\boxed{0 0 99999999999 0}`, Obs: "At turn 11, your tried coordinates (0, 0) to (99999999999, 0) are out of bounds.", InvalidAction: true, Parsed: `\boxed{0 0 99999999999 0}`},
			// End first is fine for a word not yet found; the last fitting box counts.
			{Action: "\\boxed{0 0 0 1} \\boxed{2\t2\n0  2} \\boxed{1 1}", Obs: "At turn 12, correct! You found the word 'TEA' at coordinates (2, 2) to (0, 2).", Reward: word, Parsed: `\boxed{2 2 0 2}`},
			{Action: `\boxed{04 2 4 004}`, Obs: "Congratulations! You completed the Word Search puzzle!", Reward: word, Terminated: true, Success: true, Parsed: `\boxed{4 2 4 4}`},
		})
	})
	t.Run("unparseable ends the episode", func(t *testing.T) {
		for _, a := range []string{`\boxed{[0 0 0 2]}`, `\boxed{0 0 0}`, `\boxed{0 0 0 2 3}`, `\boxed{a b c d}`, "0 0 0 2", `\boxed{-1 0 0 2}`, `\boxed{0,0,0,2}`} {
			e, _ := game(t, 20)
			table.Expect(t, e, []envtest.Want{{Action: a, Obs: "At turn 1, you did not provide a valid guess in \\boxed{start_row start_col end_row end_col} format.", Reward: -0.1, Terminated: true, FormatError: true}})
		}
	})
	t.Run("max turns", func(t *testing.T) {
		e, _ := game(t, 2)
		table.Expect(t, e, []envtest.Want{
			{Action: `\boxed{0 0 0 2}`, Obs: "At turn 1, correct! You found the word 'CAT' at coordinates (0, 0) to (0, 2).", Reward: word, Parsed: `\boxed{0 0 0 2}`},
			// The last turn keeps its own reward.
			{Action: `\boxed{0 2 2 2}`, Obs: "You have reached the maximum number of turns.", Reward: word, Terminated: true, Truncated: true, Parsed: `\boxed{0 2 2 2}`},
		})
	})
	t.Run("invalid on the last turn", func(t *testing.T) {
		e, _ := game(t, 1)
		table.Expect(t, e, []envtest.Want{{Action: `\boxed{0 0 1 1}`, Obs: "You have reached the maximum number of turns.", Terminated: true, Truncated: true, InvalidAction: true, Parsed: `\boxed{0 0 1 1}`}})
	})
	t.Run("format error on the last turn is also truncated", func(t *testing.T) {
		e, _ := game(t, 1)
		table.Expect(t, e, []envtest.Want{{Action: "CAT", Obs: "At turn 1, you did not provide a valid guess in \\boxed{start_row start_col end_row end_col} format.", Reward: -0.1, Terminated: true, Truncated: true, FormatError: true}})
	})
	t.Run("a win on the last turn is not truncated", func(t *testing.T) {
		e, _ := game(t, 3)
		table.Expect(t, e, []envtest.Want{
			{Action: `\boxed{4 4 4 2}`, Obs: "At turn 1, correct! You found the word 'DOG' at coordinates (4, 4) to (4, 2).", Reward: word, Parsed: `\boxed{4 4 4 2}`},
			{Action: `\boxed{0 2 2 2}`, Obs: "At turn 2, correct! You found the word 'TEA' at coordinates (0, 2) to (2, 2).", Reward: word, Parsed: `\boxed{0 2 2 2}`},
			{Action: `\boxed{0 0 0 2}`, Obs: "Congratulations! You completed the Word Search puzzle!", Reward: word, Terminated: true, Success: true, Parsed: `\boxed{0 0 0 2}`},
		})
	})
}

func TestObservations(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct{ id, level string }{{"game:WordSearch-v0-easy", "Basic"}, {"game:WordSearch-v0-hard", "Hardcore"}} {
		e := envtest.Make(t, r, tt.id, nil)
		obs, _, err := e.Reset(4)
		if err != nil {
			t.Fatal(err)
		}
		want := "You are participating in a Word Search challenge (" + tt.level + ").\n" +
			"The objective is to find and highlight hidden words on the grid below.\n" +
			"The rows and columns are numbered for your reference.\n\n" +
			"Words you have already found are marked in square brackets [ ].\n" +
			"Each row and column is numbered for clarity.\n\n" +
			"To locate a word, specify the row and column of its start and end letters.\n" +
			"Note that words are either across (horizontal) or down (vertical).\n" +
			"Use the format \\boxed{start_row start_col end_row end_col} for submission.\n" +
			"For instance: \\boxed{1 1 1 5} to find a word from row 1, col 1 to row 1, col 5.\n\n" +
			"Guidelines:\n" +
			"- you have a maximum of 20 turns to find all the words.\n" +
			"- Each guess must be unique; you cannot repeat the same guess.\n" +
			"- The history of your attempts will be recorded below.\n" +
			"- Make your guesses carefully and strategically!"
		if obs != want {
			t.Errorf("%s reset observation:\n%s\nwant\n%s", tt.id, obs, want)
		}
	}

	e, g := game(t, 20)
	want := "Current Board:\n" +
		"   C00 C01 C02 C03 C04\n" +
		"R00  C   A   T   X   Z  \n" +
		"R01  Q   Z   E   Q   X  \n" +
		"R02  X   Q   A   Z   Q  \n" +
		"R03  Z   X   Q   X   Z  \n" +
		"R04  Q   Z   D   O   G  \n" +
		"Words Found: 0/3\n" +
		"Enter your guess."
	if got := g.info().Suffix; got != want {
		t.Errorf("suffix:\n%s\nwant\n%s", got, want)
	}
	res, err := e.Step(`\boxed{2 2 0 2}`)
	if err != nil {
		t.Fatal(err)
	}
	want = "Current Board:\n" +
		"   C00 C01 C02 C03 C04\n" +
		"R00  C   A  [T]  X   Z  \n" +
		"R01  Q   Z  [E]  Q   X  \n" +
		"R02  X   Q  [A]  Z   Q  \n" +
		"R03  Z   X   Q   X   Z  \n" +
		"R04  Q   Z   D   O   G  \n" +
		"Words Found: 1/3\n" +
		"Enter your guess."
	if res.Info.Suffix != want {
		t.Errorf("suffix after TEA:\n%s\nwant\n%s", res.Info.Suffix, want)
	}
}

func TestOccurrences(t *testing.T) {
	g := &generator{size: 5, cells: slices.Clone(handGrid)}
	for w, want := range map[string]int{"CAT": 1, "TAC": 1, "TEA": 1, "DOG": 1, "GOD": 1, "QXZ": 5, "XQX": 1, "ZXZ": 0, "QZD": 1, "CAQ": 0} {
		if got := g.occurrences(w); got != want {
			t.Errorf("occurrences(%s) = %d, want %d", w, got, want)
		}
	}
}

// readings lists every string of n letters read across or down, either way,
// with its span: a direct count, independent of generator.occurrences.
func readings(grid []byte, size, n int) map[string]int {
	out := map[string]int{}
	for r := range size {
		for c := range size {
			for _, down := range []bool{false, true} {
				dr, dc := wordgrid.Delta(down)
				if r+dr*(n-1) >= size || c+dc*(n-1) >= size {
					continue
				}
				b := make([]byte, n)
				for k := range n {
					b[k] = grid[(r+dr*k)*size+c+dc*k]
				}
				fwd := string(b)
				slices.Reverse(b)
				out[fwd]++
				if rev := string(b); rev != fwd {
					out[rev]++
				}
			}
		}
	}
	return out
}

func TestGenerator(t *testing.T) {
	r := registry(t)
	extendedOnly := func(w string) bool { return !slices.Contains(words.Words(len(w)), w) }
	for _, tt := range []struct {
		id       string
		hardcore []bool
	}{
		{"game:WordSearch-v0-easy", []bool{false}},
		{"game:WordSearch-v0-hard", []bool{true}},
		{"game:WordSearch-v0-random", []bool{false, true}},
	} {
		t.Run(tt.id, func(t *testing.T) {
			e := envtest.Make(t, r, tt.id, nil)
			g := inner(e)
			hardcore, shared, rare, grids := map[bool]int{}, 0, 0, map[string]bool{}
			for seed := range uint64(400) {
				if _, _, err := e.Reset(seed); err != nil {
					t.Fatal(err)
				}
				if g.maxTurns != 20 || g.numWords != 5 || !slices.Contains(tt.hardcore, g.hardcore) {
					t.Fatalf("seed %d: %d turns, %d words, hardcore %v", seed, g.maxTurns, g.numWords, g.hardcore)
				}
				hardcore[g.hardcore]++
				if len(g.placed) != 5 {
					t.Fatalf("seed %d: %d words placed", seed, len(g.placed))
				}
				longest := len(g.placed[0].word)
				if g.size != wordgrid.Size(longest) || len(g.grid) != g.size*g.size {
					t.Fatalf("seed %d: grid %d for a longest word of %d", seed, g.size, longest)
				}
				for _, c := range g.grid {
					if c < 'A' || c > 'Z' {
						t.Fatalf("seed %d: cell %q", seed, c)
					}
				}
				cells := map[int]int{}
				total := 0
				for i, w := range g.placed {
					lower := strings.ToLower(w.word)
					inPool := slices.Contains(words.Words(len(w.word)), lower)
					if g.hardcore {
						inPool = slices.Contains(words.Extended(len(w.word)), lower)
						if extendedOnly(lower) {
							rare++
						}
					}
					if !inPool || w.word != strings.ToUpper(w.word) {
						t.Fatalf("seed %d: %q is not from the pool (hardcore %v)", seed, w.word, g.hardcore)
					}
					if i > 0 && len(w.word) > len(g.placed[i-1].word) {
						t.Fatalf("seed %d: words not longest first", seed)
					}
					for _, o := range g.placed[:i] {
						if o.word == w.word {
							t.Fatalf("seed %d: %q twice", seed, w.word)
						}
					}
					dr, dc := wordgrid.Delta(w.down)
					for k := range len(w.word) {
						r, c := w.row+k*dr, w.col+k*dc
						if r < 0 || c < 0 || r >= g.size || c >= g.size || g.grid[r*g.size+c] != w.word[k] {
							t.Fatalf("seed %d: %+v cannot be read at its place", seed, w)
						}
						cells[r*g.size+c]++
						total++
					}
					// Exactly one place in the grid reads the word, either way.
					if n := readings(g.grid, g.size, len(w.word))[w.word]; n != 1 {
						t.Fatalf("seed %d: %q can be read in %d places:\n%s", seed, w.word, n, g.suffix())
					}
				}
				if len(cells) < total {
					shared++
				}
				first := g.placed[0]
				if r, c := first.row, first.col; (first.down && (c != g.size/2 || r != (g.size-longest)/2)) || (!first.down && (r != g.size/2 || c != (g.size-longest)/2)) {
					t.Fatalf("seed %d: first word %+v not centred", seed, first)
				}
				grids[string(g.grid)] = true
			}
			if len(hardcore) != len(tt.hardcore) {
				t.Errorf("hardcore draws %v", hardcore)
			}
			if shared < 200 || len(grids) != 400 {
				t.Errorf("%d of 400 grids have words sharing a cell; %d distinct grids", shared, len(grids))
			}
			if hardcore[true] > 0 && rare < hardcore[true] {
				t.Errorf("hardcore grids hide only %d rare words in %d games", rare, hardcore[true])
			}
			t.Logf("hardcore %v; %d/400 with shared cells; %d rare words", hardcore, shared, rare)
		})
	}
}

var actionRE = regexp.MustCompile(`^\\boxed\{(\d+) (\d+) (\d+) (\d+)\}$`)

func TestRandomActions(t *testing.T) {
	r := registry(t)
	rng := envs.NewRand(3)
	for _, id := range ids {
		e, _ := r.Make(id, nil)
		if a := e.SampleRandomAction(rng); !actionRE.MatchString(a) {
			t.Fatalf("%s before Reset: %q", id, a)
		}
		for seed := range uint64(30) {
			if _, _, err := e.Reset(seed); err != nil {
				t.Fatal(err)
			}
			g := inner(e)
			for range 20 {
				a := e.SampleRandomAction(rng)
				m := actionRE.FindStringSubmatch(a)
				if m == nil || envs.LastMatch(actionPattern, a) == nil {
					t.Fatalf("%s: random action %q does not parse", id, a)
				}
				for _, s := range m[1:] {
					if n, _ := number(s); n >= g.size {
						t.Fatalf("%s: random action %q leaves the grid", id, a)
					}
				}
			}
		}
	}
}

func TestConformance(t *testing.T) { envtest.RunAll(t, registry(t), ids...) }

func TestOracleWinsEverySeed(t *testing.T) {
	r := registry(t)
	for _, id := range ids {
		wins := 0
		_, trs := envtest.OracleWins(t, r, id, 200)
		for _, tr := range trs {
			if tr.Success() && len(tr.Steps) == 5 && math.Abs(tr.Return()-1) < 1e-9 {
				wins++
			}
		}
		if wins != 200 {
			t.Errorf("%s: oracle solved %d/200 in five turns with a return of 1", id, wins)
		}
		t.Logf("%s: oracle won %d/200", id, wins)
	}
}

func TestSpecs(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct {
		id       string
		defaults map[string]any
	}{
		{"game:WordSearch-v0-easy", map[string]any{"hardcore": false, "max_turns": 20.0, "num_words": 5.0}},
		{"game:WordSearch-v0-hard", map[string]any{"hardcore": true, "max_turns": 20.0, "num_words": 5.0}},
		{"game:WordSearch-v0-random", map[string]any{"hardcore": nil, "max_turns": nil, "num_words": nil}},
	} {
		s, err := r.Lookup(tt.id)
		if err != nil {
			t.Fatal(err)
		}
		if s.MaxTurns != 20 || s.RewardMin != -0.1 || s.RewardMax != 0.2 || s.Revision != 1 || s.DataDigest != words.Digest() {
			t.Errorf("%s: spec %+v", tt.id, s)
		}
		d := s.Defaults()
		if len(d) != len(tt.defaults) {
			t.Errorf("%s: defaults %v, want %v", tt.id, d, tt.defaults)
		}
		for k, v := range tt.defaults {
			if d[k] != v {
				t.Errorf("%s: default %s = %v, want %v", tt.id, k, d[k], v)
			}
		}
	}
}

func TestOptionErrors(t *testing.T) {
	r := registry(t)
	envtest.OptionErrors(t, r, "game:WordSearch-v0-easy", []envtest.OptionCase{
		{Options: map[string]any{"num_words": 0}, Option: "num_words"},
		{Options: map[string]any{"num_words": 11}, Option: "num_words"},
		{Options: map[string]any{"num_words": "five"}, Option: "num_words"},
		{Options: map[string]any{"max_turns": 0}, Option: "max_turns"},
		{Options: map[string]any{"max_turns": 4}, Option: "max_turns"}, // five words need five turns
		{Options: map[string]any{"hardcore": "yes"}, Option: "hardcore"},
		{Options: map[string]any{"num_words": 0, "hardcore": nil}, Option: "num_words"}, // checked in a random game too
		{Options: map[string]any{"grid_size": 10}, Option: "grid_size"},
	})
	e := envtest.Make(t, r, "game:WordSearch-v0-easy", map[string]any{"num_words": 10, "max_turns": 10, "hardcore": true})
	for seed := range uint64(20) {
		if _, _, err := e.Reset(seed); err != nil {
			t.Fatal(err)
		}
		if g := inner(e); len(g.placed) != 10 || g.maxTurns != 10 || !g.hardcore {
			t.Fatalf("options not applied: %d words, %d turns, hardcore %v", len(g.placed), g.maxTurns, g.hardcore)
		}
	}
	if _, err := r.Make("game:WordSearch-v0-easy", map[string]any{"max_turns": nil, "num_words": 3}); err != nil {
		t.Fatalf("a random game's other options: %v", err)
	}
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkSteps(b, registry(b), ids...) }
