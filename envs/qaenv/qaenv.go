// Package qaenv is GEM's QaEnv (gem/envs/qa_env.py) on Quarry's dataset base
// (envs/dataenv): single-turn question answering over the rows of a
// dataset. It registers GEM's qa: ids (NaturalQuestions, HotpotQA), its
// logic: ids (the RuleTaker rule bases, answered in \boxed{}) and the QA
// eval: ids (nq_open and the DeepResearcher test splits).
//
// The first observation is GEM's prompt template around the row's question
// (see Prompt). The answer is the last <answer>…</answer> of the response,
// or for the logic ids the last \boxed{…}; it earns 1 when it equals any
// acceptable answer after GEM's normalisation (Normalize, ExactMatch), else
// 0. Every step also reports the token F1 against the best acceptable
// answer (F1) in Info.Extra["f1"], and the exact match in Info.Extra["em"].
//
// Each id's default dataset is the Hugging Face Hub's Parquet conversion of
// the dataset GEM loads; the dataset option "sample" opens the package's own
// generated sample instead (see samples/PROVENANCE.md).
package qaenv

//go:generate go run ./gen

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/dataenv"
)

// samples holds the generated samples (see gen/ and samples/PROVENANCE.md).
//
//go:embed samples/*.jsonl
var samples embed.FS

// promptTemplate is GEM's apply_prompt template, byte for byte; %s is the question.
const promptTemplate = "For any question, always reason through your thought process using:\n" +
	"<think> your reasoning here </think>\n" +
	"Then, provide your final answer using:\n" +
	"<answer> your answer here </answer>\n\n" +
	"Question: %s\n"

// Prompt returns the first observation for question: GEM's template, which
// asks for <answer> tags. GEM uses it for the logic ids too, although they
// are scored on \boxed{}; the RuleTaker questions say so themselves.
func Prompt(question string) string { return fmt.Sprintf(promptTemplate, question) }

// Options are GEM's QaEnv keyword arguments that select and read the data.
type Options struct {
	// Dataset is the data: a path, an http(s)://, s3:// or
	// hf://datasets/<owner>/<name>[@rev]/<path> URL of a JSONL or Parquet
	// file, or "sample" for the package's generated sample.
	Dataset string `json:"dataset" len:"1,4096"`
	// QuestionKey is the column holding the question.
	QuestionKey string `json:"question_key" len:"1,256"`
	// AnswerKey is the column holding the answer: one string (or number,
	// or boolean) or a list of acceptable ones.
	AnswerKey string `json:"answer_key" len:"1,256"`
	// ExtractBoxed takes the answer from the last \boxed{} instead of the
	// last <answer> tag (GEM's extract_boxed; true for the logic ids).
	ExtractBoxed bool `json:"extract_boxed"`
}

// Validate checks that every option names something.
func (o Options) Validate() error {
	switch {
	case strings.TrimSpace(o.Dataset) == "":
		return &envs.OptionError{Option: "dataset", Reason: `empty (want a path, URL or "sample")`}
	case o.QuestionKey == "":
		return &envs.OptionError{Option: "question_key", Reason: "empty (want a column name)"}
	case o.AnswerKey == "":
		return &envs.OptionError{Option: "answer_key", Reason: "empty (want a column name)"}
	case o.AnswerKey == o.QuestionKey:
		return &envs.OptionError{Option: "answer_key", Reason: fmt.Sprintf("%q is also the question_key", o.AnswerKey)}
	}
	return nil
}

// entry is one registered id: GEM's registration and the sample standing in
// for its data.
type entry struct {
	id, description string
	// owner/name and split of the dataset GEM loads, and the config of its
	// Parquet conversion on the Hub ("default" for most).
	repo, config, split string
	questionKey         string
	boxed               bool
	sample              string // file under samples/
}

// The QA sample carries the question under both GEM keys ("problem" for the
// qa: ids, "question" for the eval: ids), so every QA id runs on it.
const (
	qaSample   = "samples/qa.jsonl"
	repoSearch = "axon-rl/search-eval"
)

