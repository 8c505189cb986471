package hangman

import (
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

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

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

// table plays the rule tables; a row's Suffix is grid(its row of cells).
// Every parseable action is echoed in upper case.
var table = envtest.Table{Each: func(t testing.TB, i int, w envtest.Want, res envs.StepResult) {
	if w.FormatError {
		return
	}
	if want := `\boxed{` + strings.ToUpper(envs.LastMatch(actionPattern, w.Action)[1]) + `}`; res.Info.ParsedAction != want {
		t.Fatalf("step %d: parsed %q, want %q", i, res.Info.ParsedAction, want)
	}
}}

// grid is the suffix showing row, a row of cells four characters wide,
// under its column headers.
func grid(row string) string {
	var header []string
	for c := range len(row) / 4 {
		header = append(header, "C0"+string(rune('0'+c)))
	}
	return "Here is the current state of the Hangman grid:\n" + strings.Join(header, " ") + "\n" + row + "\n\nEnter your guess."
}

func TestRules(t *testing.T) {
	t.Run("win", func(t *testing.T) {
		table.Expect(t, game(t, opts(5, 20), "hello"), []envtest.Want{
			{Action: `\boxed{l}`, Obs: "At turn 1, you successfully guessed a letter 'L' that is in the secret word.", Reward: 0.2, Suffix: grid("  _   _   L   L   _ ")},
			{Action: `\boxed{L}`, Obs: "At turn 2, you guessed 'L', which has been already guessed before.", InvalidAction: true, Suffix: grid("  _   _   L   L   _ ")},
			{Action: `\boxed{z}`, Obs: "At turn 3, you guessed a letter 'Z' that is not in the secret word.", Suffix: grid("  _   _   L   L   _ ")},
			{Action: `\boxed{z}`, Obs: "At turn 4, you guessed 'Z', which has been already guessed before.", InvalidAction: true, Suffix: grid("  _   _   L   L   _ ")},
			{Action: `\boxed{HI}`, Obs: "At turn 5, You guessed 'HI' which is of length 2, but the secret word is of length 5.", InvalidAction: true, Suffix: grid("  _   _   L   L   _ ")},
			{Action: `\boxed{HELLS}`, Obs: "At turn 6, You guessed 'HELLS' which is incorrect.", Suffix: grid("  _   _   L   L   _ ")},
			{Action: `\boxed{e}`, Obs: "At turn 7, you successfully guessed a letter 'E' that is in the secret word.", Reward: 0.1, Suffix: grid("  _   E   L   L   _ ")},
			// The word pays the half of the letters still hidden (H, O: 2/5) plus 0.5.
			{Action: `so \boxed{X} no, \boxed{Hello}`, Obs: "Congratulations! You guessed the word 'HELLO' correctly!", Reward: 0.5*2/5 + 0.5, Terminated: true, Success: true, Suffix: grid("  _   E   L   L   _ ")},
		})
	})
	t.Run("whole_word_at_once", func(t *testing.T) {
		table.Expect(t, game(t, opts(3, 10), "cat"), []envtest.Want{
			{Action: `\boxed{CAT}`, Obs: "Congratulations! You guessed the word 'CAT' correctly!", Reward: 1, Terminated: true, Success: true, Suffix: grid("  _   _   _ ")},
		})
	})
	t.Run("all_letters_revealed_is_not_a_win", func(t *testing.T) {
		table.Expect(t, game(t, opts(3, 10), "cat"), []envtest.Want{
			{Action: `\boxed{c}`, Obs: "At turn 1, you successfully guessed a letter 'C' that is in the secret word.", Reward: 0.5 / 3, Suffix: grid("  C   _   _ ")},
			{Action: `\boxed{a}`, Obs: "At turn 2, you successfully guessed a letter 'A' that is in the secret word.", Reward: 0.5 / 3, Suffix: grid("  C   A   _ ")},
			{Action: `\boxed{t}`, Obs: "At turn 3, you successfully guessed a letter 'T' that is in the secret word.", Reward: 0.5 / 3, Suffix: grid("  C   A   T ")},
			{Action: `\boxed{cat}`, Obs: "Congratulations! You guessed the word 'CAT' correctly!", Reward: 0.5, Terminated: true, Success: true, Suffix: grid("  C   A   T ")},
		})
	})
	t.Run("unparseable", func(t *testing.T) {
		for _, a := range []string{`\boxed{C4T}`, "cat", `\boxed{}`, `\boxed{C A T}`, `\boxed{cat`} {
			table.Expect(t, game(t, opts(3, 10), "cat"), []envtest.Want{
				{Action: a, Obs: "You did not provide a valid guess.", Reward: -0.1, Terminated: true, FormatError: true, Suffix: grid("  _   _   _ ")},
			})
		}
	})
	t.Run("max_turns", func(t *testing.T) {
		table.Expect(t, game(t, opts(5, 2), "hello"), []envtest.Want{
			{Action: `\boxed{z}`, Obs: "At turn 1, you guessed a letter 'Z' that is not in the secret word.", Suffix: grid("  _   _   _   _   _ ")},
			{Action: `\boxed{l}`, Obs: "You have reached the maximum number of turns.", Reward: 0.2, Terminated: true, Truncated: true, Suffix: grid("  _   _   L   L   _ ")},
		})
	})
	t.Run("format_error_on_last_turn", func(t *testing.T) {
		table.Expect(t, game(t, opts(5, 1), "hello"), []envtest.Want{
			{Action: `?`, Obs: "You did not provide a valid guess.", Reward: -0.1, Terminated: true, Truncated: true, FormatError: true, Suffix: grid("  _   _   _   _   _ ")},
		})
	})
	t.Run("win_on_last_turn", func(t *testing.T) {
		table.Expect(t, game(t, opts(5, 1), "hello"), []envtest.Want{
			{Action: `\boxed{HELLO}`, Obs: "Congratulations! You guessed the word 'HELLO' correctly!", Reward: 1, Terminated: true, Success: true, Suffix: grid("  _   _   _   _   _ ")},
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

func TestConformance(t *testing.T) { envtest.RunAll(t, registry(t), ids...) }

func TestOracleWinsEverySeed(t *testing.T) {
	r := registry(t)
	for _, id := range ids {
		wins, trs := envtest.OracleWins(t, r, id, 200)
		for _, tr := range trs {
			if math.Abs(tr.Return()-1) > 1e-9 && tr.Success() {
				t.Errorf("%s seed %d: won with return %v, want 1", id, tr.Seed, tr.Return())
			}
		}
		// The same games without ever looking at the secret.
		spec, _ := r.Lookup(id)
		e := envtest.Make(t, r, id, nil)
		e.(envs.Unwrapper).Unwrap().(*Env).fair = true
		fairWins := 0
		for fair := range envtest.OracleEpisodes(t, e, 200, spec.MaxTurns) {
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
	envtest.OptionErrors(t, r, "game:Hangman-v0-easy", []envtest.OptionCase{
		{Options: map[string]any{"word_length": 2}, Option: "word_length"},
		{Options: map[string]any{"word_length": 11}, Option: "word_length"},
		{Options: map[string]any{"word_length": 3.5}, Option: "word_length"},
		{Options: map[string]any{"max_turns": -1}, Option: "max_turns"},
		{Options: map[string]any{"hardcore": "yes"}, Option: "hardcore"},
		{Options: map[string]any{"only_real_words": true}, Option: "only_real_words"},
	})
	envtest.OptionsAccepted(t, r, "game:Hangman-v0-easy",
		map[string]any{"word_length": 10, "max_turns": 3}, map[string]any{"max_turns": nil}, map[string]any{"hardcore": true})
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkSteps(b, registry(b), ids...) }
