// Package wikigame is GEM's game:WikiGame: navigate from a start article to
// a target article by following links, one link a turn.
//
// GEM plays on live Wikipedia (MediaWiki API or a Kiwix server). Quarry
// plays, by default, on a link graph bundled with the package and built
// from WordNet 3.0's common nouns (Bundled; see PROVENANCE.md): an article
// per noun, its text from the noun's gloss, links along hypernyms,
// hyponyms, meronyms, holonyms, "see also"-like relations and the nouns its
// definition mentions. Any other wiki can be plugged in as a Backend.
//
// Unlike GEM, which draws start and target independently at random, an
// episode draws its start page and then a target whose shortest-path
// distance lies in the variant's range (Options.MinPathLength ..
// MaxPathLength), so every episode is winnable within its turn limit and
// difficulty is controlled. The oracle follows a shortest path.
package wikigame

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games"
)

// Rewards: GEM's WikiGameReward (gem/envs/game_env/wikigame/rewards.py),
// which overrides the shared game rewards.
const (
	SuccessReward       = games.SuccessReward // the target is reached
	StepReward          = -0.05               // following a link that is not the target
	FailReward          = games.FailReward    // a dead end, or the turn limit
	InvalidActionReward = -0.2                // a title that is not a link of the page; a forbidden backtrack
	FormatErrorReward   = -0.2                // no \boxed{title}: the episode goes on
)

// Backtrack is the action that returns to the previous page in the
// "oneback" and "freenav" variants.
const Backtrack = "<PREV_PAGE>"

// Variants are GEM's rule sets (its `variant` option).
const (
	NoRegrets = "noregrets" // follow links only; backtracking is illegal; a dead end loses
	OneBack   = "oneback"   // may backtrack, never twice in a row; a dead end bounces back
	FreeNav   = "freenav"   // may backtrack freely; a dead end bounces back
	Eidetic   = "eidetic"   // may visit any page linked from any page visited; no backtracking
)

var variants = []string{NoRegrets, OneBack, FreeNav, Eidetic}

// Summary units (GEM's VALID_SUMMARY_UNITS).
var summaryUnits = []string{"characters", "words", "sentences"}

// BackendWordNet names the bundled graph. GEM's "mw" (MediaWiki) and
// "kiwix" backends are not implemented; plug one in with New.
const BackendWordNet = "wordnet"

// SummaryLength is GEM's page_summary_length, a (length, unit) pair:
// JSON [100, "characters"]. Unit is "characters", "words" or "sentences".
type SummaryLength struct {
	Length int
	Unit   string
	bad    string // why the JSON value was not a (length, unit) pair; Validate reports it
}

// BoundValue is the number the option's range bounds: the length.
func (s SummaryLength) BoundValue() float64 { return float64(s.Length) }

// MarshalJSON writes the pair as GEM's tuple.
func (s SummaryLength) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{s.Length, s.Unit})
}

// UnmarshalJSON reads [length, unit]. A value of another shape is kept as
// invalid, so that Validate can name the option in its error.
func (s *SummaryLength) UnmarshalJSON(b []byte) error {
	*s = SummaryLength{}
	var pair []json.RawMessage
	if err := json.Unmarshal(b, &pair); err != nil || len(pair) != 2 {
		s.bad = fmt.Sprintf("got %s, want [length, unit]", b)
		return nil
	}
	if json.Unmarshal(pair[0], &s.Length) != nil || json.Unmarshal(pair[1], &s.Unit) != nil {
		s.bad = fmt.Sprintf("got %s, want [length, unit]: an integer and a string", b)
	}
	return nil
}

// Options are GEM's WikiGameEnv parameters, plus the path-length range
// Quarry draws episodes from.
type Options struct {
	MaxTurns int `json:"max_turns" range:"1,1000"`
	// Backend: "wordnet", the bundled graph (GEM: "mw" or "kiwix").
	Backend string `json:"backend" len:"0,32"`
	// TrawlerKwargs configure GEM's live backends; the bundled graph takes none.
	TrawlerKwargs     map[string]any `json:"trawler_kwargs" len:"0,0"`
	PageSummaryLength SummaryLength  `json:"page_summary_length" range:"0,100000"`
	Variant           string         `json:"variant" len:"0,32"`
	// MinPathLength and MaxPathLength bound the shortest-path distance from
	// start to target (not in GEM, which draws both pages at random).
	MinPathLength int `json:"min_path_length" range:"1,1000"`
	MaxPathLength int `json:"max_path_length" range:"1,1000"`
}