// entries are GEM's registrations (gem/envs/__init__.py), in its order.
var entries = func() []entry {
	var es []entry
	for _, d := range []int{0, 1, 2, 3, 5} {
		es = append(es, entry{
			id:          fmt.Sprintf("logic:RuleTaker-d%d", d),
			description: fmt.Sprintf("RuleTaker (depth ≤ %d): decide from facts and rules whether a statement is True or False; answer in \\boxed{}, exact match.", d),
			repo:        fmt.Sprintf("axon-rl/RuleTaker-d%d-70k", d), config: "default", split: "train",
			questionKey: "question", boxed: true,
			sample: fmt.Sprintf("samples/ruletaker-d%d.jsonl", d),
		})
	}
	es = append(es,
		entry{id: "qa:NaturalQuestions", description: "Natural Questions (train): open-domain QA; answer in <answer></answer>, normalised exact match (token F1 reported).",
			repo: "axon-rl/NaturalQuestions", config: "default", split: "train", questionKey: "problem", sample: qaSample},
		entry{id: "qa:HotpotQA", description: "HotpotQA (train): multi-hop QA; answer in <answer></answer>, normalised exact match (token F1 reported).",
			repo: "axon-rl/HotpotQA", config: "default", split: "train", questionKey: "problem", sample: qaSample},
		entry{id: "eval:QaOpen", description: "NQ-Open (validation): open-domain QA evaluation; answer in <answer></answer>, normalised exact match against any gold.",
			repo: "google-research-datasets/nq_open", config: "nq_open", split: "validation", questionKey: "question", sample: qaSample},
	)
	// The DeepResearcher test split: 512 questions per data source.
	for _, s := range []struct{ split, name, what string }{
		{"2wiki", "2Wiki", "2WikiMultihopQA"},
		{"popqa", "PopQA", "PopQA"},
		{"tq", "TriviaQA", "TriviaQA"},
		{"hotpotqa", "HotpotQA", "HotpotQA"},
		{"bamboogle", "Bamboogle", "Bamboogle"},
		{"nq", "NaturalQuestions", "Natural Questions"},
		{"musique", "Musique", "MuSiQue"},
	} {
		es = append(es, entry{
			id:          "eval:" + s.name,
			description: s.what + " (search-eval test split): QA evaluation; answer in <answer></answer>, normalised exact match against any gold.",
			repo:        repoSearch, config: "default", split: s.split, questionKey: "question", sample: qaSample,
		})
	}
	return es
}()

// source is the Hub's auto-converted Parquet file of e's split.
func (e entry) source() string {
	return fmt.Sprintf("hf://datasets/%s@refs/convert/parquet/%s/%s/0000.parquet", e.repo, e.config, e.split)
}

// Register adds GEM's qa:, logic: and QA eval: ids, each reading its
// dataset from the Hugging Face Hub by default.
func Register(r *envs.Registry) error {
	return register(r, func(e entry) string { return e.source() })
}

// RegisterSamples adds the ids reading their shipped samples by default,
// for offline use: the catalog's tests, demos.
func RegisterSamples(r *envs.Registry) error {
	return register(r, func(entry) string { return dataenv.Sample })
}

// register adds every id with the default dataset sourceFor gives it (the
// tests give dataenv.Sample).
func register(r *envs.Registry, sourceFor func(entry) string) error {
	for _, e := range entries {
		data, err := samples.ReadFile(e.sample)
		if err != nil {
			return fmt.Errorf("qaenv: %s: %w", e.id, err)
		}
		defaults := Options{Dataset: sourceFor(e), QuestionKey: e.questionKey, AnswerKey: "answer", ExtractBoxed: e.boxed}
		sample := e.sample
		err = r.Register(envs.Spec{
			ID:          e.id,
			Description: e.description,
			MaxTurns:    1,
			RewardMin:   0,
			RewardMax:   1,
			Revision:    1,
			DataDigest:  envs.Digest(data),
			Build: envs.Options(defaults, func(o Options) (envs.Env, error) {
				return newEnv(o, sample), nil
			}),
		})
		if err != nil {
			return fmt.Errorf("qaenv: %w", err)
		}
	}
	return nil
}

// env is a dataset env that can also play itself (its oracle answers the
// first acceptable answer), so the conformance suite checks that the
// reference answers score.
type env struct {
	*dataenv.Env
	opts Options
}

func newEnv(o Options, sample string) *env {
	f := family{opts: o}
	return &env{
		opts: o,
		Env: dataenv.New(&dataenv.Family{
			Columns:      []string{o.QuestionKey, o.AnswerKey},
			Prompt:       f.prompt,
			Score:        f.score,
			Truth:        f.truth,
			RandomAction: f.randomAction,
			Samples:      samples,
			SamplePath:   sample,
		}, o.Dataset),
	}
}

