package activities

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/quarry-rl/quarry/internal/inference"
	"github.com/quarry-rl/quarry/schema"
)

// ProbeEndpointName is the activity an episode whose turn waits for the
// endpoint runs until the endpoint answers again.
const ProbeEndpointName = "quarry.ProbeEndpoint"

// ProbeResult says whether the policy endpoint serves the job's model.
type ProbeResult struct {
	Up bool `json:"up"`
	// Reason is why it is not up (the last endpoint's problem).
	Reason string `json:"reason,omitempty"`
}

// ProbeEndpoint asks each of the policy's endpoints, one at a time, whether
// it serves the model (GET /v1/models and a one-token completion, as the
// submit preflight): the endpoint is up as soon as one does. An endpoint
// that cannot be reached or does not list the model is down; any other
// problem (a refused key, a bad request) is not an outage, so the probe
// reports up and the turn's own Generate classifies it.
func (a *Activities) ProbeEndpoint(ctx context.Context, spec schema.JobSpec) (ProbeResult, error) {
	o := spec.Policy.OpenAI
	if o == nil {
		return ProbeResult{Up: true}, nil
	}
	var reasons []string
	for _, ep := range o.Endpoints {
		one := *o
		one.Endpoints = []string{ep}
		pool, err := inference.NewPool(one, inference.WithLogger(a.logger()))
		if err != nil {
			return ProbeResult{}, fmt.Errorf("probe %s: %w", ep, err)
		}
		_, err = pool.Preflight(ctx)
		pool.Close()
		switch {
		case ctx.Err() != nil:
			return ProbeResult{}, ctx.Err()
		case err == nil:
			return ProbeResult{Up: true}, nil
		case errors.Is(err, inference.ErrUnavailable), errors.Is(err, inference.ErrModelNotFound):
			reasons = append(reasons, err.Error())
		default:
			return ProbeResult{Up: true}, nil
		}
	}
	return ProbeResult{Reason: strings.Join(reasons, "; ")}, nil
}