// Validate checks every option.
func (o Options) Validate() error {
	switch {
	case o.Backend != BackendWordNet:
		return &envs.OptionError{Option: "backend", Reason: fmt.Sprintf("got %q; only %q (the bundled graph) is available: GEM's live \"mw\" and \"kiwix\" backends are not implemented", o.Backend, BackendWordNet)}
	case len(o.TrawlerKwargs) > 0:
		return &envs.OptionError{Option: "trawler_kwargs", Reason: "the bundled graph takes none"}
	}
	return o.checkRules()
}

// checkRules checks the options that do not concern the backend.
func (o Options) checkRules() error {
	switch {
	case o.MaxTurns < 1:
		return &envs.OptionError{Option: "max_turns", Reason: "must be a positive integer"}
	case o.PageSummaryLength.bad != "":
		return &envs.OptionError{Option: "page_summary_length", Reason: o.PageSummaryLength.bad}
	case o.PageSummaryLength.Length < 0 || !slices.Contains(summaryUnits, o.PageSummaryLength.Unit):
		return &envs.OptionError{Option: "page_summary_length", Reason: fmt.Sprintf("got [%d, %q], want a non-negative length and a unit of %s",
			o.PageSummaryLength.Length, o.PageSummaryLength.Unit, strings.Join(summaryUnits, ", "))}
	case !slices.Contains(variants, o.Variant):
		return &envs.OptionError{Option: "variant", Reason: fmt.Sprintf("got %q, want one of %s", o.Variant, strings.Join(variants, ", "))}
	case o.MinPathLength < 1:
		return &envs.OptionError{Option: "min_path_length", Reason: "must be at least 1"}
	case o.MaxPathLength < o.MinPathLength:
		return &envs.OptionError{Option: "max_path_length", Reason: fmt.Sprintf("must be at least min_path_length (%d)", o.MinPathLength)}
	case o.MaxPathLength > o.MaxTurns:
		// Every episode must be winnable within its turns.
		return &envs.OptionError{Option: "max_path_length", Reason: fmt.Sprintf("must not exceed max_turns (%d)", o.MaxTurns)}
	}
	return nil
}

// Variant ranges. GEM registers both ids with random start and target
// pages and gives easy twice hard's turns (30 and 15). Random pairs of the
// bundled graph are mostly 4–8 links apart (6 most often; 5–8 for 83% of
// them), so -hard draws such typical pairs (5–8 links) in 15 turns, and
// -easy near ones (2–4 links) in 30.
var variantOptions = []struct {
	suffix   string
	turns    int
	min, max int
}{
	{"easy", 30, 2, 4},
	{"hard", 15, 5, 8},
}

// Register adds game:WikiGame-v0-easy and game:WikiGame-v0-hard.
func Register(r *envs.Registry) error {
	variants := make([]games.Variant[Options], len(variantOptions))
	for i, v := range variantOptions {
		variants[i] = games.Variant[Options]{
			Suffix: v.suffix,
			Options: Options{
				MaxTurns:          v.turns,
				Backend:           BackendWordNet,
				PageSummaryLength: SummaryLength{Length: 100, Unit: "characters"},
				Variant:           NoRegrets,
				MinPathLength:     v.min,
				MaxPathLength:     v.max,
			},
			MaxTurns: v.turns,
			Description: fmt.Sprintf("Navigate from a start article to a target article %d–%d links away by following links, within %d turns.",
				v.min, v.max, v.turns),
		}
	}
	return games.RegisterVariants(r, envs.Spec{
		ID:         "game:WikiGame-v0",
		RewardMin:  min(InvalidActionReward, FormatErrorReward),
		RewardMax:  SuccessReward,
		Revision:   1,
		DataDigest: Digest(),
	}, func(o Options) (envs.Env, error) { return New(o, Bundled()) }, variants...)
}

