// Package rg serves reasoning-gym's procedural datasets as envs, the way GEM
// registers them (gem/envs/reasoning_gym.py): rg:<name> is one question per
// episode, the agent answers in the last \boxed{}, and the dataset's own
// score_answer grades it, with partial credit where reasoning-gym gives it.
//
// A family package (envs/rg/arithmetic, envs/rg/games, …) describes each of
// its datasets as a Task: a bounded generator of Items from a seeded
// generator and the task's options, and a scorer. Register turns a Task into
// rg:<name> and, for tasks where feedback makes sense, rg:<name>-retry: the
// same question over up to answer_attempts turns, each wrong answer answered
// with feedback that never gives the answer away, the episode's reward the
// score of the last attempt.
//
// Generators are Quarry's own, written from reasoning-gym's rules; an item
// is a pure function of the episode seed, so a group of samples for one
// task sees one question.
package rg

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quarry-rl/quarry/envs"
)

// Item is one generated question.
type Item struct {
	// Question is the task's text as reasoning-gym words it.
	Question string
	// Answer is the reference answer: reasoning-gym's entry["answer"]. The
	// oracle boxes it, and the task's scorer must give it 1.
	Answer string
	// Data is what the scorer needs besides Answer (the puzzle, for a task
	// that accepts any valid solution). Never recorded.
	Data any
	// Meta is recorded in the step's info (reasoning-gym's metadata, or the
	// part of it worth keeping); JSON-serialisable.
	Meta map[string]any
}

// Task is one reasoning-gym dataset.
type Task[O any] struct {
	// Name is reasoning-gym's dataset name; the env id is "rg:"+Name.
	Name        string
	Description string
	// Revision numbers the task's rules (envs.Spec.Revision).
	Revision int
	// DataDigest identifies embedded data the generator draws on
	// (envs.Digest); empty when there is none.
	DataDigest string
	// Defaults are reasoning-gym's config defaults. O is a JSON-tagged
	// struct whose every number or length field has a range tag (envs
	// bounds), and may implement envs.Validator.
	Defaults O
	// Generate draws one item. It must finish in bounded time for every
	// option value in range; an error is an infrastructure fault.
	Generate func(rng *rand.Rand, o O) (Item, error)
	// Score grades answer, the content of the last \boxed{} with
	// surrounding white space trimmed, in [0, 1]. Nil means reasoning-gym's
	// default (DefaultScore against Item.Answer).
	Score func(answer string, it *Item) float64
	// Guess returns a well-formed answer (boxed content) drawn from rng: the
	// random policy, which should score near 0. Nil boxes a random integer.
	Guess func(rng *rand.Rand, it *Item) string
	// Retry registers rg:<Name>-retry. Leave it off where a second attempt
	// is no exercise (yes/no answers, a handful of choices).
	Retry bool
	// Feedback tells a wrong attempt of the retry variant what was wrong
	// without giving the answer away. Nil says only that it scored score.
	Feedback func(answer string, it *Item, score float64) string
}

// Instruction follows every question: GEM reads the last \boxed{} and leaves
// saying so to the prompt template; the env says it, since the env is what
// parses the answer.
const Instruction = "Please reason step by step, and put your final answer within \\boxed{}."

// RetrySuffix is the id suffix of the retry variant.
const RetrySuffix = "-retry"

// Retry limits: the default and the largest answer_attempts.
const (
	DefaultAttempts = 3
	MaxAttempts     = 10
)

// RetryOptions are what the retry variant adds to the task's options. The
// name is not max_attempts: reasoning-gym configs use that one for their
// generators' own retries (knight_swap), and so does a job spec's
// episode.max_attempts for infrastructure retries.
type RetryOptions struct {
	AnswerAttempts int `json:"answer_attempts" range:"1,10"`
}

// ID returns the env id of reasoning-gym dataset name.
func ID(name string) string { return "rg:" + name }

// Register adds rg:<t.Name> and, when t.Retry is set, rg:<t.Name>-retry.
func Register[O any](r *envs.Registry, t Task[O]) error {
	if t.Name == "" || t.Generate == nil {
		return errors.New("rg: a task needs a Name and a Generate")
	}
	if t.Revision < 1 {
		return fmt.Errorf("rg: %s: Revision must be at least 1", t.Name)
	}
	err := r.Register(envs.Spec{
		ID:          ID(t.Name),
		Description: t.Description,
		MaxTurns:    1,
		RewardMin:   0,
		RewardMax:   1,
		Revision:    t.Revision,
		DataDigest:  t.DataDigest,
		Build: envs.Options(t.Defaults, func(o O) (envs.Env, error) {
			return &Env[O]{task: &t, opts: o, attempts: 1}, nil
		}),
	})
	if err != nil || !t.Retry {
		return err
	}
	return r.Register(envs.Spec{
		ID:          ID(t.Name) + RetrySuffix,
		Description: t.Description + " Retry variant: up to answer_attempts answers with feedback; the reward is the last answer's score.",
		MaxTurns:    MaxAttempts,
		RewardMin:   0,
		RewardMax:   1,
		Revision:    t.Revision,
		DataDigest:  t.DataDigest,
		Build: envs.OptionsWith(t.Defaults, RetryOptions{AnswerAttempts: DefaultAttempts},
			func(o O, x RetryOptions) (envs.Env, error) {
				return &Env[O]{task: &t, opts: o, attempts: x.AnswerAttempts, retry: true}, nil
			}),
	})
}

