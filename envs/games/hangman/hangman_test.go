package hangman

import (
	"errors"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/games"
	"github.com/quarry-rl/quarry/envs/games/words"
)

var ids = []string{"game:Hangman-v0-easy", "game:Hangman-v0-hard", "game:Hangman-v0-random"}

func registry(tb testing.TB) *envs.Registry {
	tb.Helper()
	r := envs.NewRegistry()
	if err := Register(r); err != nil {
		tb.Fatal(err)
	}
	return r
}

func opts(length, turns int) Options { return Options{games.Int(length), false, games.Int(turns)} }

// game starts an episode of o with the secret set by hand.
func game(t *testing.T, o Options, secret string) *Env {
	t.Helper()
	e := newEnv(o)
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
	grid       string // the row of cells in the suffix
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
		var header []string
		for c := range len(e.secret) {
			header = append(header, "C0"+string(rune('0'+c)))
		}
		suffix := "Here is the current state of the Hangman grid:\n" + strings.Join(header, " ") + "\n" + s.grid + "\n\nEnter your guess."
		if in.Suffix != suffix {
			t.Errorf("step %d %q: suffix\n%q\nwant\n%q", i, s.action, in.Suffix, suffix)
		}
		if !s.format {
			if want := `\boxed{` + strings.ToUpper(envs.LastMatch(actionPattern, s.action)[1]) + `}`; in.ParsedAction != want {
				t.Errorf("step %d: parsed %q, want %q", i, in.ParsedAction, want)
			}
		}
	}
}

func TestRules(t *testing.T) {
	t.Run("win", func(t *testing.T) {
		play(t, game(t, opts(5, 20), "hello"), []step{
			{action: `\boxed{l}`, obs: "At turn 1, you successfully guessed a letter 'L' that is in the secret word.", reward: 0.2, grid: "  _   _   L   L   _ "},
			{action: `\boxed{L}`, obs: "At turn 2, you guessed 'L', which has been already guessed before.", invalid: true, grid: "  _   _   L   L   _ "},
			{action: `\boxed{z}`, obs: "At turn 3, you guessed a letter 'Z' that is not in the secret word.", grid: "  _   _   L   L   _ "},
			{action: `\boxed{z}`, obs: "At turn 4, you guessed 'Z', which has been already guessed before.", invalid: true, grid: "  _   _   L   L   _ "},
			{action: `\boxed{HI}`, obs: "At turn 5, You guessed 'HI' which is of length 2, but the secret word is of length 5.", invalid: true, grid: "  _   _   L   L   _ "},
			{action: `\boxed{HELLS}`, obs: "At turn 6, You guessed 'HELLS' which is incorrect.", grid: "  _   _   L   L   _ "},
			{action: `\boxed{e}`, obs: "At turn 7, you successfully guessed a letter 'E' that is in the secret word.", reward: 0.1, grid: "  _   E   L   L   _ "},
			// The word pays the half of the letters still hidden (H, O: 2/5) plus 0.5.
			{action: `so \boxed{X} no, \boxed{Hello}`, obs: "Congratulations! You guessed the word 'HELLO' correctly!", reward: 0.5*2/5 + 0.5, terminated: true, success: true, grid: "  _   E   L   L   _ "},
		})
	})
	t.Run("whole_word_at_once", func(t *testing.T) {
		play(t, game(t, opts(3, 10), "cat"), []step{
			{action: `\boxed{CAT}`, obs: "Congratulations! You guessed the word 'CAT' correctly!", reward: 1, terminated: true, success: true, grid: "  _   _   _ "},
		})
	})
	t.Run("all_letters_revealed_is_not_a_win", func(t *testing.T) {
		play(t, game(t, opts(3, 10), "cat"), []step{
			{action: `\boxed{c}`, obs: "At turn 1, you successfully guessed a letter 'C' that is in the secret word.", reward: 0.5 / 3, grid: "  C   _   _ "},
			{action: `\boxed{a}`, obs: "At turn 2, you successfully guessed a letter 'A' that is in the secret word.", reward: 0.5 / 3, grid: "  C   A   _ "},
			{action: `\boxed{t}`, obs: "At turn 3, you successfully guessed a letter 'T' that is in the secret word.", reward: 0.5 / 3, grid: "  C   A   T "},
			{action: `\boxed{cat}`, obs: "Congratulations! You guessed the word 'CAT' correctly!", reward: 0.5, terminated: true, success: true, grid: "  C   A   T "},
		})
	})
	t.Run("unparseable", func(t *testing.T) {
		for _, a := range []string{`\boxed{C4T}`, "cat", `\boxed{}`, `\boxed{C A T}`, `\boxed{cat`} {
			play(t, game(t, opts(3, 10), "cat"), []step{
				{action: a, obs: "You did not provide a valid guess.", reward: -0.1, terminated: true, format: true, grid: "  _   _   _ "},
			})
		}
	})
	t.Run("max_turns", func(t *testing.T) {
		play(t, game(t, opts(5, 2), "hello"), []step{
			{action: `\boxed{z}`, obs: "At turn 1, you guessed a letter 'Z' that is not in the secret word.", grid: "  _   _   _   _   _ "},
			{action: `\boxed{l}`, obs: "You have reached the maximum number of turns.", reward: 0.2, terminated: true, truncated: true, grid: "  _   _   L   L   _ "},
		})
	})
	t.Run("format_error_on_last_turn", func(t *testing.T) {
		play(t, game(t, opts(5, 1), "hello"), []step{
			{action: `?`, obs: "You did not provide a valid guess.", reward: -0.1, terminated: true, truncated: true, format: true, grid: "  _   _   _   _   _ "},
		})
	})
	t.Run("win_on_last_turn", func(t *testing.T) {
		play(t, game(t, opts(5, 1), "hello"), []step{
			{action: `\boxed{HELLO}`, obs: "Congratulations! You guessed the word 'HELLO' correctly!", reward: 1, terminated: true, success: true, grid: "  _   _   _   _   _ "},
		})
	})
}

