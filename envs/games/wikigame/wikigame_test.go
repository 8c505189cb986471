package wikigame

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

// mapBackend is a Backend that is not a *Graph, so the rules are tested
// through the interface alone.
type mapBackend struct {
	pages  map[string]Page
	titles []string
}

func (m mapBackend) Page(title string) (Page, error) {
	p, ok := m.pages[title]
	if !ok {
		return Page{}, ErrNoPage
	}
	return p, nil
}

func (m mapBackend) Titles() []string { return m.titles }

// tiny is the hand-drawn graph of the rule tables:
//
//	Alpha → Beta, Dead end, Gamma     Beta → Alpha, Target
//	Gamma → Alpha                     Target → Alpha
//	Dead end → (nothing)
func tiny() mapBackend {
	pages := []Page{
		{Title: "Alpha", Text: "The first page.", Links: []string{"Beta", "Dead end", "Gamma"}},
		{Title: "Beta", Text: "The second page.", Links: []string{"Alpha", "Target"}},
		{Title: "Gamma", Text: "A side page.", Links: []string{"Alpha"}},
		{Title: "Dead end", Text: "Nowhere to go."},
		{Title: "Target", Text: "The goal.", Links: []string{"Alpha"}},
	}
	m := mapBackend{pages: map[string]Page{}}
	for _, p := range pages {
		m.pages[p.Title] = p
		m.titles = append(m.titles, p.Title)
	}
	return m
}

func tinyOptions(variant string, maxTurns int) Options {
	return Options{
		MaxTurns:          maxTurns,
		PageSummaryLength: SummaryLength{Length: 100, Unit: "characters"},
		Variant:           variant,
		MinPathLength:     1,
		MaxPathLength:     min(2, maxTurns),
	}
}

// game starts a tiny game from Alpha to Target.
func game(t *testing.T, variant string, maxTurns int) (*Env, string, envs.Info) {
	t.Helper()
	b := tiny()
	e, err := New(tinyOptions(variant, maxTurns), b)
	if err != nil {
		t.Fatal(err)
	}
	obs, info := e.begin(b.pages["Alpha"], b.pages["Target"])
	return e, obs, info
}

// play plays a rule table on e: every step's suffix is the task's current one.
func play(t *testing.T, e *Env, steps []envtest.Want) {
	t.Helper()
	envtest.Table{Each: func(t testing.TB, i int, _ envtest.Want, res envs.StepResult) {
		if res.Info.Suffix != e.suffix() {
			t.Fatalf("step %d: info suffix is not the current task suffix", i)
		}
	}}.Expect(t, e, steps)
}

// on checks the page a step leaves the player on.
func on(e *Env, page string) envtest.Check {
	return func(t testing.TB, i int, w envtest.Want, _ envs.StepResult) {
		t.Helper()
		if e.current.Title != page {
			t.Fatalf("step %d %q: on page %q, want %q", i, w.Action, e.current.Title, page)
		}
	}
}

const navBeta = "At turn %d, you navigated to the 'Beta' page. Here is a summary of the page:\nThe second page....\n"

func at(format string, turn int) string { return fmt.Sprintf(format, turn) }

