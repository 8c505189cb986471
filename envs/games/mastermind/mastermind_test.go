package mastermind

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
)

var ids = []string{"game:Mastermind-v0-easy", "game:Mastermind-v0-hard", "game:Mastermind-v0-random"}

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

func mustMake(t testing.TB, r *envs.Registry, id string, opts map[string]any) (envs.Env, *Env) {
	t.Helper()
	e := envtest.Make(t, r, id, opts)
	return e, e.(envs.Unwrapper).Unwrap().(*Env)
}

// game returns a reset env of id whose secret code is forced.
func game(t *testing.T, id string, opts map[string]any, code ...int) (envs.Env, *Env) {
	t.Helper()
	e, inner := mustMake(t, registry(t), id, opts)
	if _, _, err := e.Reset(1); err != nil {
		t.Fatal(err)
	}
	if len(code) != inner.codeLength {
		t.Fatalf("forced code %v has the wrong length for %s", code, id)
	}
	inner.code = append(inner.code[:0], code...)
	return e, inner
}

// table plays the rule tables: every step just asks for a guess.
var table = envtest.Table{Each: envtest.SuffixIs(suffix)}

// invalidSteps returns n wrong-length guesses starting at turn first.
func invalidSteps(first, n int) []envtest.Want {
	var out []envtest.Want
	for turn := first; turn < first+n; turn++ {
		out = append(out, envtest.Want{Action: `\boxed{1}`, Obs: fmt.Sprintf("At turn %d, you guessed [1] which has 1 entries but the code has length 2.", turn), InvalidAction: true})
	}
	return out
}