// Env is one WikiGame.
type Env struct {
	opts    Options
	backend Backend

	rng         *rand.Rand
	search      search
	start       Page
	target      Page
	current     Page
	history     []Page // pages moved to, the start first; backtracking pops it
	backtracked bool   // the last move was a backtrack (oneback forbids another)
	memory      []string
	remembered  map[string]bool // eidetic: every link of every page visited
	turn        int
	route       []string // the oracle's shortest path, kept while play follows it
	cands       []Page   // Reset's candidate targets
}

// New returns a game over backend. Options are validated as the registry
// does, except backend and trawler_kwargs, which describe the bundled graph
// and are ignored here.
func New(opts Options, backend Backend) (*Env, error) {
	if err := opts.checkRules(); err != nil {
		return nil, err
	}
	if backend == nil {
		return nil, errors.New("wikigame: nil backend")
	}
	return &Env{opts: opts, backend: backend, remembered: map[string]bool{}}, nil
}

// maxDraws bounds the start pages tried before Reset gives up.
const maxDraws = 100

// Reset draws a start page and a target whose distance from it lies in
// [MinPathLength, MaxPathLength].
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = envs.NewRand(seed)
	titles := e.backend.Titles()
	if len(titles) == 0 {
		return "", envs.Info{}, errors.New("wikigame: the backend has no pages")
	}
	for range maxDraws {
		start, err := e.backend.Page(titles[e.rng.IntN(len(titles))])
		if err != nil {
			return "", envs.Info{}, fmt.Errorf("wikigame: draw a start page: %w", err)
		}
		e.cands = e.cands[:0]
		err = e.search.run(e.backend, start, e.opts.MaxPathLength, func(p Page, depth int) bool {
			if depth >= e.opts.MinPathLength {
				e.cands = append(e.cands, p)
			}
			return true
		})
		if err != nil {
			return "", envs.Info{}, err
		}
		if len(e.cands) > 0 {
			target := e.cands[e.rng.IntN(len(e.cands))]
			obs, info := e.begin(start, target)
			info.Extra["shortest_path"] = len(e.search.path(target.Title)) - 1
			return obs, info, nil
		}
	}
	return "", envs.Info{}, fmt.Errorf("wikigame: no target %d–%d links from %d random start pages",
		e.opts.MinPathLength, e.opts.MaxPathLength, maxDraws)
}

// begin starts an episode from start to target (GEM's _reset_fixed_page).
func (e *Env) begin(start, target Page) (string, envs.Info) {
	e.start, e.target, e.current = start, target, start
	e.history = append(e.history[:0], start)
	e.backtracked = false
	// GEM never resets its eidetic memory, so pages seen in one episode stay
	// reachable in the next; Quarry starts each episode afresh.
	e.memory = e.memory[:0]
	clear(e.remembered)
	e.remember(start)
	e.turn = 0
	e.route = nil
	info := e.info()
	info.Extra = map[string]any{"start": start.Title, "target": target.Title}
	return e.instructions(), info
}

func (e *Env) remember(p Page) {
	if e.opts.Variant != Eidetic {
		return
	}
	for _, l := range p.Links {
		if !e.remembered[l] {
			e.remembered[l] = true
			e.memory = append(e.memory, l)
		}
	}
}

// validPages are the titles the agent may move to from the current page
// (GEM's dynamics.valid_pages).
func (e *Env) validPages() []string {
	if e.opts.Variant == Eidetic {
		return e.memory
	}
	return e.current.Links
}

func (e *Env) canMoveTo(title string) bool {
	if e.opts.Variant == Eidetic {
		return e.remembered[title]
	}
	return slices.Contains(e.current.Links, title)
}

func (e *Env) info() envs.Info { return envs.Info{Suffix: e.suffix()} }