func TestRulesNoRegrets(t *testing.T) {
	t.Run("moves, invalid titles, format errors and the win", func(t *testing.T) {
		e, _, _ := game(t, NoRegrets, 10)
		play(t, e, []envtest.Want{
			{Action: `I'll go up. \boxed{Gamma} no, \boxed{Beta}`, Obs: at(navBeta, 1), Reward: StepReward, Check: on(e, "Beta")},
			{Action: `\boxed{Gamma}`, Obs: "At turn 2, you guessed 'Gamma', which is neither a neighboring page of 'Beta', " +
				"and neither could it be construed as a valid neighboring page title of it. You must match **exactly** one of the neighboring page titles to navigate there.",
				Reward: InvalidActionReward, InvalidAction: true, Check: on(e, "Beta")},
			{Action: `\boxed{targ}`, Obs: "At turn 3, you guessed 'targ', which is neither a neighboring page of 'Beta', " +
				"Did you mean 'Target'? You must match **exactly** one of the neighboring page titles to navigate there.",
				Reward: InvalidActionReward, InvalidAction: true, Check: on(e, "Beta")},
			{Action: `\boxed{ Target}`, Obs: "At turn 4, you guessed ' Target', which is neither a neighboring page of 'Beta', " +
				"and neither could it be construed as a valid neighboring page title of it. You must match **exactly** one of the neighboring page titles to navigate there.",
				Reward: InvalidActionReward, InvalidAction: true},
			{Action: "Target", Obs: "At turn 5, you did not provide a valid page title.", Reward: FormatErrorReward, FormatError: true},
			{Action: `\boxed{}`, Obs: "At turn 6, you did not provide a valid page title.", Reward: FormatErrorReward, FormatError: true},
			{Action: `\boxed{<PREV_PAGE>}`, Obs: "At turn 7, you attempted to backtrack to the previous page, but backtracking is not allowed in this variant of the Wikipedia Game.",
				Reward: InvalidActionReward, InvalidAction: true, Check: on(e, "Beta")},
			{Action: `\boxed{Target}`, Obs: "Congratulations! You have reached the target page 'Target' in 8 turns.", Reward: SuccessReward, Terminated: true, Success: true, Check: on(e, "Target")},
		})
	})
	t.Run("revisiting is a move", func(t *testing.T) {
		e, _, _ := game(t, NoRegrets, 10)
		play(t, e, []envtest.Want{
			{Action: `\boxed{Beta}`, Obs: at(navBeta, 1), Reward: StepReward},
			{Action: `\boxed{Alpha}`, Obs: "At turn 2, you navigated to the 'Alpha' page. Here is a summary of the page:\nThe first page....\n", Reward: StepReward, Check: on(e, "Alpha")},
			{Action: `\boxed{Beta}`, Obs: at(navBeta, 3), Reward: StepReward, Check: on(e, "Beta")},
		})
	})
	t.Run("a dead end loses", func(t *testing.T) {
		e, _, _ := game(t, NoRegrets, 10)
		play(t, e, []envtest.Want{{Action: `\boxed{Dead end}`, Obs: "At turn 1, you navigated to the 'Dead end' page, which is a dead-end page with no neighboring pages.",
			Reward: FailReward, Terminated: true, Check: on(e, "Dead end")}})
	})
	t.Run("the turn limit keeps the step penalty", func(t *testing.T) {
		e, _, _ := game(t, NoRegrets, 3)
		limit := "At turn 3, you have reached the maximum number of turns without reaching the target page 'Target'."
		play(t, e, []envtest.Want{
			{Action: `\boxed{Beta}`, Obs: at(navBeta, 1), Reward: StepReward},
			{Action: `\boxed{Alpha}`, Obs: "At turn 2, you navigated to the 'Alpha' page. Here is a summary of the page:\nThe first page....\n", Reward: StepReward},
			{Action: `\boxed{Beta}`, Obs: limit, Reward: StepReward + FailReward, Terminated: true, Truncated: true, Check: on(e, "Beta")},
		})
	})
	t.Run("the turn limit after an invalid title, a format error or a backtrack", func(t *testing.T) {
		limit := "At turn 1, you have reached the maximum number of turns without reaching the target page 'Target'."
		for _, s := range []envtest.Want{
			{Action: `\boxed{Nowhere}`, Obs: limit, Reward: InvalidActionReward, Terminated: true, Truncated: true, InvalidAction: true},
			{Action: `nothing`, Obs: limit, Reward: FormatErrorReward, Terminated: true, Truncated: true, FormatError: true},
			{Action: `\boxed{<PREV_PAGE>}`, Obs: limit, Reward: InvalidActionReward, Terminated: true, Truncated: true, InvalidAction: true},
		} {
			e, _, _ := game(t, NoRegrets, 1)
			play(t, e, []envtest.Want{s})
		}
	})
	t.Run("a win on the last turn is not truncated", func(t *testing.T) {
		e, _, _ := game(t, NoRegrets, 2)
		play(t, e, []envtest.Want{
			{Action: `\boxed{Beta}`, Obs: at(navBeta, 1), Reward: StepReward},
			{Action: `\boxed{Target}`, Obs: "Congratulations! You have reached the target page 'Target' in 2 turns.", Reward: SuccessReward, Terminated: true, Success: true},
		})
	})
}

