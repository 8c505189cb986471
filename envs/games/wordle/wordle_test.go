package wordle

import (
	"errors"
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

func registry(tb testing.TB) *envs.Registry {
	tb.Helper()
	r := envs.NewRegistry()
	if err := Register(r); err != nil {
		tb.Fatal(err)
	}
	return r
}

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

type step struct {
	action     string
	obs        string
	reward     float64
	terminated bool
	truncated  bool
	invalid    bool
	format     bool
	success    bool
	parsed     string
}

func play(t *testing.T, e *Env, steps []step) {
	t.Helper()
	for i, s := range steps {
		res, err := e.Step(s.action)
		if err != nil {
			t.Fatalf("step %d %q: %v", i, s.action, err)
		}
		if res.Observation != s.obs {
			t.Errorf("step %d %q: obs\n%q\nwant\n%q", i, s.action, res.Observation, s.obs)
		}
		if math.Abs(res.Reward-s.reward) > 1e-12 {
			t.Errorf("step %d %q: reward %v, want %v", i, s.action, res.Reward, s.reward)
		}
		if res.Terminated != s.terminated || res.Truncated != s.truncated {
			t.Errorf("step %d %q: terminated/truncated %v/%v, want %v/%v", i, s.action, res.Terminated, res.Truncated, s.terminated, s.truncated)
		}
		in := res.Info
		if in.InvalidAction != s.invalid || in.FormatError != s.format || in.Success != s.success {
			t.Errorf("step %d %q: invalid/format/success %v/%v/%v, want %v/%v/%v", i, s.action,
				in.InvalidAction, in.FormatError, in.Success, s.invalid, s.format, s.success)
		}
		if in.ParsedAction != s.parsed {
			t.Errorf("step %d %q: parsed %q, want %q", i, s.action, in.ParsedAction, s.parsed)
		}
		if in.Suffix != "Enter your guess." {
			t.Errorf("step %d: suffix %q", i, in.Suffix)
		}
	}
}

func hard() Options { return Options{games.Int(5), true, games.Int(25)} }

func TestRules(t *testing.T) {
	t.Run("solve", func(t *testing.T) {
		play(t, game(t, hard(), "crane"), []step{
			{action: `I think \boxed{SLATE}`, obs: "At turn 1, you guessed SLATE\nFeedback:\nSLATE\n['X', 'X', 'G', 'X', 'G']", reward: 0.2, parsed: `\boxed{SLATE}`},
			{action: `\boxed{slate}`, obs: "At turn 2, you guessed SLATE, which has been already guessed before.", invalid: true, parsed: `\boxed{SLATE}`},
			{action: `\boxed{CAT}`, obs: "At turn 3, you guessed CAT which has 3 letters but the secret word has 5 letters.", invalid: true, parsed: `\boxed{CAT}`},
			{action: `\boxed{ZZZZZ}`, obs: "At turn 4, you guessed ZZZZZ, which is not a valid English word.", invalid: true, parsed: `\boxed{ZZZZZ}`},
			// Only the new green (R) pays; A and E were green before.
			{action: `\boxed{trace}`, obs: "At turn 5, you guessed TRACE\nFeedback:\nTRACE\n['X', 'G', 'G', 'Y', 'G']", reward: 0.1, parsed: `\boxed{TRACE}`},
			// The last box wins; whitespace between letters is dropped.
			{action: "\\boxed{SLATE} no: \\boxed{C R\tA\nN E}", obs: "Congratulations! You guessed the secret word CRANE in 6 turns.", reward: 0.2 + 0.5, terminated: true, success: true, parsed: `\boxed{CRANE}`},
		})
	})
	t.Run("unparseable", func(t *testing.T) {
		for _, a := range []string{`\boxed{CR4NE}`, "CRANE", `\boxed{}`, `\boxed{ CRANE}`, `\boxed{CRANE`} {
			play(t, game(t, hard(), "crane"), []step{
				{action: a, obs: "At turn 1, you did not provide a valid guess.", reward: -0.1, terminated: true, format: true},
			})
		}
	})
	t.Run("max_turns", func(t *testing.T) {
		o := hard()
		o.MaxTurns = games.Int(2)
		play(t, game(t, o, "crane"), []step{
			{action: `\boxed{BRINE}`, obs: "At turn 1, you guessed BRINE\nFeedback:\nBRINE\n['X', 'G', 'X', 'G', 'G']", reward: 0.3, parsed: `\boxed{BRINE}`},
			{action: `\boxed{CRONE}`, obs: "You have reached the maximum number of turns.", reward: 0.1, terminated: true, truncated: true, parsed: `\boxed{CRONE}`},
		})
	})
	t.Run("invalid_on_last_turn", func(t *testing.T) {
		o := hard()
		o.MaxTurns = games.Int(1)
		play(t, game(t, o, "crane"), []step{
			{action: `\boxed{CAT}`, obs: "You have reached the maximum number of turns.", terminated: true, truncated: true, invalid: true, parsed: `\boxed{CAT}`},
		})
	})
	t.Run("format_error_on_last_turn", func(t *testing.T) {
		o := hard()
		o.MaxTurns = games.Int(1)
		play(t, game(t, o, "crane"), []step{
			{action: `nothing`, obs: "At turn 1, you did not provide a valid guess.", reward: -0.1, terminated: true, truncated: true, format: true},
		})
	})
	t.Run("solve_on_last_turn", func(t *testing.T) {
		o := hard()
		o.MaxTurns = games.Int(1)
		play(t, game(t, o, "crane"), []step{
			{action: `\boxed{crane}`, obs: "Congratulations! You guessed the secret word CRANE in 1 turns.", reward: 1, terminated: true, success: true, parsed: `\boxed{CRANE}`},
		})
	})
	t.Run("any_letters_when_not_only_real_words", func(t *testing.T) {
		o := hard()
		o.OnlyRealWords = false
		play(t, game(t, o, "crane"), []step{
			{action: `\boxed{ZZZZE}`, obs: "At turn 1, you guessed ZZZZE\nFeedback:\nZZZZE\n['X', 'X', 'X', 'X', 'G']", reward: 0.1, parsed: `\boxed{ZZZZE}`},
		})
	})
}

func TestFullSolveReturnsOne(t *testing.T) {
	r := registry(t)
	for _, id := range ids {
		e, err := r.Make(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(20) {
			tr, err := envtest.Play(e, seed, envtest.OraclePolicy, 100)
			if err != nil {
				t.Fatal(err)
			}
			if !tr.Success() || math.Abs(tr.Return()-1) > 1e-9 {
				t.Fatalf("%s seed %d: success %v return %v; a solve must return 1", id, seed, tr.Success(), tr.Return())
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

func TestConformance(t *testing.T) {
	r := registry(t)
	for _, id := range ids {
		t.Run(id, func(t *testing.T) { envtest.Run(t, r, id) })
	}
}

func TestOracleWinsEverySeed(t *testing.T) {
	r := registry(t)
	for _, id := range ids {
		spec, _ := r.Lookup(id)
		e, err := r.Make(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		wins, longest := 0, 0
		for seed := range uint64(200) {
			tr, err := envtest.Play(e, seed, envtest.OraclePolicy, spec.MaxTurns)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Success() {
				wins++
			}
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
	tests := []struct {
		opts   map[string]any
		option string
	}{
		{map[string]any{"word_length": 2}, "word_length"},
		{map[string]any{"word_length": 11}, "word_length"},
		{map[string]any{"word_length": "five"}, "word_length"},
		{map[string]any{"max_turns": 0}, "max_turns"},
		{map[string]any{"only_real_words": "yes"}, "only_real_words"},
		{map[string]any{"hardcore": true}, "hardcore"},
	}
	for _, tt := range tests {
		_, err := r.Make("game:Wordle-v0-hard", tt.opts)
		var oe *envs.OptionError
		if !errors.As(err, &oe) || oe.Option != tt.option {
			t.Errorf("options %v: err = %v, want an OptionError naming %q", tt.opts, err, tt.option)
		}
	}
	for _, ok := range []map[string]any{{"word_length": 10, "max_turns": 3}, {"word_length": nil}, {"only_real_words": false}} {
		if _, err := r.Make("game:Wordle-v0-hard", ok); err != nil {
			t.Errorf("options %v: %v", ok, err)
		}
	}
}

func BenchmarkStep(b *testing.B) {
	r := registry(b)
	for _, id := range ids {
		b.Run(id, func(b *testing.B) {
			e, err := r.Make(id, nil)
			if err != nil {
				b.Fatal(err)
			}
			rng := envs.NewRand(1)
			seed := uint64(0)
			if _, _, err := e.Reset(seed); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				res, err := e.Step(e.SampleRandomAction(rng))
				if err != nil {
					b.Fatal(err)
				}
				if res.Done() {
					seed++
					if _, _, err := e.Reset(seed); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
