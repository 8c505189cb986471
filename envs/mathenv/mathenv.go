// Package mathenv is GEM's MathEnv: the math: training sets (ASDiv2K, GSM8K,
// Math12K, Math8K-3to5, Orz57K, DeepScaleR40K) and the math eval: sets
// (MATH500, AMC, OlympiadBench, Minerva, AIME24), each a single-turn env over
// the rows of a dataset.
//
// GEM's rules (gem/envs/math_env.py): the observation is the row's question
// exactly as the dataset has it — GEM adds no instruction or template in the
// env (its trainers add one, or not, through their prompt_template option).
// The agent answers once; the answer is the content of the last \boxed{} of
// the response, graded against the row's reference answer by
// envs/mathcheck (GEM's math_grader in Go): reward 1 when equivalent, else 0.
// A reference answer that is a list is matched by any of its elements; a
// number is graded as its decimal text. With use_format_error_reward (off by
// default, as in GEM) a response with no \boxed{} earns −0.1 instead of 0.
// Every response ends the episode.
//
// Where Quarry differs: GEM sets terminated and truncated on that step; Quarry
// sets only Terminated, since answering is the task's natural end. GEM
// grades under a 1 s wall-clock timeout; mathcheck has a deterministic work
// budget instead (see its package doc). GEM's observation after the answer is
// a fixed terminal marker; Quarry's says whether the answer was right and
// what the reference answer is (the episode is over, so the agent never acts
// on it).
//
// The dataset option names the data: a JSONL or Parquet file (a path, or an
// http(s)://, s3:// or hf://datasets/… URL; see envs/dataset), or "sample",
// the default: a small generated sample shipped with the package (see
// samples/README.md), so every id runs offline. The sample's questions end
// by asking for \boxed{}; a real dataset's questions are shown as they are.
// GEM's own datasets are listed by Datasets; point the option at a file of
// the same columns.
//
// GEM's visual math:Geometry3K is here too (Geometry3K): its questions come
// with diagrams, carried as the observation's images.
package mathenv

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/dataenv"
	"github.com/quarry-rl/quarry/envs/mathcheck"
)

// samples are the generated datasets the "sample" option opens, one per id.
//
//go:embed samples/*.jsonl samples/*.parquet
var samples embed.FS

// Dataset is one registered id and the Hugging Face dataset GEM registers it
// with (gem/envs/__init__.py).
type Dataset struct {
	ID string
	// Name and Split are GEM's dataset_name and split. Split is empty when
	// GEM names none, which GEM accepts only for a dataset of one split.
	Name, Split string
	// About describes the problems, for the id's description.
	About string
	// Sample is the shipped sample's file name under samples/.
	Sample string
}

var datasets = []Dataset{
	{"math:ASDiv2K", "axon-rl/ASDIV-2k", "", "ASDiv elementary arithmetic word problems", "asdiv2k.jsonl"},
	{"math:GSM8K", "axon-rl/GSM-8k", "", "GSM8K grade-school multi-step word problems", "gsm8k.jsonl"},
	{"math:Math12K", "axon-rl/MATH-12k", "", "MATH competition problems, all levels", "math12k.jsonl"},
	{"math:Math8K-3to5", "axon-rl/MATH-lvl3to5-8k", "", "MATH competition problems of levels 3 to 5", "math8k-3to5.jsonl"},
	{"math:Orz57K", "axon-rl/ORZ-57k", "", "Open-Reasoner-Zero's mixed math problems", "orz57k.jsonl"},
	{"math:DeepScaleR40K", "axon-rl/DeepScaleR-40K", "", "DeepScaleR's competition problems (AIME, AMC, Omni-MATH, STILL)", "deepscaler40k.jsonl"},
	{"eval:MATH500", "axon-rl/math-eval", "math", "MATH500 test problems", "math500.jsonl"},
	{"eval:AMC", "axon-rl/math-eval", "amc", "AMC competition problems", "amc.jsonl"},
	{"eval:OlympiadBench", "axon-rl/math-eval", "olympiad_bench", "OlympiadBench olympiad problems", "olympiadbench.jsonl"},
	{"eval:Minerva", "axon-rl/math-eval", "minerva", "Minerva university-level science and math problems", "minerva.jsonl"},
	{"eval:AIME24", "axon-rl/math-eval", "aime24", "AIME 2024 problems (integer answers 0 to 999)", "aime24.jsonl"},
}

// Datasets lists the text ids this package registers with GEM's dataset for
// each, in registration order (the visual Geometry3K is registered too).
func Datasets() []Dataset { return append([]Dataset(nil), datasets...) }