func TestRules(t *testing.T) {
	const easy = "game:Mastermind-v0-easy"
	tests := []struct {
		name  string
		id    string
		opts  map[string]any
		code  []int
		steps []envtest.Want
	}{
		{"pegs, dense reward and win", easy, nil, []int{3, 5}, []envtest.Want{
			{Action: `I guess \boxed{3 1}`, Obs: "At turn 1, you guessed [3, 1]. This guess receives 1 black peg(s) and 0 white peg(s).", Reward: 0.5},
			{Action: `\boxed{5 3}`, Obs: "At turn 2, you guessed [5, 3]. This guess receives 0 black peg(s) and 2 white peg(s)."},
			{Action: `\boxed{3 6}`, Obs: "At turn 3, you guessed [3, 6]. This guess receives 1 black peg(s) and 0 white peg(s)."}, // no new best
			{Action: `\boxed{3  5}`, Obs: "Congratulations! You guessed the correct code [3, 5] in 4 turns.", Reward: 0.5, Terminated: true, Success: true},
		}},
		{"wrong length", easy, nil, []int{3, 5}, []envtest.Want{
			{Action: `\boxed{1 2 3}`, Obs: "At turn 1, you guessed [1, 2, 3] which has 3 entries but the code has length 2.", InvalidAction: true},
			{Action: `\boxed{4}`, Obs: "At turn 2, you guessed [4] which has 1 entries but the code has length 2.", InvalidAction: true},
		}},
		{"digit out of range", easy, nil, []int{3, 5}, []envtest.Want{
			{Action: `\boxed{0 2}`, Obs: "At turn 1, you guessed [0, 2], which has numbers outside the range 1 to 6.", InvalidAction: true},
			{Action: `\boxed{2 7}`, Obs: "At turn 2, you guessed [2, 7], which has numbers outside the range 1 to 6.", InvalidAction: true},
			{Action: `\boxed{2 99999999999999999999999}`, Obs: "At turn 3, you guessed [2, 99999999999999999999999], which has numbers outside the range 1 to 6.", InvalidAction: true},
			{Action: `\boxed{04 002}`, Obs: "At turn 4, you guessed [4, 2]. This guess receives 0 black peg(s) and 0 white peg(s)."}, // leading zeros read as ints
		}},
		{"repeated guess", easy, nil, []int{3, 5}, []envtest.Want{
			{Action: `\boxed{1 2}`, Obs: "At turn 1, you guessed [1, 2]. This guess receives 0 black peg(s) and 0 white peg(s)."},
			{Action: "\\boxed{1\n2}", Obs: "At turn 2, you guessed [1, 2], which has been already guessed before.", InvalidAction: true},
			{Action: `\boxed{2 1}`, Obs: "At turn 3, you guessed [2, 1]. This guess receives 0 black peg(s) and 0 white peg(s)."},
		}},
		{"last matching box counts", easy, nil, []int{3, 5}, []envtest.Want{
			{Action: `\boxed{3 5} or rather \boxed{1 2}, not \boxed{x}`, Obs: "At turn 1, you guessed [1, 2]. This guess receives 0 black peg(s) and 0 white peg(s)."},
		}},
		{"unparseable ends the episode", easy, nil, []int{3, 5}, []envtest.Want{
			{Action: `\boxed{3,5}`, Obs: "At turn 1, you did not provide a valid guess.", Reward: -0.1, Terminated: true, FormatError: true},
		}},
		{"unparseable on the last turn is also truncated", easy, nil, []int{3, 5}, append(invalidSteps(1, 9),
			envtest.Want{Action: `\boxed{-3 5}`, Obs: "At turn 10, you did not provide a valid guess.", Reward: -0.1, Terminated: true, Truncated: true, FormatError: true})},
		{"max turns keeps the step's reward", easy, nil, []int{3, 5}, append(invalidSteps(1, 9),
			envtest.Want{Action: `\boxed{6 5}`, Obs: "You have reached the maximum number of turns.", Reward: 0.5, Terminated: true, Truncated: true})},
		{"max turns with an invalid guess", easy, nil, []int{3, 5}, append(invalidSteps(1, 9),
			envtest.Want{Action: `\boxed{1}`, Obs: "You have reached the maximum number of turns.", Terminated: true, Truncated: true, InvalidAction: true})},
		{"a win on the last turn is not truncated", easy, nil, []int{3, 5}, append(invalidSteps(1, 9),
			envtest.Want{Action: `\boxed{3 5}`, Obs: "Congratulations! You guessed the correct code [3, 5] in 10 turns.", Reward: 1, Terminated: true, Success: true})},
		{"duplicates: each code digit matches once", "game:Mastermind-v0-hard", map[string]any{"duplicate_numbers": true}, []int{1, 1, 2, 2}, []envtest.Want{
			{Action: `\boxed{2 1 1 3}`, Obs: "At turn 1, you guessed [2, 1, 1, 3]. This guess receives 1 black peg(s) and 2 white peg(s).", Reward: 0.25},
			{Action: `\boxed{1 1 1 1}`, Obs: "At turn 2, you guessed [1, 1, 1, 1]. This guess receives 2 black peg(s) and 0 white peg(s).", Reward: 0.25},
			{Action: `\boxed{2 2 1 1}`, Obs: "At turn 3, you guessed [2, 2, 1, 1]. This guess receives 0 black peg(s) and 4 white peg(s)."},
			{Action: `\boxed{1 1 2 2}`, Obs: "Congratulations! You guessed the correct code [1, 1, 2, 2] in 4 turns.", Reward: 0.5, Terminated: true, Success: true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := game(t, tt.id, tt.opts, tt.code...)
			table.Expect(t, e, tt.steps)
		})
	}
}

func TestParsedAction(t *testing.T) {
	e, _ := game(t, "game:Mastermind-v0-easy", nil, 3, 5)
	res, _ := e.Step("\\boxed{01   4}")
	if res.Info.ParsedAction != `\boxed{1 4}` {
		t.Fatalf("ParsedAction = %q, want %q", res.Info.ParsedAction, `\boxed{1 4}`)
	}
}

func TestScore(t *testing.T) {
	for _, tt := range []struct {
		code, guess  []int
		black, white int
	}{
		{[]int{1, 2, 3, 4}, []int{1, 2, 3, 4}, 4, 0},
		{[]int{1, 2, 3, 4}, []int{4, 3, 2, 1}, 0, 4},
		{[]int{1, 2, 3, 4}, []int{5, 6, 7, 8}, 0, 0},
		{[]int{1, 1, 2, 2}, []int{1, 2, 1, 3}, 1, 2},
		{[]int{1, 2, 2, 2}, []int{2, 1, 1, 1}, 0, 2},
		{[]int{6, 6, 6, 1}, []int{1, 6, 1, 1}, 2, 0},
	} {
		used := make([]bool, len(tt.code))
		b, w := score(tt.code, tt.guess, used)
		b2, w2 := score(tt.guess, tt.code, used)
		if b != tt.black || w != tt.white || b2 != b || w2 != w {
			t.Errorf("score(%v, %v) = %d,%d (swapped %d,%d), want %d,%d", tt.code, tt.guess, b, w, b2, w2, tt.black, tt.white)
		}
	}
}

var exampleAction = regexp.MustCompile(`for example, (\\boxed\{[^}]*\})\.`)

func TestResetObservation(t *testing.T) {
	for _, tt := range []struct {
		id      string
		opts    map[string]any
		allowed string
	}{
		{"game:Mastermind-v0-easy", nil, "not allowed"},
		{"game:Mastermind-v0-easy", map[string]any{"duplicate_numbers": true}, "allowed"},
	} {
		e, inner := mustMake(t, registry(t), tt.id, tt.opts)
		obs, info, err := e.Reset(7)
		if err != nil {
			t.Fatal(err)
		}
		m := exampleAction.FindStringSubmatch(obs)
		if m == nil {
			t.Fatalf("no example action in %q", obs)
		}
		want := "You are playing Mastermind.\n" +
			"You have to guess the secret 2 digit code within 10 turns.\n" +
			"The code consists of digits from 1 to 6 (inclusive). Duplicate numbers are " + tt.allowed + ".\n" +
			"After you enter your guess, I will say mark your guess with black and white pegs, where a black peg indicates a correct digit in the correct position, while a white peg indicates a correct digit in the wrong position.\n" +
			"After thinking, format your final answer inside \\boxed{...}, for example, " + m[1] + ".\n" +
			"As you play, the history of your guesses will be appended below. Use the information to complete the game before you run out of guesses.\n" +
			"Enter your first guess to start the game.\n"
		if obs != want {
			t.Fatalf("reset observation:\n got %q\nwant %q", obs, want)
		}
		if info.Suffix != "" {
			t.Fatalf("reset suffix %q; GEM's reset returns no info", info.Suffix)
		}
		// The example is a well-formed guess of distinct in-range digits.
		if !actionPattern.MatchString(m[1]) || !inner.parseGuess(strings.Fields(m[1][len(`\boxed{`):len(m[1])-1])) || inner.guess[0] == inner.guess[1] {
			t.Fatalf("example %q is not a valid distinct guess", m[1])
		}
	}
}

func TestVariants(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct {
		id   string
		want config
	}{
		{"game:Mastermind-v0-easy", config{2, 6, 10}},
		{"game:Mastermind-v0-hard", config{4, 8, 30}},
	} {
		e, g := mustMake(t, r, tt.id, nil)
		for seed := range uint64(50) {
			e.Reset(seed)
			if g.config != tt.want {
				t.Fatalf("%s: config %+v, want %+v", tt.id, g.config, tt.want)
			}
			checkCode(t, g, false)
		}
	}
	e, g := mustMake(t, r, "game:Mastermind-v0-random", nil)
	seen := map[config]bool{}
	for seed := range uint64(200) {
		obs, _, _ := e.Reset(seed)
		if !slices.Contains(randomConfigs, g.config) {
			t.Fatalf("seed %d: config %+v is not one of GEM's", seed, g.config)
		}
		if !strings.Contains(obs, fmt.Sprintf("secret %d digit code within %d turns", g.codeLength, g.maxTurns)) {
			t.Fatalf("seed %d: prompt does not state the drawn configuration: %q", seed, obs)
		}
		checkCode(t, g, false)
		seen[g.config] = true
	}
	if len(seen) != len(randomConfigs) {
		t.Fatalf("random variant drew only %v", seen)
	}
}

func TestDuplicateNumbers(t *testing.T) {
	r := registry(t)
	for _, dup := range []bool{false, true} {
		e, g := mustMake(t, r, "game:Mastermind-v0-easy", map[string]any{"duplicate_numbers": dup})
		repeats := 0
		for seed := range uint64(200) {
			e.Reset(seed)
			checkCode(t, g, dup)
			if g.code[0] == g.code[1] {
				repeats++
			}
		}
		// With duplicates, a 2-digit code over 6 digits repeats 1/6 of the time.
		if dup && repeats == 0 {
			t.Fatal("duplicate_numbers=true never drew a repeated digit in 200 codes")
		}
	}
}

func checkCode(t *testing.T, g *Env, dup bool) {
	t.Helper()
	if len(g.code) != g.codeLength {
		t.Fatalf("code %v has length %d, want %d", g.code, len(g.code), g.codeLength)
	}
	for i, d := range g.code {
		if d < 1 || d > g.numNumbers {
			t.Fatalf("code %v: digit %d out of 1..%d", g.code, d, g.numNumbers)
		}
		if !dup && slices.Contains(g.code[:i], d) {
			t.Fatalf("code %v repeats %d without duplicate_numbers", g.code, d)
		}
	}
}

func TestRandomActionsAreDistinctValidGuesses(t *testing.T) {
	r := registry(t)
	rng := envs.NewRand(3)
	for _, id := range ids {
		e, g := mustMake(t, r, id, nil)
		for seed := range uint64(50) {
			e.Reset(seed)
			a := e.SampleRandomAction(rng)
			m := actionPattern.FindStringSubmatch(a)
			if m == nil || len(strings.Fields(m[1])) != g.codeLength || !g.parseGuess(strings.Fields(m[1])) {
				t.Fatalf("%s: random action %q is not a valid guess of length %d", id, a, g.codeLength)
			}
			for i, d := range g.guess {
				if slices.Contains(g.guess[:i], d) {
					t.Fatalf("%s: random action %q repeats a digit; GEM samples without replacement", id, a)
				}
			}
		}
	}
	// A code longer than the digit range still gets a parseable action.
	e, _ := mustMake(t, r, "game:Mastermind-v0-easy", map[string]any{"code_length": 5, "num_numbers": 3, "duplicate_numbers": true})
	e.Reset(0)
	if a := e.SampleRandomAction(rng); !actionPattern.MatchString(a) || len(strings.Fields(a)) != 5 {
		t.Fatalf("random action %q for a 5-digit code over 3 digits", a)
	}
}

func TestConformance(t *testing.T) {
	r := registry(t)
	if got := r.IDs(); !slices.Equal(got, ids) {
		t.Fatalf("registered ids %v, want %v", got, ids)
	}
	envtest.RunAll(t, r, ids...)
}

func TestOracleWinsEverySeed(t *testing.T) {
	r := registry(t)
	for _, id := range ids {
		spec, _ := r.Lookup(id)
		for _, dup := range []bool{false, true} {
			e, _ := mustMake(t, r, id, map[string]any{"duplicate_numbers": dup})
			worst := 0
			for tr := range envtest.OracleEpisodes(t, e, 200, spec.MaxTurns) {
				if !tr.Success() || math.Abs(tr.Return()-1) > 1e-9 {
					t.Fatalf("%s dup=%v seed %d: oracle did not win with return 1:\n%s", id, dup, tr.Seed, tr)
				}
				worst = max(worst, len(tr.Steps))
			}
			t.Logf("%s dup=%v: 200/200 won, at most %d guesses", id, dup, worst)
		}
	}
}

// TestOracleIsFirstConsistentCode checks the oracle against a brute-force
// enumeration after arbitrary (random-policy) feedback, and that it never
// looks at the secret.
func TestOracleIsFirstConsistentCode(t *testing.T) {
	r := registry(t)
	rng := envs.NewRand(9)
	for _, dup := range []bool{false, true} {
		e, g := mustMake(t, r, "game:Mastermind-v0-hard", map[string]any{"duplicate_numbers": dup})
		for seed := range uint64(20) {
			e.Reset(seed)
			for turn := 0; turn < 4; turn++ {
				got, err := g.OracleAction()
				if err != nil {
					t.Fatal(err)
				}
				if want := bruteForceFirst(g, dup); got != want {
					t.Fatalf("dup=%v seed %d turn %d: oracle %s, want first consistent %s", dup, seed, turn, got, want)
				}
				// The oracle plays from the feedback alone: a different
				// secret must not change its answer.
				saved := slices.Clone(g.code)
				g.code = drawCode(g.code[:0], rng, g.codeLength, g.numNumbers, dup)
				again, _ := g.OracleAction()
				g.code = append(g.code[:0], saved...)
				if again != got {
					t.Fatalf("oracle answer depends on the secret: %s vs %s", got, again)
				}
				if res, _ := e.Step(e.SampleRandomAction(rng)); res.Done() {
					break
				}
			}
		}
	}
}

// bruteForceFirst enumerates every code in lexicographic order.
func bruteForceFirst(g *Env, dup bool) string {
	n, k := g.codeLength, g.numNumbers
	code := make([]int, n)
	used := make([]bool, n)
	total := 1
	for range n {
		total *= k
	}
next:
	for idx := range total {
		x := idx
		for i := n - 1; i >= 0; i-- {
			code[i] = 1 + x%k
			x /= k
		}
		for i := range code {
			if !dup && slices.Contains(code[:i], code[i]) {
				continue next
			}
		}
		for i, fb := range g.pegs {
			b, w := score(code, g.guesses[i*n:(i+1)*n], used)
			if b != fb.black || w != fb.white {
				continue next
			}
		}
		return boxed(code)
	}
	return "none"
}

func TestOptions(t *testing.T) {
	r := registry(t)
	e, g := mustMake(t, r, "game:Mastermind-v0-easy", map[string]any{"code_length": 3, "num_numbers": 9, "max_turns": 12})
	obs, _, _ := e.Reset(0)
	if g.config != (config{3, 9, 12}) || !strings.Contains(obs, "secret 3 digit code within 12 turns") {
		t.Fatalf("options not applied: %+v", g.config)
	}
	// Options apply to one instance only; the registered defaults stay.
	e, g = mustMake(t, r, "game:Mastermind-v0-easy", nil)
	e.Reset(0)
	if g.config != (config{2, 6, 10}) {
		t.Fatalf("options leaked into the defaults: easy now has %+v", g.config)
	}
	if _, g = mustMake(t, r, "game:Mastermind-v0-random", map[string]any{"code_length": 4}); !g.opts.random() {
		t.Fatal("a partial configuration must stay random, as in GEM")
	}
	envtest.OptionErrors(t, r, "game:Mastermind-v0-easy", []envtest.OptionCase{
		{Options: map[string]any{"codelength": 3}, Option: "codelength"},
		{Options: map[string]any{"code_length": "four"}, Option: "code_length"},
		{Options: map[string]any{"duplicate_numbers": "yes"}, Option: "duplicate_numbers"},
		{Options: map[string]any{"code_length": 0}, Option: "code_length"},
		{Options: map[string]any{"num_numbers": 0}, Option: "num_numbers"},
		{Options: map[string]any{"max_turns": 0}, Option: "max_turns"},
		{Options: map[string]any{"code_length": 5, "num_numbers": 4}, Option: "code_length"}, // 5 distinct of 4
		{Options: map[string]any{"code_length": 7}, Option: "code_length"},                   // past the range
	})
	envtest.OptionErrors(t, r, "game:Mastermind-v0-random", []envtest.OptionCase{{Options: map[string]any{"colours": 3}, Option: "colours"}})
	envtest.OptionErrors(t, r, "game:Mastermind-v0-hard", []envtest.OptionCase{{Options: map[string]any{"max_turns": 2.5}, Option: "max_turns"}})
	// 6 digits of 4 is fine when they may repeat.
	if _, err := r.Make("game:Mastermind-v0-easy", map[string]any{"code_length": 6, "num_numbers": 4, "duplicate_numbers": true}); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkSteps(b, registry(b), ids...) }
