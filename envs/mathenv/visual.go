package mathenv

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/mathcheck"
)

// Geometry3K is GEM's one visual math id (gem/envs/math_visual_env.py,
// MathVisualEnv): a MathEnv whose rows also hold the problem's diagrams.
// GEM's observation is {"problem": the question, "images": the row's image
// column}; Quarry's is the question as text with the images beside it
// (envs.Info.Images), which chat prompts send as OpenAI image parts, each
// image in the place of the question's "<image>" marker (envs.ImageParts).
// Grading is MathEnv's.
var Geometry3K = Dataset{
	ID: "math:Geometry3K", Name: "axon-rl/geometry3k", Split: "train",
	About:  "Geometry3K geometry problems, each with its diagram",
	Sample: "geometry3k.parquet",
}

// VisualOptions are GEM's MathVisualEnv arguments: MathEnv's plus the
// image column (image_key). GEM's visual env never sets
// use_format_error_reward (its step would fail reading it); Quarry takes it
// as MathEnv does, off by default.
type VisualOptions struct {
	Dataset     string `json:"dataset" len:"1,4096"`
	QuestionKey string `json:"question_key" len:"1,256"`
	AnswerKey   string `json:"answer_key" len:"1,256"`
	// ImageKey names the image column: a list of Hugging Face Image
	// structs ({bytes, path}) or one (dataenv.Images).
	ImageKey             string `json:"image_key" len:"1,256"`
	UseFormatErrorReward bool   `json:"use_format_error_reward"`
}

// DefaultVisualOptions are GEM's keys over the dataset at source.
func DefaultVisualOptions(source string) VisualOptions {
	return VisualOptions{Dataset: source, QuestionKey: "problem", AnswerKey: "answer", ImageKey: "images"}
}

// Validate rejects empty names.
func (o VisualOptions) Validate() error {
	if strings.TrimSpace(o.ImageKey) == "" {
		return &envs.OptionError{Option: "image_key", Reason: "must not be empty"}
	}
	return o.math().Validate()
}

func (o VisualOptions) math() Options {
	return Options{Dataset: o.Dataset, QuestionKey: o.QuestionKey, AnswerKey: o.AnswerKey, UseFormatErrorReward: o.UseFormatErrorReward}
}

// registerVisual adds math:Geometry3K, reading source by default.
func registerVisual(r *envs.Registry, source string) error {
	d := Geometry3K
	samplePath := "samples/" + d.Sample
	sample, err := fs.ReadFile(samples, samplePath)
	if err != nil {
		return fmt.Errorf("register %s: %w", d.ID, err)
	}
	return r.Register(envs.Spec{
		ID: d.ID,
		Description: d.About + " (GEM: " + d.Name + ", split " + d.Split + "). The question comes with its images " +
			"(the image_key column), sent as image parts of the chat message: api: chat only, not tokens: exact. " +
			"One answer, graded on its last \\boxed{} as the math ids are. " +
			"Default dataset: GEM's on the Hugging Face Hub; dataset: sample runs the shipped sample offline.",
		MaxTurns:   1,
		RewardMin:  mathcheck.FormatPenalty,
		RewardMax:  1,
		Revision:   1,
		DataDigest: envs.Digest(sample),
		Images:     true,
		Build: envs.Options(DefaultVisualOptions(source), func(o VisualOptions) (envs.Env, error) {
			return newVisualEnv(o, samplePath), nil
		}),
	})
}

// newVisualEnv is a math env whose rows also give the reset observation
// its images.
func newVisualEnv(o VisualOptions, samplePath string) *Env {
	return newEnvImages(o.math(), samplePath, o.ImageKey)
}