func TestRulesOneBack(t *testing.T) {
	e, _, _ := game(t, OneBack, 10)
	play(t, e, []envtest.Want{
		{Action: `\boxed{<PREV_PAGE>}`, Obs: "At turn 1, you attempted to backtrack to the previous page, but there is no previous page that you can return to.",
			Reward: InvalidActionReward, InvalidAction: true, Check: on(e, "Alpha")},
		{Action: `\boxed{Dead end}`, Obs: "At turn 2, you reached a dead-end page 'Dead end' with no neighboring pages. " +
			"You have been automatically backtracked to the previous page 'Alpha' at the cost of an additional turn. So now, you are at turn 3. " +
			"Here is a summary of the page:\nThe first page....\n", Reward: 2 * StepReward, Check: on(e, "Alpha")},
		{Action: `\boxed{Beta}`, Obs: at(navBeta, 4), Reward: StepReward, Check: on(e, "Beta")},
		{Action: `\boxed{Alpha}`, Obs: "At turn 5, you navigated to the 'Alpha' page. Here is a summary of the page:\nThe first page....\n", Reward: StepReward, Check: on(e, "Alpha")},
		{Action: `\boxed{<PREV_PAGE>}`, Obs: "At turn 6, you backtracked to the previous page 'Beta'. Here is a summary of the page:\nThe second page....\n",
			Reward: StepReward, Check: on(e, "Beta")},
		{Action: `\boxed{<PREV_PAGE>}`, Obs: "At turn 7, you attempted to backtrack to the previous page, but you have already backtracked once and cannot do so again.",
			Reward: InvalidActionReward, InvalidAction: true, Check: on(e, "Beta")},
		{Action: `\boxed{Target}`, Obs: "Congratulations! You have reached the target page 'Target' in 8 turns.", Reward: SuccessReward, Terminated: true, Success: true},
	})

	t.Run("the dead end's extra turn can reach the limit", func(t *testing.T) {
		e, _, _ := game(t, OneBack, 2)
		play(t, e, []envtest.Want{{Action: `\boxed{Dead end}`, Obs: "At turn 2, you have reached the maximum number of turns without reaching the target page 'Target'.",
			Reward: 2 * StepReward, Terminated: true, Truncated: true}})
	})
}

func TestRulesFreeNav(t *testing.T) {
	e, obs, _ := game(t, FreeNav, 10)
	if !strings.Contains(obs, "you may respond \\boxed{<PREV_PAGE>} to return to the previous page. Do note, however, that this counts towards your maximum number of turns. \n") {
		t.Fatalf("instructions lack the freenav rule:\n%s", obs)
	}
	play(t, e, []envtest.Want{
		{Action: `\boxed{Beta}`, Obs: at(navBeta, 1), Reward: StepReward},
		{Action: `\boxed{Alpha}`, Obs: "At turn 2, you navigated to the 'Alpha' page. Here is a summary of the page:\nThe first page....\n", Reward: StepReward},
		{Action: `\boxed{<PREV_PAGE>}`, Obs: "At turn 3, you backtracked to the previous page 'Beta'. Here is a summary of the page:\nThe second page....\n", Reward: StepReward, Check: on(e, "Beta")},
		{Action: `\boxed{<PREV_PAGE>}`, Obs: "At turn 4, you backtracked to the previous page 'Alpha'. Here is a summary of the page:\nThe first page....\n", Reward: StepReward, Check: on(e, "Alpha")},
		{Action: `\boxed{<PREV_PAGE>}`, Obs: "At turn 5, you attempted to backtrack to the previous page, but there is no previous page that you can return to.",
			Reward: InvalidActionReward, InvalidAction: true, Check: on(e, "Alpha")},
	})
}