// Options are GEM's MathEnv arguments. GEM's dataset_name and split become
// one location: the file of that split.
type Options struct {
	// Dataset is a JSONL or Parquet file (path or URL), or "sample".
	Dataset string `json:"dataset" len:"1,4096"`
	// QuestionKey and AnswerKey name the question and reference-answer
	// columns (GEM's question_key and answer_key).
	QuestionKey string `json:"question_key" len:"1,256"`
	AnswerKey   string `json:"answer_key" len:"1,256"`
	// UseFormatErrorReward: a response with no \boxed{} earns −0.1 instead
	// of 0 (GEM's use_format_error_reward).
	UseFormatErrorReward bool `json:"use_format_error_reward"`
}

// DefaultOptions are GEM's keys and reward over the dataset at source.
func DefaultOptions(source string) Options {
	return Options{Dataset: source, QuestionKey: "problem", AnswerKey: "answer"}
}

// HubURL is the Hugging Face Hub's auto-converted Parquet file of a GEM
// dataset's split ("train" when GEM names none).
func HubURL(name, split string) string {
	if split == "" {
		split = "train"
	}
	return "hf://datasets/" + name + "@refs/convert/parquet/default/" + split + "/0000.parquet"
}

// Validate rejects empty names; a column missing from the data is reported
// when the dataset is first opened (envs.Rows, or the first Reset).
func (o Options) Validate() error {
	for _, f := range []struct{ name, v string }{
		{"dataset", o.Dataset},
		{"question_key", o.QuestionKey},
		{"answer_key", o.AnswerKey},
	} {
		if strings.TrimSpace(f.v) == "" {
			return &envs.OptionError{Option: f.name, Reason: "must not be empty"}
		}
	}
	return nil
}

// Register adds every id of Datasets and Geometry3K, reading GEM's dataset
// from the Hub (HubURL) by default.
func Register(r *envs.Registry) error {
	return register(r, func(d Dataset) string { return HubURL(d.Name, d.Split) })
}

// RegisterSamples adds the ids reading their shipped samples by default, for
// offline use: the catalog's tests, demos.
func RegisterSamples(r *envs.Registry) error {
	return register(r, func(Dataset) string { return dataenv.Sample })
}

func register(r *envs.Registry, sourceFor func(Dataset) string) error {
	if err := registerDatasets(r, sourceFor); err != nil {
		return err
	}
	return registerVisual(r, sourceFor(Geometry3K))
}

