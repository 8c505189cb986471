package wordle

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/games"
	"github.com/quarry-rl/quarry/envs/games/words"
)

var ids = []string{"game:Wordle-v0-easy", "game:Wordle-v0-hard", "game:Wordle-v0-random"}

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

func TestScore(t *testing.T) {
	tests := []struct{ guess, secret, want string }{
		{"crane", "crane", "GGGGG"},
		{"slate", "crane", "XXGXG"},
		{"trace", "crane", "XGGYG"},
		{"babes", "abbey", "YYGGX"}, // a repeated letter is yellow once per unmatched copy
		{"lllll", "hello", "XXGGX"}, // greens use up the copies before yellows
		{"otter", "robot", "YYXXY"},
		{"eagle", "eerie", "GXXXG"},
		{"act", "cat", "YYG"},
		{"zzz", "cat", "XXX"},
		{"aab", "baa", "YGY"},
		{"abcdefghij", "jihgfedcba", "YYYYYYYYYY"},
	}
	for _, tt := range tests {
		fb := make([]byte, len(tt.guess))
		score(fb, tt.guess, tt.secret)
		if string(fb) != tt.want {
			t.Errorf("score(%q, secret %q) = %s, want %s", tt.guess, tt.secret, fb, tt.want)
		}
	}
	if got := pyList([]byte("GXY")); got != "['G', 'X', 'Y']" {
		t.Errorf("pyList = %s, want GEM's list repr", got)
	}
}

// game starts an episode of opts with the secret set by hand.
func game(t *testing.T, opts Options, secret string) *Env {
	t.Helper()
	e := newEnv(opts)
	if _, _, err := e.Reset(7); err != nil {
		t.Fatal(err)
	}
	e.secret = secret
	e.cands = append(e.cands[:0], secret)
	return e
}

// table plays the rule tables: every step just asks for a guess.
var table = envtest.Table{ComparesParsed: true, Each: envtest.SuffixIs("Enter your guess.")}

func hard() Options { return Options{games.Int(5), true, games.Int(25)} }

func TestRules(t *testing.T) {
	t.Run("solve", func(t *testing.T) {
		table.Expect(t, game(t, hard(), "crane"), []envtest.Want{
			{Action: `I think \boxed{SLATE}`, Obs: "At turn 1, you guessed SLATE\nFeedback:\nSLATE\n['X', 'X', 'G', 'X', 'G']", Reward: 0.2, Parsed: `\boxed{SLATE}`},
			{Action: `\boxed{slate}`, Obs: "At turn 2, you guessed SLATE, which has been already guessed before.", InvalidAction: true, Parsed: `\boxed{SLATE}`},
			{Action: `\boxed{CAT}`, Obs: "At turn 3, you guessed CAT which has 3 letters but the secret word has 5 letters.", InvalidAction: true, Parsed: `\boxed{CAT}`},
			{Action: `\boxed{ZZZZZ}`, Obs: "At turn 4, you guessed ZZZZZ, which is not a valid English word.", InvalidAction: true, Parsed: `\boxed{ZZZZZ}`},
			// Only the new green (R) pays; A and E were green before.
			{Action: `\boxed{trace}`, Obs: "At turn 5, you guessed TRACE\nFeedback:\nTRACE\n['X', 'G', 'G', 'Y', 'G']", Reward: 0.1, Parsed: `\boxed{TRACE}`},
			// The last box wins; whitespace between letters is dropped.
			{Action: "\\boxed{SLATE} no: \\boxed{C R\tA\nN E}", Obs: "Congratulations! You guessed the secret word CRANE in 6 turns.", Reward: 0.2 + 0.5, Terminated: true, Success: true, Parsed: `\boxed{CRANE}`},
		})
	})
	t.Run("unparseable", func(t *testing.T) {
		for _, a := range []string{`\boxed{CR4NE}`, "CRANE", `\boxed{}`, `\boxed{ CRANE}`, `\boxed{CRANE`} {
			table.Expect(t, game(t, hard(), "crane"), []envtest.Want{
				{Action: a, Obs: "At turn 1, you did not provide a valid guess.", Reward: -0.1, Terminated: true, FormatError: true},
			})
		}
	})
	t.Run("max_turns", func(t *testing.T) {
		o := hard()
		o.MaxTurns = games.Int(2)
		table.Expect(t, game(t, o, "crane"), []envtest.Want{
			{Action: `\boxed{BRINE}`, Obs: "At turn 1, you guessed BRINE\nFeedback:\nBRINE\n['X', 'G', 'X', 'G', 'G']", Reward: 0.3, Parsed: `\boxed{BRINE}`},
			{Action: `\boxed{CRONE}`, Obs: "You have reached the maximum number of turns.", Reward: 0.1, Terminated: true, Truncated: true, Parsed: `\boxed{CRONE}`},
		})
	})
	t.Run("invalid_on_last_turn", func(t *testing.T) {
		o := hard()
		o.MaxTurns = games.Int(1)
		table.Expect(t, game(t, o, "crane"), []envtest.Want{
			{Action: `\boxed{CAT}`, Obs: "You have reached the maximum number of turns.", Terminated: true, Truncated: true, InvalidAction: true, Parsed: `\boxed{CAT}`},
		})
	})
	t.Run("format_error_on_last_turn", func(t *testing.T) {
		o := hard()
		o.MaxTurns = games.Int(1)
		table.Expect(t, game(t, o, "crane"), []envtest.Want{
			{Action: `nothing`, Obs: "At turn 1, you did not provide a valid guess.", Reward: -0.1, Terminated: true, Truncated: true, FormatError: true},
		})
	})
	t.Run("solve_on_last_turn", func(t *testing.T) {
		o := hard()
		o.MaxTurns = games.Int(1)
		table.Expect(t, game(t, o, "crane"), []envtest.Want{
			{Action: `\boxed{crane}`, Obs: "Congratulations! You guessed the secret word CRANE in 1 turns.", Reward: 1, Terminated: true, Success: true, Parsed: `\boxed{CRANE}`},
		})
	})
	t.Run("any_letters_when_not_only_real_words", func(t *testing.T) {
		o := hard()
		o.OnlyRealWords = false
		table.Expect(t, game(t, o, "crane"), []envtest.Want{
			{Action: `\boxed{ZZZZE}`, Obs: "At turn 1, you guessed ZZZZE\nFeedback:\nZZZZE\n['X', 'X', 'X', 'X', 'G']", Reward: 0.1, Parsed: `\boxed{ZZZZE}`},
		})
	})
}