func TestRulesEidetic(t *testing.T) {
	e, _, _ := game(t, Eidetic, 10)
	play(t, e, []envtest.Want{
		{Action: `\boxed{Target}`, Obs: "At turn 1, you guessed 'Target', which is neither a neighboring page of 'Alpha', " +
			"and neither could it be construed as a valid neighboring page title of it. You must match **exactly** one of the neighboring page titles to navigate there.",
			Reward: InvalidActionReward, InvalidAction: true},
		{Action: `\boxed{Beta}`, Obs: at(navBeta, 2), Reward: StepReward},
		// Gamma is no link of Beta, but Alpha's, which the agent has seen.
		{Action: `\boxed{Gamma}`, Obs: "At turn 3, you navigated to the 'Gamma' page. Here is a summary of the page:\nA side page....\n", Reward: StepReward, Check: on(e, "Gamma")},
		// No dead end for an eidetic player: it remembers other pages.
		{Action: `\boxed{Dead end}`, Obs: "At turn 4, you navigated to the 'Dead end' page. Here is a summary of the page:\nNowhere to go....\n", Reward: StepReward, Check: on(e, "Dead end")},
	})
	want := "You are currently on the 'Dead end' page. Your target page is 'Target'.\nHere is a summary of the page:\nNowhere to go....\n" +
		"This page has the following neighboring pages: \n- \\boxed{Beta}\n- \\boxed{Dead end}\n- \\boxed{Gamma}\n- \\boxed{Alpha}\n- \\boxed{Target}\n" +
		"Enter the title of the neighboring page you want to navigate to."
	if got := e.suffix(); got != want {
		t.Fatalf("eidetic suffix:\n got %q\nwant %q", got, want)
	}
	play(t, e, []envtest.Want{{Action: `\boxed{<PREV_PAGE>}`, Obs: "At turn 5, you attempted to backtrack to the previous page, but backtracking is not allowed in this variant of the Wikipedia Game.",
		Reward: InvalidActionReward, InvalidAction: true}})
	play(t, e, []envtest.Want{{Action: `\boxed{Target}`, Obs: "Congratulations! You have reached the target page 'Target' in 6 turns.", Reward: SuccessReward, Terminated: true, Success: true}})

	// A new episode forgets (GEM remembers across episodes).
	b := tiny()
	e.begin(b.pages["Alpha"], b.pages["Target"])
	play(t, e, []envtest.Want{{Action: `\boxed{Target}`, Obs: "At turn 1, you guessed 'Target', which is neither a neighboring page of 'Alpha', " +
		"and neither could it be construed as a valid neighboring page title of it. You must match **exactly** one of the neighboring page titles to navigate there.",
		Reward: InvalidActionReward, InvalidAction: true}})
}

func TestObservations(t *testing.T) {
	_, obs, info := game(t, NoRegrets, 30)
	wantObs := "You are playing the Wikipedia Game, and must reach the target Wikipedia page within 30 turns.\n" +
		"This game tests your general knowledge and navigation skills.\n" +
		"A page refers to a webpage.\n" +
		"A Wikipedia page is a webpage on Wikipedia containing articles on a specific topic, as identified by its title.\n" +
		"A neighboring page is any page accessible via a hyperlink from the current page.\n" +
		"You will start at a random Wikipedia page, and must navigate to a target Wikipedia page by visiting neighboring pages.\n" +
		"To visit a neighboring page, enter its EXACT title, wrapped in \\boxed{} tags (for example, \\boxed{Python (programming language)}).\n" +
		"Choose wisely, as you may NOT backtrack; you can only visit neighboring pages (though you may revisit pages). " +
		"Note that trying to backtrack is an illegal move and will still count towards your maximum number of turns.\n" +
		"You started at 'Alpha' and your target page is 'Target'.\n" +
		"Here is a summary of the target page:\nThe goal....\n" +
		"You can visit up to 30 neighboring pages (excluding the starting page) to reach the target page.\n" +
		"Use the information to navigate to the target page before you run out of turns. " +
		"Before you make a guess, mention the pages you think will help you reach the target page quickly. " +
		"Then, justify which is the best and enter that page's title in \\boxed{} tags to navigate there.\n" +
		"Enter your first guess to start the game.\n"
	if obs != wantObs {
		t.Errorf("first observation:\n got %q\nwant %q", obs, wantObs)
	}
	wantSuffix := "You are currently on the 'Alpha' page. Your target page is 'Target'.\n" +
		"Here is a summary of the page:\nThe first page....\n" +
		"This page has the following neighboring pages: \n- \\boxed{Beta}\n- \\boxed{Dead end}\n- \\boxed{Gamma}\n" +
		"Enter the title of the neighboring page you want to navigate to."
	if info.Suffix != wantSuffix {
		t.Errorf("first suffix:\n got %q\nwant %q", info.Suffix, wantSuffix)
	}
	if info.Extra["start"] != "Alpha" || info.Extra["target"] != "Target" {
		t.Errorf("reset info extra = %v", info.Extra)
	}
}