func registerDatasets(r *envs.Registry, sourceFor func(Dataset) string) error {
	for _, d := range datasets {
		sample, err := fs.ReadFile(samples, "samples/"+d.Sample)
		if err != nil {
			return fmt.Errorf("register %s: %w", d.ID, err)
		}
		source := d.Name
		if d.Split != "" {
			source += ", split " + d.Split
		}
		samplePath := "samples/" + d.Sample
		err = r.Register(envs.Spec{
			ID: d.ID,
			Description: d.About + " (GEM: " + source + "). One answer, graded on its last \\boxed{}: " +
				"1 if equivalent to the reference, else 0 (−0.1 without \\boxed{} under use_format_error_reward). " +
				"Default dataset: GEM's on the Hugging Face Hub; dataset: sample runs the shipped sample offline.",
			MaxTurns:   1,
			RewardMin:  mathcheck.FormatPenalty,
			RewardMax:  1,
			Revision:   2, // 2: interval ↔ inequality equivalence (GEM's math_verify)
			DataDigest: envs.Digest(sample),
			Build: envs.Options(DefaultOptions(sourceFor(d)), func(o Options) (envs.Env, error) {
				return newEnv(o, samplePath), nil
			}),
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Env is one math env instance: a dataenv.Env (rows, reset, scoring) with an
// oracle that answers the reference.
type Env struct {
	*dataenv.Env
	fam *family
}

// newEnv returns an env for validated options; the "sample" dataset opens
// samplePath among the shipped samples.
func newEnv(o Options, samplePath string) *Env { return newEnvImages(o, samplePath, "") }

// newEnvImages is newEnv whose rows also give the reset observation the
// images of column imageKey ("": none).
func newEnvImages(o Options, samplePath, imageKey string) *Env {
	f := &family{opts: o}
	fam := &dataenv.Family{
		Columns:      []string{o.QuestionKey, o.AnswerKey},
		Prompt:       f.prompt,
		Score:        f.score,
		Truth:        f.truth,
		RandomAction: randomAction,
		Samples:      samples,
		SamplePath:   samplePath,
	}
	if imageKey != "" {
		fam.Columns = append(fam.Columns, imageKey)
		fam.Images = func(row map[string]any) ([]envs.Image, error) {
			im, err := dataenv.Images(row[imageKey])
			if err != nil {
				return nil, fmt.Errorf("image column %q: %w", imageKey, err)
			}
			return im, nil
		}
	}
	return &Env{Env: dataenv.New(fam, o.Dataset), fam: f}
}

// OracleAction boxes the row's (first) reference answer.
func (e *Env) OracleAction() (string, error) {
	row := e.Row()
	if row == nil {
		return "", errors.New("mathenv: OracleAction before Reset")
	}
	golds, err := truths(row[e.fam.opts.AnswerKey])
	if err != nil {
		return "", err
	}
	gold := golds[0]
	if b, ok := envs.LastBoxed(gold); ok && strings.Contains(gold, `\boxed`) {
		gold = b
	}
	return `\boxed{` + gold + `}`, nil
}

// family holds what the dataenv hooks need from the options.
type family struct{ opts Options }

// prompt is the question, verbatim: GEM shows the agent nothing else. The
// answer is checked here too, so a malformed row fails its Reset rather than
// its Step.
func (f *family) prompt(row map[string]any) (string, error) {
	q, ok := row[f.opts.QuestionKey].(string)
	if !ok {
		return "", fmt.Errorf("question column %q holds %s, want a string", f.opts.QuestionKey, describe(row[f.opts.QuestionKey]))
	}
	if _, err := truths(row[f.opts.AnswerKey]); err != nil {
		return "", fmt.Errorf("answer column %q: %w", f.opts.AnswerKey, err)
	}
	return q, nil
}

// score grades the last \boxed{} of action against every reference answer.
func (f *family) score(_ context.Context, action string, row map[string]any) (envs.StepResult, error) {
	golds, err := truths(row[f.opts.AnswerKey])
	if err != nil {
		return envs.StepResult{}, fmt.Errorf("answer column %q: %w", f.opts.AnswerKey, err)
	}
	ref := strings.Join(golds, " or ")
	pred, boxed := envs.LastBoxed(action)
	if !boxed {
		res := envs.StepResult{
			Observation: "No answer found: the final answer must be inside \\boxed{}. The reference answer is " + ref + ".",
			Info:        envs.Info{FormatError: true, Extra: map[string]any{"correct": false}},
		}
		if f.opts.UseFormatErrorReward {
			res.Reward = mathcheck.FormatPenalty
		}
		return res, nil
	}
	correct := false
	for _, g := range golds {
		if r, _ := mathcheck.Score(action, g); r == 1 {
			correct = true
			break
		}
	}
	res := envs.StepResult{Info: envs.Info{
		ParsedAction: `\boxed{` + pred + `}`,
		Extra:        map[string]any{"correct": correct},
	}}
	if correct {
		res.Reward = 1
		res.Info.Success = true
		res.Observation = "Correct: the reference answer is " + ref + "."
	} else {
		res.Observation = "Incorrect: you answered " + strconv.Quote(pred) + "; the reference answer is " + ref + "."
	}
	return res, nil
}

// truth is the ground_truth column: the answer, or a list's JSON.
func (f *family) truth(row map[string]any) string {
	golds, err := truths(row[f.opts.AnswerKey])
	switch {
	case err != nil:
		return ""
	case len(golds) == 1:
		return golds[0]
	}
	b, _ := json.Marshal(golds)
	return string(b)
}

// randomAction boxes a small integer: well-formed, rarely right.
func randomAction(rng *rand.Rand, _ map[string]any) string {
	return `\boxed{` + strconv.Itoa(rng.IntN(100)) + `}`
}

// truths reads a reference answer as GEM's check_correct does: a string or a
// number is one answer (a number as its decimal text, GEM's str()), a list
// holds alternatives, any of which is correct.
func truths(v any) ([]string, error) {
	if list, ok := v.([]any); ok {
		if len(list) == 0 {
			return nil, errors.New("an empty list; want at least one reference answer")
		}
		out := make([]string, len(list))
		for i, x := range list {
			s, ok := scalar(x)
			if !ok {
				return nil, fmt.Errorf("element %d holds %s, want a string or a number", i, describe(x))
			}
			out[i] = s
		}
		return out, nil
	}
	s, ok := scalar(v)
	if !ok {
		return nil, fmt.Errorf("holds %s, want a string, a number or a list of them", describe(v))
	}
	return []string{s}, nil
}

// scalar formats a string or a number. Floats are written in positional
// notation: GEM's str() would give 1e-05, which a grader reads as 1·e − 5.
func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []byte: // a Parquet binary column
		return string(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case int:
		return strconv.Itoa(x), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	}
	return "", false
}

func describe(v any) string {
	switch v.(type) {
	case nil:
		return "nothing (null or absent)"
	case int64, int, float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}