func TestRenderTwoDigitColumns(t *testing.T) {
	e := game(t, opts(10, 20), "abcdefghij")
	if got := strings.SplitN(e.render(), "\n", 2)[0]; got != "C00 C01 C02 C03 C04 C05 C06 C07 C08 C09" {
		t.Fatalf("header %q", got)
	}
}

func TestReset(t *testing.T) {
	e := newEnv(opts(3, 10))
	obs, info, err := e.Reset(5)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^You are playing Hangman\.\n` +
		`The objective of the game is to guess the 3-letter word by providing one letter guesses or the entire word\.\n` +
		`The cells that need to be populated with letters are represented by '_'\.\n\n` +
		`There are two ways you can answer\. You can provide one letter guesses in the format of \\boxed\{[A-Z]\}, ` +
		`or you can guess the entire word in the format of \\boxed\{[A-Z]{3}\}\.\n` +
		`If the given letter is in the word, it will be revealed in the grid\.\n` +
		`If the given word is correct, you win\.\n` +
		`As you play, the history of your choices will be appended below\. Use the information to figure out the word and win\.\n` +
		`Some rules:\n1\. You can only guess one letter/word at a time\.\n2\. You have to win within 10 turns\.\n\n$`)
	if !re.MatchString(obs) {
		t.Errorf("reset observation:\n%s", obs)
	}
	if info.Suffix != "Here is the current state of the Hangman grid:\nC00 C01 C02\n  _   _   _ \n\nEnter your guess." {
		t.Errorf("suffix %q", info.Suffix)
	}
	if !slices.Contains(words.Words(3), e.secret) {
		t.Errorf("secret %q is not a common 3-letter word", e.secret)
	}

	rnd := newEnv(Options{})
	seen := map[[2]int]bool{}
	for seed := range uint64(60) {
		if _, _, err := rnd.Reset(seed); err != nil {
			t.Fatal(err)
		}
		g := [2]int{rnd.length, rnd.maxTurns}
		if !slices.Contains(randomGames[:], g) || len(rnd.secret) != rnd.length {
			t.Fatalf("seed %d: drew %v, secret %q", seed, g, rnd.secret)
		}
		seen[g] = true
	}
	if len(seen) != len(randomGames) {
		t.Errorf("random games seen: %v, want all of %v", seen, randomGames)
	}

	hc := newEnv(Options{games.Int(7), true, games.Int(20)})
	rare := false
	for seed := range uint64(50) {
		if _, _, err := hc.Reset(seed); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(words.Extended(7), hc.secret) {
			t.Fatalf("hardcore secret %q not in the extended list", hc.secret)
		}
		rare = rare || !slices.Contains(words.Words(7), hc.secret)
	}
	if !rare {
		t.Error("hardcore never drew a word outside the common list")
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
		wins, fairWins := 0, 0
		for seed := range uint64(200) {
			e, err := r.Make(id, nil)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := envtest.Play(e, seed, envtest.OraclePolicy, spec.MaxTurns)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Success() {
				wins++
			}
			if math.Abs(tr.Return()-1) > 1e-9 && tr.Success() {
				t.Errorf("%s seed %d: won with return %v, want 1", id, seed, tr.Return())
			}
			// The same game without ever looking at the secret.
			e.(envs.Unwrapper).Unwrap().(*Env).fair = true
			fair, err := envtest.Play(e, seed, envtest.OraclePolicy, spec.MaxTurns)
			if err != nil {
				t.Fatal(err)
			}
			if fair.Success() {
				fairWins++
			}
		}
		if wins != 200 {
			t.Errorf("%s: oracle won %d/200", id, wins)
		}
		// The secret may only break ties the grid cannot: fair play must
		// win most games too (about 85% of 3-letter secrets in 10 turns,
		// every longer one).
		if fairWins < 160 {
			t.Errorf("%s: the oracle won only %d/200 without looking at the secret", id, fairWins)
		}
		t.Logf("%s: oracle won %d/200; %d/200 without looking at the secret", id, wins, fairWins)
	}
}

func TestHardcoreOracle(t *testing.T) {
	for _, g := range randomGames {
		o := Options{games.Int(g[0]), true, games.Int(g[1])}
		for seed := range uint64(50) {
			e := newEnv(o)
			tr, err := envtest.Play(e, seed, envtest.OraclePolicy, g[1])
			if err != nil {
				t.Fatal(err)
			}
			if !tr.Success() {
				t.Fatalf("hardcore %v seed %d: oracle lost", g, seed)
			}
		}
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
		{map[string]any{"word_length": 3.5}, "word_length"},
		{map[string]any{"max_turns": -1}, "max_turns"},
		{map[string]any{"hardcore": "yes"}, "hardcore"},
		{map[string]any{"only_real_words": true}, "only_real_words"},
	}
	for _, tt := range tests {
		_, err := r.Make("game:Hangman-v0-easy", tt.opts)
		var oe *envs.OptionError
		if !errors.As(err, &oe) || oe.Option != tt.option {
			t.Errorf("options %v: err = %v, want an OptionError naming %q", tt.opts, err, tt.option)
		}
	}
	for _, ok := range []map[string]any{{"word_length": 10, "max_turns": 3}, {"max_turns": nil}, {"hardcore": true}} {
		if _, err := r.Make("game:Hangman-v0-easy", ok); err != nil {
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
