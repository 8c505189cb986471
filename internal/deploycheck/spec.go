package deploycheck

import (
	"fmt"
	"strings"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/schema"
)

// checkSpec checks a job spec a recipe submits: it validates as submit
// would, writes to s3://<a bucket the recipe creates>/… (any bucket when
// buckets is nil: the recipe uses an existing store), and any API key
// variable it names is set on the workers.
func checkSpec(where string, data []byte, buckets map[string]string, workerEnv map[string]bool) []error {
	spec, err := validSpec(data)
	if err != nil {
		return []error{fmt.Errorf("%s: %w", where, err)}
	}
	var errs []error
	rest, ok := strings.CutPrefix(spec.Output, "s3://")
	bucket, _, _ := strings.Cut(rest, "/")
	switch {
	case !ok:
		errs = append(errs, fmt.Errorf("%s: output %q is not on S3: on a cluster every worker must reach the output (want s3://<bucket>/…)", where, spec.Output))
	case buckets != nil && buckets[bucket] == "":
		errs = append(errs, fmt.Errorf("%s: output %s: bucket %q is not one the recipe creates (%s)", where, spec.Output, bucket, keys(buckets)))
	}
	if o := spec.Policy.OpenAI; o != nil && o.APIKeyEnv != "" && !workerEnv[o.APIKeyEnv] {
		errs = append(errs, fmt.Errorf("%s: policy.openai.api_key_env names %s, which the workers do not have", where, o.APIKeyEnv))
	}
	return errs
}

// validSpec validates a spec as cmd/submit's loadSpec does before it
// submits: strict decoding, defaults, Validate, then the env ids, tools
// and prompt against the env catalog.
func validSpec(data []byte) (schema.JobSpec, error) {
	spec, err := schema.ParseJobSpec(data)
	if err != nil {
		return spec, err
	}
	spec = spec.WithDefaults()
	if err := spec.Validate(); err != nil {
		return spec, err
	}
	reg, err := catalog.New()
	if err != nil {
		return spec, err
	}
	if _, err := activities.ResolveEnvs(reg, spec); err != nil {
		return spec, err
	}
	if err := activities.CheckTools(spec); err != nil {
		return spec, err
	}
	return spec, activities.CheckPrompt(spec)
}