func TestSummary(t *testing.T) {
	text := "Über   café. It is big!  Is it?\tyes... Then  END. ok"
	for _, tt := range []struct {
		n    int
		unit string
		want string
	}{
		{4, "characters", "Über"}, // code points, as Python slices
		{0, "characters", ""},
		{999, "characters", text},
		{3, "words", "Über café. It"},
		{99, "words", "Über café. It is big! Is it? yes... Then END. ok"},
		{1, "sentences", "Über   café."},
		{3, "sentences", "Über   café. It is big! Is it?\tyes..."},
		{9, "sentences", "Über   café. It is big! Is it?\tyes... Then  END. ok"},
	} {
		e, err := New(Options{MaxTurns: 5, PageSummaryLength: SummaryLength{tt.n, tt.unit, ""}, Variant: NoRegrets, MinPathLength: 1, MaxPathLength: 1}, tiny())
		if err != nil {
			t.Fatal(err)
		}
		if got := e.summary(Page{Text: text}); got != tt.want {
			t.Errorf("summary(%d %s) = %q, want %q", tt.n, tt.unit, got, tt.want)
		}
	}
}

func TestResetDrawsTheDistance(t *testing.T) {
	// Distances in tiny: Alpha→Target 2, Beta→Target 1, Gamma→Target 3,
	// Target→Beta 2; Dead end reaches nothing.
	for _, tt := range []struct {
		lo, hi int
		pairs  map[[2]string]bool
	}{
		{3, 3, map[[2]string]bool{{"Gamma", "Target"}: true}},
		{3, 4, map[[2]string]bool{{"Gamma", "Target"}: true}},
	} {
		o := tinyOptions(NoRegrets, 10)
		o.MinPathLength, o.MaxPathLength = tt.lo, tt.hi
		e, err := New(o, tiny())
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(20) {
			_, info, err := e.Reset(seed)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.pairs[[2]string{e.start.Title, e.target.Title}] || info.Extra["shortest_path"] != 3 {
				t.Fatalf("range %d..%d seed %d: %s → %s (%v)", tt.lo, tt.hi, seed, e.start.Title, e.target.Title, info.Extra)
			}
		}
	}
	o := tinyOptions(NoRegrets, 10)
	o.MinPathLength, o.MaxPathLength = 5, 6
	e, _ := New(o, tiny())
	if _, _, err := e.Reset(1); err == nil {
		t.Fatal("Reset found a pair 5 links apart in a graph without one")
	}
}

func TestVariants(t *testing.T) {
	r := registry(t)
	for _, v := range variantOptions {
		id := "game:WikiGame-v0-" + v.suffix
		spec, err := r.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		if spec.MaxTurns != v.turns {
			t.Errorf("%s: MaxTurns %d, want %d", id, spec.MaxTurns, v.turns)
		}
		e, _ := r.Make(id, nil)
		seen := map[int]bool{}
		starts := map[string]bool{}
		for seed := range uint64(200) {
			obs, info, err := e.Reset(seed)
			if err != nil {
				t.Fatal(err)
			}
			d := info.Extra["shortest_path"].(int)
			if d < v.min || d > v.max {
				t.Fatalf("%s seed %d: shortest path %d outside %d..%d", id, seed, d, v.min, v.max)
			}
			if !strings.Contains(obs, fmt.Sprintf("within %d turns", v.turns)) {
				t.Fatalf("%s: first observation does not state %d turns", id, v.turns)
			}
			seen[d] = true
			starts[info.Extra["start"].(string)] = true
		}
		for d := v.min; d <= v.max-1; d++ { // the longest distance may be rare
			if !seen[d] {
				t.Errorf("%s: no episode of distance %d in 200 seeds", id, d)
			}
		}
		if len(starts) < 150 {
			t.Errorf("%s: only %d distinct start pages in 200 seeds", id, len(starts))
		}
	}
}

func TestConformance(t *testing.T) { envtest.RunAll(t, registry(t)) }

func TestOracleWinsEverySeed(t *testing.T) {
	r := registry(t)
	for _, id := range r.IDs() {
		_, trs := envtest.OracleWins(t, r, id, 200)
		for _, tr := range trs {
			if !tr.Success() {
				t.Fatalf("%s seed %d: oracle lost:\n%s", id, tr.Seed, tr)
			}
			if d := tr.FirstInfo.Extra["shortest_path"].(int); len(tr.Steps) != d {
				t.Fatalf("%s seed %d: oracle took %d steps for a shortest path of %d", id, tr.Seed, len(tr.Steps), d)
			}
		}
	}
}