func TestFullSolveReturnsOne(t *testing.T) {
	r := registry(t)
	for _, id := range ids {
		for tr := range envtest.OracleEpisodes(t, envtest.Make(t, r, id, nil), 20, 100) {
			if !tr.Success() || math.Abs(tr.Return()-1) > 1e-9 {
				t.Fatalf("%s seed %d: success %v return %v; a solve must return 1", id, tr.Seed, tr.Success(), tr.Return())
			}
		}
	}
}

func TestReset(t *testing.T) {
	e := newEnv(Options{games.Int(3), true, games.Int(15)})
	obs, info, err := e.Reset(3)
	if err != nil {
		t.Fatal(err)
	}
	want := "You are playing Wordle.\nYou have to guess the secret 3-letter word within 15 turns.\n" +
		"After you enter your guess, I will say mark your guess as follows:\n" +
		"  - G (green): correct letter in the correct position\n" +
		"  - Y (yellow): letter exists in the word but in the wrong position\n" +
		"  - X (wrong): letter is not in the word\n" +
		"After thinking, format your final answer inside \\boxed{...}, for example, \\boxed{"
	if !strings.HasPrefix(obs, want) || !strings.HasSuffix(obs, "}.\nAs you play, the history of your guesses will be appended below. Use the information to complete the game before you run out of guesses.\n") {
		t.Errorf("reset observation:\n%s", obs)
	}
	if info.Suffix != "Enter your guess." {
		t.Errorf("suffix %q", info.Suffix)
	}
	if !slices.Contains(words.Words(3), e.secret) {
		t.Errorf("secret %q is not a common 3-letter word", e.secret)
	}

	// The random variant draws 3 to 5 letters and 5 turns a letter.
	rnd := newEnv(Options{OnlyRealWords: true})
	seen := map[int]bool{}
	for seed := range uint64(60) {
		if _, _, err := rnd.Reset(seed); err != nil {
			t.Fatal(err)
		}
		if rnd.length < 3 || rnd.length > 5 || rnd.maxTurns != 5*rnd.length || len(rnd.secret) != rnd.length {
			t.Fatalf("seed %d: length %d, turns %d, secret %q", seed, rnd.length, rnd.maxTurns, rnd.secret)
		}
		seen[rnd.length] = true
	}
	if len(seen) != 3 {
		t.Errorf("random lengths seen: %v, want 3, 4 and 5", seen)
	}
	// Only one of the two null still draws both, as in GEM.
	half := newEnv(Options{WordLength: games.Int(4), OnlyRealWords: true})
	if !half.opts.random() {
		t.Error("null max_turns alone should make the game random")
	}
}

func TestRandomActionsAreWords(t *testing.T) {
	e := newEnv(hard())
	if _, _, err := e.Reset(1); err != nil {
		t.Fatal(err)
	}
	rng := envs.NewRand(9)
	for range 200 {
		a := e.SampleRandomAction(rng)
		m := envs.LastMatch(actionPattern, a)
		if m == nil || len(m[1]) != 5 || !words.IsWord(strings.ToLower(m[1])) {
			t.Fatalf("random action %q is not a 5-letter word", a)
		}
	}
}

func TestConformance(t *testing.T) { envtest.RunAll(t, registry(t), ids...) }

func TestOracleWinsEverySeed(t *testing.T) {
	r := registry(t)
	for _, id := range ids {
		wins, trs := envtest.OracleWins(t, r, id, 200)
		longest := 0
		for _, tr := range trs {
			longest = max(longest, len(tr.Steps))
		}
		if wins != 200 {
			t.Errorf("%s: oracle won %d/200", id, wins)
		}
		t.Logf("%s: oracle won %d/200, longest game %d turns", id, wins, longest)
	}
}

func TestOptionErrors(t *testing.T) {
	r := registry(t)
	envtest.OptionErrors(t, r, "game:Wordle-v0-hard", []envtest.OptionCase{
		{Options: map[string]any{"word_length": 2}, Option: "word_length"},
		{Options: map[string]any{"word_length": 11}, Option: "word_length"},
		{Options: map[string]any{"word_length": "five"}, Option: "word_length"},
		{Options: map[string]any{"max_turns": 0}, Option: "max_turns"},
		{Options: map[string]any{"only_real_words": "yes"}, Option: "only_real_words"},
		{Options: map[string]any{"hardcore": true}, Option: "hardcore"},
	})
	envtest.OptionsAccepted(t, r, "game:Wordle-v0-hard",
		map[string]any{"word_length": 10, "max_turns": 3}, map[string]any{"word_length": nil}, map[string]any{"only_real_words": false})
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkSteps(b, registry(b), ids...) }