// Step applies one action with GEM's rules.
func (e *Env) Step(action string) (envs.StepResult, error) {
	e.turn++
	title, ok := envs.LastBoxed(action)
	if !ok || title == "" {
		res := e.result(fmt.Sprintf("At turn %d, you did not provide a valid page title.", e.turn), FormatErrorReward)
		res.Info.FormatError = true
		return e.limit(res), nil
	}
	parsed := `\boxed{` + title + `}`
	var res envs.StepResult
	switch {
	case title == Backtrack:
		res = e.backtrack()
	case !e.canMoveTo(title):
		res = e.result(e.invalidObs(title), InvalidActionReward)
		res.Info.InvalidAction = true
	default:
		next, err := e.backend.Page(title)
		if err != nil {
			// GEM raises too: a link the backend cannot serve is a fault of
			// the backend, not of the agent.
			return envs.StepResult{}, fmt.Errorf("wikigame: follow link %q: %w", title, err)
		}
		switch {
		case next.Title == e.target.Title:
			e.moveTo(next)
			res = e.result(fmt.Sprintf("Congratulations! You have reached the target page '%s' in %d turns.", e.target.Title, e.turn), SuccessReward)
			res.Terminated = true
			res.Info.Success = true
			res.Info.ParsedAction = parsed
			return res, nil
		case len(next.Links) == 0 && e.opts.Variant != Eidetic:
			// (An eidetic player still has every page it remembers.)
			res = e.deadEnd(next)
			if res.Terminated {
				res.Info.ParsedAction = parsed
				return res, nil
			}
		default:
			e.moveTo(next)
			res = e.result(fmt.Sprintf("At turn %d, you navigated to the '%s' page. Here is a summary of the page:\n%s...\n",
				e.turn, next.Title, e.summary(next)), StepReward)
		}
	}
	res.Info.ParsedAction = parsed
	return e.limit(res), nil
}

// result is a step that does not end the episode; its suffix shows the
// page the agent is now on.
func (e *Env) result(obs string, reward float64) envs.StepResult {
	return envs.StepResult{Observation: obs, Reward: reward, Info: e.info()}
}

// limit ends the episode at the turn limit. GEM does so only after a move
// or an invalid title, replacing their penalty with fail_reward (0); after a
// format error or a backtrack it keeps the penalty and sets only
// truncated. Quarry treats every action alike: the penalty stands (plus
// fail_reward) — a wasted last turn costs what a wasted earlier one does —
// and both flags are set, as in every other game.
func (e *Env) limit(res envs.StepResult) envs.StepResult {
	if e.turn < e.opts.MaxTurns {
		return res
	}
	res.Observation = fmt.Sprintf("At turn %d, you have reached the maximum number of turns without reaching the target page '%s'.",
		e.turn, e.target.Title)
	res.Reward += FailReward
	res.Terminated, res.Truncated = true, true
	return res
}

func (e *Env) moveTo(p Page) {
	e.current = p
	e.history = append(e.history, p)
	e.backtracked = false
	e.remember(p)
}

// invalidObs tells the agent its title is not a link, suggesting the first
// valid title that contains it (GEM's fuzzy match).
func (e *Env) invalidObs(title string) string {
	hint := "and neither could it be construed as a valid neighboring page title of it. "
	low := strings.ToLower(title)
	for _, l := range e.validPages() {
		if strings.Contains(strings.ToLower(l), low) {
			// GEM runs "?" into the next sentence; Quarry adds the space.
			hint = fmt.Sprintf("Did you mean '%s'? ", l)
			break
		}
	}
	return fmt.Sprintf("At turn %d, you guessed '%s', which is neither a neighboring page of '%s', %sYou must match **exactly** one of the neighboring page titles to navigate there.",
		e.turn, title, e.current.Title, hint)
}