func TestOracleOnEveryVariant(t *testing.T) {
	for _, variant := range variants {
		o := tinyOptions(variant, 10)
		o.MinPathLength, o.MaxPathLength = 1, 3
		e, err := New(o, tiny())
		if err != nil {
			t.Fatal(err)
		}
		for tr := range envtest.OracleEpisodes(t, e, 20, 10) {
			if !tr.Success() || len(tr.Steps) != tr.FirstInfo.Extra["shortest_path"].(int) {
				t.Fatalf("%s seed %d: oracle did not win by a shortest path:\n%s", variant, tr.Seed, tr)
			}
		}
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	e, err := r.Make("game:WikiGame-v0-easy", map[string]any{
		"max_turns": 12, "variant": "freenav", "page_summary_length": []any{3, "words"}, "min_path_length": 3, "max_path_length": 3,
		"backend": "wordnet", "trawler_kwargs": nil,
	})
	if err != nil {
		t.Fatal(err)
	}
	_, info, err := e.Reset(0)
	if err != nil {
		t.Fatal(err)
	}
	g := e.(envs.Unwrapper).Unwrap().(*Env)
	if g.opts.MaxTurns != 12 || g.opts.Variant != FreeNav || g.opts.PageSummaryLength.Length != 3 || g.opts.PageSummaryLength.Unit != "words" ||
		info.Extra["shortest_path"] != 3 {
		t.Fatalf("options not applied: %+v, %v", g.opts, info.Extra)
	}
	if want := strings.Join(strings.Fields(g.current.Text)[:3], " ") + "..."; !strings.Contains(info.Suffix, "\n"+want+"\n") {
		t.Fatalf("suffix does not show a 3-word summary %q:\n%s", want, info.Suffix)
	}

	spec, _ := r.Lookup("game:WikiGame-v0-hard")
	def := spec.Defaults()
	if def["max_turns"] != float64(15) || def["variant"] != "noregrets" || def["backend"] != "wordnet" {
		t.Errorf("defaults %v", def)
	}
	if psl, ok := def["page_summary_length"].([]any); !ok || len(psl) != 2 || psl[0] != float64(100) || psl[1] != "characters" {
		t.Errorf("page_summary_length default %v, want [100 characters]", def["page_summary_length"])
	}

	envtest.OptionErrors(t, r, "game:WikiGame-v0-easy", []envtest.OptionCase{
		{Options: map[string]any{"max_turns": 0}, Option: "max_turns"},
		{Options: map[string]any{"max_turns": 3}, Option: "max_path_length"}, // easy paths reach 4 links
		{Options: map[string]any{"max_turns": "30"}, Option: "max_turns"},
		{Options: map[string]any{"variant": "backwards"}, Option: "variant"},
		{Options: map[string]any{"backend": "mw"}, Option: "backend"},
		{Options: map[string]any{"backend": "kiwix"}, Option: "backend"},
		{Options: map[string]any{"trawler_kwargs": map[string]any{"url": "http://localhost:8080"}}, Option: "trawler_kwargs"},
		{Options: map[string]any{"page_summary_length": []any{100, "lines"}}, Option: "page_summary_length"},
		{Options: map[string]any{"page_summary_length": []any{-1, "words"}}, Option: "page_summary_length"},
		{Options: map[string]any{"page_summary_length": 100}, Option: "page_summary_length"},
		{Options: map[string]any{"page_summary_length": []any{"100", "words"}}, Option: "page_summary_length"},
		{Options: map[string]any{"page_summary_length": []any{100}}, Option: "page_summary_length"},
		{Options: map[string]any{"min_path_length": 0}, Option: "min_path_length"},
		{Options: map[string]any{"min_path_length": 5}, Option: "max_path_length"},
		{Options: map[string]any{"max_path_length": 31}, Option: "max_path_length"},
		{Options: map[string]any{"max_turn": 30}, Option: "max_turn"},
	})
	if _, err := New(Options{}, tiny()); err == nil {
		t.Error("New accepted zero options")
	}
	if _, err := New(tinyOptions(NoRegrets, 5), nil); err == nil {
		t.Error("New accepted a nil backend")
	}
}

func TestStepErrorsOnABrokenBackend(t *testing.T) {
	b := tiny()
	p := b.pages["Alpha"]
	p.Links = append(p.Links, "Missing")
	b.pages["Alpha"] = p
	e, err := New(tinyOptions(NoRegrets, 5), b)
	if err != nil {
		t.Fatal(err)
	}
	e.begin(b.pages["Alpha"], b.pages["Target"])
	if _, err := e.Step(`\boxed{Missing}`); !errors.Is(err, ErrNoPage) {
		t.Fatalf("following a link the backend lacks: err %v, want ErrNoPage", err)
	}
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkSteps(b, registry(b)) }
