package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func run(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	root := newRoot(strings.NewReader(stdin), &out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func TestEnvsLists(t *testing.T) {
	out, err := run(t, "", "envs")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ID", "VERSION", "game:GuessTheNumber-v0-easy", "alias of game:GuessTheNumber-v0-hard"} {
		if !strings.Contains(out, want) {
			t.Errorf("listing lacks %q:\n%s", want, out)
		}
	}
	out, err = run(t, "", "envs", "--json", "--category", "game")
	if err != nil {
		t.Fatal(err)
	}
	var rows []envRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Category != "game" || r.Version == "" || r.MaxTurns <= 0 {
			t.Errorf("bad row %+v", r)
		}
	}
	if _, err := run(t, "", "envs", "--category", "nope"); err == nil || !strings.Contains(err.Error(), "categories") {
		t.Errorf("unknown category: %v", err)
	}
}

func TestPlayHuman(t *testing.T) {
	out, err := run(t, "\\boxed{5}\nnot a guess\n", "play", "game:GuessTheNumber-v0-easy", "--seed", "3", "-o", "max_turns=4")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"you guessed 5", "[format error]", "episode over (lost)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestPlayOracleWins(t *testing.T) {
	out, err := run(t, "", "play", "game:GuessTheNumber-v0", "--policy", "oracle", "--seed", "11", "--wrapper", "chat")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "episode over (won)") || !strings.Contains(out, "[assistant]") {
		t.Errorf("oracle did not win or chat wrapper not shown:\n%s", out)
	}
}

func TestPlayErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "game:GuesTheNumber"}, "did you mean game:GuessTheNumber"},
		{[]string{"play", "game:GuessTheNumber-v0-easy", "-o", "max_turn=3"}, `option "max_turn": unknown option`},
		{[]string{"play", "game:GuessTheNumber-v0-easy", "-o", "max_turns"}, "want key=value"},
		{[]string{"play", "game:GuessTheNumber-v0-easy", "--policy", "genius"}, "want human, random or oracle"},
		{[]string{"play", "game:GuessTheNumber-v0-easy", "--wrapper", "xml"}, "allowed: last"},
	} {
		_, err := run(t, "", tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err %v, want %q", tt.args, err, tt.want)
		}
	}
}