// OracleAction answers the current row's first acceptable answer.
func (e *env) OracleAction() (string, error) {
	row := e.Row()
	if row == nil {
		return "", errors.New("qaenv: OracleAction before Reset")
	}
	gs, err := golds(row[e.opts.AnswerKey])
	if err != nil {
		return "", fmt.Errorf("qaenv: %w", err)
	}
	return family{opts: e.opts}.wrap(gs[0]), nil
}

// family holds the rules dataenv calls back into.
type family struct{ opts Options }

func (f family) prompt(row map[string]any) (string, error) {
	q, err := scalar(row[f.opts.QuestionKey])
	if err != nil {
		return "", fmt.Errorf("column %q: %w", f.opts.QuestionKey, err)
	}
	// A row whose answer cannot be read fails here, at reset, as a data
	// fault, rather than at scoring.
	if _, err := golds(row[f.opts.AnswerKey]); err != nil {
		return "", fmt.Errorf("column %q: %w", f.opts.AnswerKey, err)
	}
	return Prompt(q), nil
}

// wrap writes answer in the form the env extracts.
func (f family) wrap(answer string) string {
	if f.opts.ExtractBoxed {
		return `\boxed{` + answer + `}`
	}
	return "<answer>" + answer + "</answer>"
}

// extract finds the response's answer the way GEM's extractor does.
func (f family) extract(response string) (string, bool) {
	if f.opts.ExtractBoxed {
		return envs.LastBoxed(response)
	}
	return lastTagged(response)
}

func (f family) score(_ context.Context, action string, row map[string]any) (envs.StepResult, error) {
	gs, err := golds(row[f.opts.AnswerKey])
	if err != nil {
		return envs.StepResult{}, fmt.Errorf("qaenv: column %q: %w", f.opts.AnswerKey, err)
	}
	// GEM ends the episode on every answer and gives 0 for a missing one:
	// there is no format penalty in QaEnv.
	answer, ok := f.extract(action)
	if !ok {
		form := "<answer> your answer here </answer>"
		if f.opts.ExtractBoxed {
			form = `\boxed{your answer here}`
		}
		return envs.StepResult{
			Observation: fmt.Sprintf("No answer found: the final answer must be written as %s. The correct answer is %s.", form, quoteGolds(gs)),
			Info:        envs.Info{FormatError: true, Extra: map[string]any{"em": 0.0, "f1": 0.0}},
		}, nil
	}
	em := ExactMatch(answer, gs)
	f1 := F1(answer, gs)
	res := envs.StepResult{Info: envs.Info{
		ParsedAction: f.wrap(answer),
		Extra:        map[string]any{"em": b2f(em), "f1": f1},
	}}
	if em {
		res.Reward = 1
		res.Info.Success = true
		res.Observation = fmt.Sprintf("Correct: %q matches the answer.", answer)
	} else {
		res.Observation = fmt.Sprintf("Incorrect: you answered %q; the correct answer is %s (token F1 %.3g).", answer, quoteGolds(gs), f1)
	}
	return res, nil
}

// truth is the ground_truth column: the one answer, or the list of
// acceptable ones as a JSON array.
func (f family) truth(row map[string]any) string {
	gs, err := golds(row[f.opts.AnswerKey])
	if err != nil {
		return ""
	}
	if _, isList := row[f.opts.AnswerKey].([]any); !isList {
		return gs[0]
	}
	b, _ := json.Marshal(gs)
	return string(b)
}

// randomAction answers True or False for a logic row, else a random word of
// the question: a well-formed answer that is rarely right.
func (f family) randomAction(rng *rand.Rand, row map[string]any) string {
	if f.opts.ExtractBoxed {
		return f.wrap([...]string{"True", "False"}[rng.IntN(2)])
	}
	q, _ := scalar(row[f.opts.QuestionKey])
	words := strings.Fields(Normalize(q))
	if len(words) == 0 {
		words = fallbackWords
	}
	return f.wrap(words[rng.IntN(len(words))])
}

// fallbackWords answer before a Reset or for an empty question.
var fallbackWords = []string{"yes", "no", "unknown", "hello", "world"}

func quoteGolds(gs []string) string {
	if len(gs) == 1 {
		return fmt.Sprintf("%q", gs[0])
	}
	q := make([]string, len(gs))
	for i, g := range gs {
		q[i] = fmt.Sprintf("%q", g)
	}
	return "any of " + strings.Join(q, ", ")
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