// backtrack handles \boxed{<PREV_PAGE>} (GEM's handle_backtrack).
func (e *Env) backtrack() envs.StepResult {
	var obs string
	switch {
	case e.opts.Variant == NoRegrets || e.opts.Variant == Eidetic:
		obs = fmt.Sprintf("At turn %d, you attempted to backtrack to the previous page, but backtracking is not allowed in this variant of the Wikipedia Game.", e.turn)
	case len(e.history) < 2:
		obs = fmt.Sprintf("At turn %d, you attempted to backtrack to the previous page, but there is no previous page that you can return to.", e.turn)
	case e.opts.Variant == OneBack && e.backtracked:
		obs = fmt.Sprintf("At turn %d, you attempted to backtrack to the previous page, but you have already backtracked once and cannot do so again.", e.turn)
	default:
		e.history = e.history[:len(e.history)-1]
		e.current = e.history[len(e.history)-1]
		e.backtracked = true
		return e.result(fmt.Sprintf("At turn %d, you backtracked to the previous page '%s'. Here is a summary of the page:\n%s...\n",
			e.turn, e.current.Title, e.summary(e.current)), StepReward)
	}
	res := e.result(obs, InvalidActionReward)
	res.Info.InvalidAction = true
	return res
}

// deadEnd handles a move to a page without links (GEM's handle_dead_end):
// noregrets ends the game there; oneback and freenav bounce the agent back
// at the cost of an extra turn.
func (e *Env) deadEnd(p Page) envs.StepResult {
	if e.opts.Variant == NoRegrets {
		e.moveTo(p)
		// GEM runs "page" and "with" together; Quarry adds the space.
		res := e.result(fmt.Sprintf("At turn %d, you navigated to the '%s' page, which is a dead-end page with no neighboring pages.", e.turn, p.Title), FailReward)
		res.Terminated = true
		return res
	}
	e.backtracked = true
	obs := fmt.Sprintf("At turn %d, you reached a dead-end page '%s' with no neighboring pages. "+
		"You have been automatically backtracked to the previous page '%s' at the cost of an additional turn. "+
		"So now, you are at turn %d. Here is a summary of the page:\n%s...\n",
		e.turn, p.Title, e.current.Title, e.turn+1, e.summary(e.current))
	e.turn++
	return e.result(obs, 2*StepReward)
}

// SampleRandomAction follows a random link of the current page, as GEM.
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	links := e.current.Links
	if len(links) == 0 {
		links = e.validPages()
	}
	if len(links) == 0 {
		return `\boxed{` + Backtrack + `}`
	}
	return `\boxed{` + links[rng.IntN(len(links))] + `}`
}

// OracleAction follows a shortest path from the current page to the
// target, found by breadth-first search over the backend's links. It knows
// the whole graph, which the agent does not: its transcripts show optimal
// play, not play from what the agent has seen.
func (e *Env) OracleAction() (string, error) {
	if i := slices.Index(e.route, e.current.Title); i >= 0 && i+1 < len(e.route) {
		return `\boxed{` + e.route[i+1] + `}`, nil
	}
	e.route = nil
	err := e.search.run(e.backend, e.current, len(e.backend.Titles()), func(p Page, _ int) bool {
		if p.Title == e.target.Title {
			e.route = e.search.path(p.Title)
			return false
		}
		return true
	})
	if err != nil {
		return "", err
	}
	if len(e.route) < 2 {
		// The target cannot be reached from here (never on the bundled
		// graph, whose every page reaches every other): any legal move.
		if valid := e.validPages(); len(valid) > 0 {
			return `\boxed{` + valid[0] + `}`, nil
		}
		return `\boxed{` + Backtrack + `}`, nil
	}
	return `\boxed{` + e.route[1] + `}`, nil
}

