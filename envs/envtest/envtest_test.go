package envtest

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
)

// sayYes is the smallest game: say "yes" within Limit turns. Any other word
// is a legal wrong answer; anything but letters is unparseable.
type sayYes struct {
	opts yesOptions
	turn int
}

type yesOptions struct {
	Limit int `json:"limit" range:"0,100"`
}

func (o yesOptions) Validate() error {
	if o.Limit < 1 {
		return &envs.OptionError{Option: "limit", Reason: "must be positive"}
	}
	return nil
}

func (g *sayYes) Reset(seed uint64) (string, envs.Info, error) {
	g.turn = 0
	return fmt.Sprintf("Say yes (seed %d).", seed), envs.Info{Suffix: "Your answer?"}, nil
}

func (g *sayYes) Step(action string) (envs.StepResult, error) {
	g.turn++
	info := envs.Info{Suffix: "Your answer?", ParsedAction: strings.ToLower(action)}
	res := envs.StepResult{Truncated: g.turn >= g.opts.Limit}
	switch {
	case info.ParsedAction == "" || strings.Trim(info.ParsedAction, "abcdefghijklmnopqrstuvwxyz") != "":
		info.ParsedAction = ""
		info.FormatError = true
		res.Observation, res.Reward, res.Terminated = "Say something.", -0.1, true
	case info.ParsedAction == "yes":
		info.Success = true
		res.Observation, res.Reward, res.Terminated, res.Truncated = "Yes!", 1, true, false
	default:
		res.Observation = "No."
		res.Terminated = res.Truncated
	}
	res.Info = info
	return res, nil
}

func (g *sayYes) SampleRandomAction(rng *rand.Rand) string {
	return []string{"yes", "no", "maybe"}[rng.IntN(3)]
}

func (g *sayYes) OracleAction() (string, error) { return "YES", nil }

const yesID = "test:SayYes-v0"

func register(r *envs.Registry) error {
	return r.Register(envs.Spec{
		ID: yesID, Description: "Say yes.", MaxTurns: 3, RewardMin: -0.1, RewardMax: 1,
		Build: envs.Options(yesOptions{Limit: 3}, func(o yesOptions) (envs.Env, error) { return &sayYes{opts: o}, nil }),
	})
}

// recorder is a testing.TB that records failures; Fatal stops the calling
// goroutine as testing.T's does.
type recorder struct {
	testing.TB
	failed bool
	log    []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.log = append(r.log, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...); runtime.Goexit() }
func (r *recorder) Fatal(args ...any)                 { r.Fatalf("%s", fmt.Sprint(args...)) }

// run calls f with a recorder in a goroutine of its own, so that Fatal can
// end it, and returns what was recorded.
func run(t *testing.T, f func(tb testing.TB)) *recorder {
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(rec)
	}()
	<-done
	return rec
}

