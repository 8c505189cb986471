package schema

import (
	"testing"
	"time"
)

// The default request timeout follows max_tokens, bounded; an explicit
// request_timeout wins.
func TestRequestTimeoutFor(t *testing.T) {
	for _, tc := range []struct {
		maxTokens int
		want      time.Duration
	}{
		{0, 10 * time.Minute}, // unset: the server may fill the context
		{64, time.Minute},     // 36.4 s, raised to the floor
		{512, 30*time.Second + 51200*time.Millisecond},
		{4096, 30*time.Second + 409600*time.Millisecond},
		{5700, 10 * time.Minute},    // the cap
		{1 << 40, 10 * time.Minute}, // no overflow
	} {
		if got := time.Duration(RequestTimeoutFor(tc.maxTokens)); got != tc.want {
			t.Errorf("RequestTimeoutFor(%d) = %v, want %v", tc.maxTokens, got, tc.want)
		}
	}
	s := JobSpec{Policy: Policy{Kind: PolicyOpenAI, OpenAI: &OpenAIPolicy{Sampling: Sampling{MaxTokens: 512}}}}.WithDefaults()
	if got := time.Duration(s.Policy.OpenAI.RequestTimeout); got != 81200*time.Millisecond {
		t.Errorf("defaulted request_timeout %v", got)
	}
	s = JobSpec{Policy: Policy{Kind: PolicyOpenAI, OpenAI: &OpenAIPolicy{Sampling: Sampling{MaxTokens: 512}, RequestTimeout: Duration(time.Hour)}}}.WithDefaults()
	if got := time.Duration(s.Policy.OpenAI.RequestTimeout); got != time.Hour {
		t.Errorf("explicit request_timeout became %v", got)
	}
}
