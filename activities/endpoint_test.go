package activities

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/internal/openaitest"
)

// ProbeEndpoint finds the endpoint up when one of its replicas serves the
// model, and down, saying why, when none does: the model is not listed (a
// trainer reloading weights under a new name) or nothing listens.
func TestProbeEndpoint(t *testing.T) {
	served := openaitest.Start(t)
	renamed := openaitest.Start(t, openaitest.WithModel("quarry-test-model-step-2"))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/v1"
	l.Close()
	a := newActivities(t)
	for _, tt := range []struct {
		name      string
		endpoints []string
		up        bool
		reason    string
	}{
		{"served", []string{served.BaseURL()}, true, ""},
		{"renamed", []string{renamed.BaseURL()}, false, "quarry-test-model-step-2"},
		{"unreachable", []string{closed}, false, strings.TrimSuffix(strings.TrimPrefix(closed, "http://"), "/v1")},
		{"one replica of two", []string{closed, served.BaseURL()}, true, ""},
	} {
		quoted := make([]string, len(tt.endpoints))
		for i, e := range tt.endpoints {
			quoted[i] = fmt.Sprintf("%q", e)
		}
		s := spec(t, `
envs: [{id: game:GuessTheNumber-v0-easy}]
tasks: 1
policy: {kind: openai, openai: {endpoints: [`+strings.Join(quoted, ", ")+`], model: `+openaitest.DefaultModel+`, request_timeout: 5s}}
`)
		r, err := a.ProbeEndpoint(context.Background(), s)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if r.Up != tt.up || !strings.Contains(r.Reason, tt.reason) {
			t.Errorf("%s: %+v, want up=%v and a reason naming %q", tt.name, r, tt.up, tt.reason)
		}
	}
}