// instructions is GEM's first observation.
func (e *Env) instructions() string {
	var b strings.Builder
	fmt.Fprintf(&b, "You are playing the Wikipedia Game, and must reach the target Wikipedia page within %d turns.\n", e.opts.MaxTurns)
	b.WriteString("This game tests your general knowledge and navigation skills.\n" +
		"A page refers to a webpage.\n" +
		"A Wikipedia page is a webpage on Wikipedia containing articles on a specific topic, as identified by its title.\n" +
		"A neighboring page is any page accessible via a hyperlink from the current page.\n" +
		"You will start at a random Wikipedia page, and must navigate to a target Wikipedia page by visiting neighboring pages.\n" +
		// GEM's example, \boxed{Python_(programming_language)}, writes the
		// title with underscores, which never match: titles have spaces.
		"To visit a neighboring page, enter its EXACT title, wrapped in \\boxed{} tags (for example, \\boxed{Python (programming language)}).\n")
	b.WriteString(e.rulesSnippet())
	fmt.Fprintf(&b, "You started at '%s' and your target page is '%s'.\n", e.start.Title, e.target.Title)
	fmt.Fprintf(&b, "Here is a summary of the target page:\n%s...\n", e.summary(e.target))
	fmt.Fprintf(&b, "You can visit up to %d neighboring pages (excluding the starting page) to reach the target page.\n", e.opts.MaxTurns)
	b.WriteString("Use the information to navigate to the target page before you run out of turns. " +
		"Before you make a guess, mention the pages you think will help you reach the target page quickly. " +
		"Then, justify which is the best and enter that page's title in \\boxed{} tags to navigate there.\n" +
		"Enter your first guess to start the game.\n")
	return b.String()
}

// rulesSnippet is the variant's rule text (GEM's get_instruction_snippet).
func (e *Env) rulesSnippet() string {
	noRegrets := "Choose wisely, as you may NOT backtrack; you can only visit neighboring pages (though you may revisit pages). " +
		"Note that trying to backtrack is an illegal move and will still count towards your maximum number of turns.\n"
	switch e.opts.Variant {
	case OneBack:
		return "If you wish, you may respond \\boxed{<PREV_PAGE>} to return to the previous page. " +
			"Do note, however, that this counts towards your maximum number of turns. Note that you may NOT backtrack twice in a row. \n"
	case FreeNav:
		return "If you wish, you may respond \\boxed{<PREV_PAGE>} to return to the previous page. " +
			"Do note, however, that this counts towards your maximum number of turns. \n"
	case Eidetic:
		// GEM reuses the noregrets text, which hides the variant's point.
		return noRegrets + "Any page linked from a page you have visited counts as a neighboring page.\n"
	}
	return noRegrets
}

// suffix is GEM's get_task_suffix: where the agent is, its target, and the
// pages it may move to.
func (e *Env) suffix() string {
	var b strings.Builder
	fmt.Fprintf(&b, "You are currently on the '%s' page. Your target page is '%s'.\n", e.current.Title, e.target.Title)
	fmt.Fprintf(&b, "Here is a summary of the page:\n%s...\n", e.summary(e.current))
	b.WriteString("This page has the following neighboring pages: ")
	valid := e.validPages()
	if len(valid) == 0 {
		b.WriteString("none") // GEM prints an empty bullet
	}
	for _, l := range valid {
		b.WriteString("\n- \\boxed{")
		b.WriteString(l)
		b.WriteString("}")
	}
	b.WriteString("\nEnter the title of the neighboring page you want to navigate to.")
	return b.String()
}

// summary is the start of a page's text (GEM's _page_summary).
func (e *Env) summary(p Page) string {
	n := e.opts.PageSummaryLength.Length
	switch e.opts.PageSummaryLength.Unit {
	case "words":
		words := strings.Fields(p.Text)
		return strings.Join(words[:min(n, len(words))], " ")
	case "sentences":
		sentences := splitSentences(p.Text)
		return strings.Join(sentences[:min(n, len(sentences))], " ")
	}
	// Characters, as Python counts them: code points.
	i := 0
	for k := range p.Text {
		if i == n {
			return p.Text[:k]
		}
		i++
	}
	return p.Text
}

// splitSentences splits s where GEM's re.split(r'(?<=[.!?])\s+(?=[A-Z])')
// does: at whitespace after '.', '!' or '?' and before a capital A–Z.
func splitSentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c != '.' && c != '!' && c != '?' {
			i++
			continue
		}
		j := i + 1
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !unicode.IsSpace(r) {
				break
			}
			j += size
		}
		if j > i+1 && j < len(s) && s[j] >= 'A' && s[j] <= 'Z' {
			out = append(out, s[start:i+1])
			start = j
		}
		i = j
	}
	return append(out, s[start:])
}