// Env is one task's episodes.
type Env[O any] struct {
	task     *Task[O]
	opts     O
	attempts int  // answers allowed per episode
	retry    bool // the retry variant (feedback, never the answer)

	item  Item
	ready bool
	tries int // answers given this episode
}

// Reset draws the episode's item from seed.
func (e *Env[O]) Reset(seed uint64) (string, envs.Info, error) {
	it, err := e.task.Generate(envs.NewRand(seed), e.opts)
	if err != nil {
		e.ready = false
		return "", envs.Info{}, fmt.Errorf("rg:%s: generate seed %d: %w", e.task.Name, seed, err)
	}
	e.item, e.ready, e.tries = it, true, 0
	obs := it.Question
	if !strings.HasSuffix(obs, "\n") {
		obs += "\n"
	}
	obs += Instruction
	if e.retry && e.attempts > 1 {
		obs += fmt.Sprintf(" You have %d attempts.", e.attempts)
	}
	return obs, envs.Info{Extra: maps.Clone(it.Meta)}, nil
}

// Item returns the current episode's item (the zero Item before Reset).
func (e *Env[O]) Item() Item { return e.item }

// Score grades a boxed answer's content against the current item.
func (e *Env[O]) Score(answer string) float64 {
	if e.task.Score != nil {
		return clamp(e.task.Score(answer, &e.item))
	}
	return DefaultScore(answer, e.item.Answer)
}

// Step grades the response's last \boxed{}. The single-turn id ends on any
// answer; the retry variant ends on a full score or on the last attempt.
func (e *Env[O]) Step(action string) (envs.StepResult, error) {
	if !e.ready {
		return envs.StepResult{}, envs.ErrNotReset
	}
	e.tries++
	answer, boxed := envs.LastBoxed(action)
	answer = strings.TrimSpace(answer)
	score := 0.0
	if boxed {
		score = e.Score(answer)
	}
	last := score == 1 || e.tries >= e.attempts
	res := envs.StepResult{Terminated: last}
	res.Info.FormatError = !boxed
	if boxed {
		res.Info.ParsedAction = `\boxed{` + answer + `}`
	}
	if !last {
		// A wrong attempt earns nothing yet: the episode's return is the
		// last attempt's score.
		res.Observation = e.feedback(answer, boxed, score) +
			fmt.Sprintf(" Try again: %d of %d attempts left.", e.attempts-e.tries, e.attempts)
		return res, nil
	}
	res.Reward = score
	res.Info.Success = score == 1
	res.Info.Extra = map[string]any{"answer": e.item.Answer, "score": score, "attempts": e.tries}
	switch {
	case !boxed:
		res.Observation = "No answer found: the final answer must be inside \\boxed{}."
	case score == 1:
		res.Observation = "Correct."
	case score > 0:
		res.Observation = fmt.Sprintf("Partly correct (score %.3g).", score)
	default:
		res.Observation = "Incorrect."
	}
	if !e.retry {
		res.Observation += " The reference answer is: " + e.item.Answer
	}
	return res, nil
}

func (e *Env[O]) feedback(answer string, boxed bool, score float64) string {
	switch {
	case !boxed:
		return "No answer found: the final answer must be inside \\boxed{}."
	case e.task.Feedback != nil:
		return e.task.Feedback(answer, &e.item, score)
	case score > 0:
		return fmt.Sprintf("Your answer is partly correct (score %.3g).", score)
	}
	return "Your answer is incorrect."
}

// SampleRandomAction boxes the task's guess (a random integer when the task
// has none).
func (e *Env[O]) SampleRandomAction(rng *rand.Rand) string {
	if e.task.Guess != nil && e.ready {
		return `\boxed{` + e.task.Guess(rng, &e.item) + `}`
	}
	return `\boxed{` + strconv.Itoa(rng.IntN(1000)) + `}`
}

// OracleAction boxes the reference answer.
func (e *Env[O]) OracleAction() (string, error) {
	if !e.ready {
		return "", fmt.Errorf("rg:%s: OracleAction before Reset", e.task.Name)
	}
	return `\boxed{` + e.item.Answer + `}`, nil
}

// DefaultScore is reasoning-gym's ProceduralDataset.score_answer: 1 for an
// exact match, len(truth)/len(answer) when the truth occurs inside the
// answer, else 0. Lengths count characters, as Python's len does. The
// caller has trimmed the answer (reasoning-gym does not: "\boxed{ 42 }"
// would score 2/4 there, 1 here).
func DefaultScore(answer, truth string) float64 {
	switch {
	case answer == truth:
		return 1
	case truth != "" && strings.Contains(answer, truth):
		return float64(utf8.RuneCountInString(truth)) / float64(utf8.RuneCountInString(answer))
	}
	return 0
}

func clamp(x float64) float64 {
	switch {
	case x != x || x < 0: // NaN or negative
		return 0
	case x > 1:
		return 1
	}
	return x
}