func TestExpect(t *testing.T) {
	r := Registry(t, register)
	win := Want{Action: "Yes", Obs: "Yes!", Reward: 1, Terminated: true, Success: true}
	for _, tt := range []struct {
		name  string
		table Table
		steps []Want
		fails []string // each in the failure message; none: passes
	}{
		{"a matching table passes", Table{}, []Want{{Action: "no", Obs: "No."}, win}, nil},
		{"every differing field is listed", Table{}, []Want{{Action: "no", Obs: "Nope.", Reward: 0.5, Terminated: true, InvalidAction: true}},
			[]string{`step 0 "no"`, "observation", `"Nope."`, "reward: got 0, want 0.5", "terminated: got false, want true", "invalid action"}},
		{"success and format errors are compared", Table{}, []Want{{Action: "", Obs: "Say something.", Reward: -0.1, Terminated: true, Success: true}},
			[]string{"format error: got true, want false", "success: got false, want true"}},
		{"a reward within 1e-12 matches", Table{}, []Want{{Action: "yes", Obs: "Yes!", Reward: 1 + 1e-13, Terminated: true, Success: true}}, nil},
		{"the first failing row stops the table", Table{}, []Want{{Action: "no", Obs: "?"}, {Action: "no", Obs: "??"}},
			[]string{`step 0 "no"`}},
		{"truncation is compared", Table{}, []Want{{Action: "no", Obs: "No."}, {Action: "no", Obs: "No."}, {Action: "no", Obs: "No.", Terminated: true}},
			[]string{"step 2", "truncated: got true, want false"}},
		{"parsed is compared when the table says so", Table{ComparesParsed: true}, []Want{{Action: "No", Obs: "No.", Parsed: "no"}, {Action: "", Obs: "Say something.", Reward: -0.1, Terminated: true, FormatError: true, Parsed: "x"}},
			[]string{"step 1", "parsed action"}},
		{"an empty parsed is compared too", Table{ComparesParsed: true}, []Want{{Action: "No", Obs: "No."}}, []string{"parsed action", `"no"`}},
		{"a parsed the table ignores is refused", Table{}, []Want{{Action: "No", Obs: "No.", Parsed: "no"}}, []string{"does not compare ParsedAction"}},
		{"suffix is compared when set", Table{}, []Want{{Action: "no", Obs: "No.", Suffix: "Your answer?"}, {Action: "no", Obs: "No.", Suffix: "Other"}},
			[]string{"step 1", "suffix", `"Other"`}},
		{"check runs on its row", Table{}, []Want{{Action: "no", Obs: "No.", Check: func(t testing.TB, i int, w Want, res envs.StepResult) {
			t.Errorf("check %d %s %s", i, w.Action, res.Observation)
		}}}, []string{"check 0 no No."}},
		{"each runs on every row", Table{Each: SuffixIs("Other")}, []Want{{Action: "no", Obs: "No."}}, []string{`suffix "Your answer?", want "Other"`}},
		{"framed suffixes pass", Table{Each: SuffixFramed("Your", "?")}, []Want{{Action: "no", Obs: "No."}}, nil},
		{"a wrong frame fails", Table{Each: SuffixFramed("Board:\n", "?")}, []Want{{Action: "no", Obs: "No."}}, []string{`want "Board:\n"…"?"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := run(t, func(tb testing.TB) { tt.table.Expect(tb, MakeReset(tb, r, yesID, 1), tt.steps) })
			msg := strings.Join(rec.log, "\n")
			if rec.failed != (tt.fails != nil) {
				t.Fatalf("failed = %v, want %v:\n%s", rec.failed, tt.fails != nil, msg)
			}
			for _, f := range tt.fails {
				if !strings.Contains(msg, f) {
					t.Errorf("failure lacks %q:\n%s", f, msg)
				}
			}
			if tt.fails != nil && strings.Contains(msg, "step 1") && strings.Contains(msg, "step 0") {
				t.Errorf("more than one row reported:\n%s", msg)
			}
		})
	}
	// A step after the end is a Go error, reported with its row.
	rec := run(t, func(tb testing.TB) { Expect(tb, MakeReset(tb, r, yesID, 1), []Want{win, win}) })
	if !rec.failed || !strings.Contains(strings.Join(rec.log, ""), `step 1 "Yes"`) {
		t.Fatalf("a step after the end was not reported: %v", rec.log)
	}
}

func TestOracleWins(t *testing.T) {
	r := Registry(t, register)
	wins, trs := OracleWins(t, r, yesID, 5)
	if wins != 5 || len(trs) != 5 {
		t.Fatalf("%d wins, %d transcripts; want 5 and 5", wins, len(trs))
	}
	for i, tr := range trs {
		if tr.Seed != uint64(i) || tr.FirstObs != fmt.Sprintf("Say yes (seed %d).", i) || len(tr.Steps) != 1 || !tr.Success() {
			t.Fatalf("transcript %d: %s", i, tr)
		}
	}
	// Episodes stop at the limit; breaking out of the loop stops the play.
	n := 0
	for tr := range OracleEpisodes(t, Make(t, r, yesID, nil), 10, 0) {
		if tr.Done || len(tr.Steps) != 0 {
			t.Fatalf("a limit of 0 played %d steps", len(tr.Steps))
		}
		if n++; n == 2 {
			break
		}
	}
	if n != 2 {
		t.Fatalf("%d episodes before the break", n)
	}
}

func TestOptionErrors(t *testing.T) {
	r := Registry(t, register)
	rec := run(t, func(tb testing.TB) {
		OptionErrors(tb, r, yesID, []OptionCase{
			{Options: map[string]any{"limit": 0}, Option: "limit"},     // right
			{Options: map[string]any{"limit": 0}, Option: "max_turns"}, // wrong option
			{Options: map[string]any{"limit": 2}, Option: "limit"},     // no error
			{Options: map[string]any{"limits": 2}, Option: "limits"},   // unknown: right
		})
	})
	if msg := strings.Join(rec.log, "\n"); len(rec.log) != 2 || !strings.Contains(rec.log[0], `naming "max_turns"`) || !strings.Contains(rec.log[1], "err = <nil>") {
		t.Fatalf("option errors reported:\n%s", msg)
	}
	rec = run(t, func(tb testing.TB) {
		OptionsAccepted(tb, r, yesID, map[string]any{"limit": 2}, map[string]any{"limit": -1})
	})
	if len(rec.log) != 1 || !strings.Contains(rec.log[0], `option "limit"`) {
		t.Fatalf("accepted options reported: %v", rec.log)
	}
}

func TestRunAll(t *testing.T) { RunAll(t, Registry(t, register)) }

func BenchmarkHelpers(b *testing.B) {
	r := Registry(b, register)
	b.Run("Steps", func(b *testing.B) { BenchmarkSteps(b, r) })
	b.Run("StepsOnly", func(b *testing.B) { BenchmarkStepsOnly(b, r) })
	b.Run("Replay", func(b *testing.B) { BenchmarkReplay(b, r) })
}
