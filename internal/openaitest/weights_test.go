package openaitest_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/openaitest"
)

// byVersion answers with the weights version, so a reply names what served it.
func byVersion(version string, _ []openaitest.Message) string { return "answer of " + version }

func chatBody(model string) map[string]any {
	return map[string]any{"model": model, "messages": []openaitest.Message{{Role: "user", Content: "hi"}}}
}

// chatOnce posts one chat completion; it fails the test on a transport error.
func chatOnce(t *testing.T, srv *openaitest.Server, model string) (*http.Response, []byte) {
	t.Helper()
	resp, out, err := post(t, http.DefaultClient, srv.BaseURL()+"/chat/completions", "", chatBody(model))
	if err != nil {
		t.Fatalf("chat completion: %v", err)
	}
	return resp, out
}

func getURL(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp, out
}

// eventually polls cond until it holds, failing the test after a deadline.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// wantServed checks a 200 produced by version under model: content, header
// and the server's record of it.
func wantServed(t *testing.T, srv *openaitest.Server, resp *http.Response, out []byte, version, model string) {
	t.Helper()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", resp.StatusCode, out)
	}
	r := decode[wireResponse](t, out)
	if r.Model != model || r.Choices[0].Message.Content != "answer of "+version || resp.Header.Get(openaitest.WeightsHeader) != version {
		t.Errorf("served model %q content %q header %q, want %s from %s", r.Model, r.Choices[0].Message.Content, resp.Header.Get(openaitest.WeightsHeader), model, version)
	}
	for _, rec := range srv.ChatRecords() {
		if rec.ResponseID == r.ID && rec.Version != version {
			t.Errorf("record of %s has version %q, want %q", r.ID, rec.Version, version)
		}
	}
}

// wantRefused checks a swap window's refusal in vLLM's error shape.
func wantRefused(t *testing.T, resp *http.Response, out []byte, status int, model string) {
	t.Helper()
	e := decode[wireError](t, out)
	if resp.StatusCode != status || resp.Header.Get(openaitest.WeightsHeader) != "" {
		t.Fatalf("status %d header %q, want %d and no weights: %s", resp.StatusCode, resp.Header.Get(openaitest.WeightsHeader), status, out)
	}
	switch status {
	case http.StatusNotFound:
		if e.Error.Type != "NotFoundError" || e.Error.Message != "The model `"+model+"` does not exist." || e.Error.Param == nil || *e.Error.Param != "model" || e.Error.Code != float64(404) {
			t.Errorf("404 shape: %s", out)
		}
	case http.StatusServiceUnavailable:
		if e.Error.Type != "ServiceUnavailableError" || e.Error.Code != float64(503) || e.Error.Message == "" {
			t.Errorf("503 shape: %s", out)
		}
	}
}

type modelList struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
}

func TestRepliesFollowTheWeightsVersion(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithVersionedPolicy(byVersion))
	if got := srv.Weights(); got.Version != openaitest.DefaultVersion || got.Model != openaitest.DefaultModel {
		t.Fatalf("initial weights %+v", got)
	}
	resp, out := chatOnce(t, srv, openaitest.DefaultModel)
	wantServed(t, srv, resp, out, "v0", openaitest.DefaultModel)
	for _, v := range []string{"v1", "v2"} {
		if err := srv.SwapWeights(v, openaitest.SwapOptions{}); err != nil {
			t.Fatal(err)
		}
		resp, out := chatOnce(t, srv, openaitest.DefaultModel)
		wantServed(t, srv, resp, out, v, openaitest.DefaultModel)
	}
	resp, _ = getURL(t, srv.BaseURL()+"/models")
	if resp.Header.Get(openaitest.WeightsHeader) != "v2" {
		t.Errorf("GET /models weights header %q, want v2", resp.Header.Get(openaitest.WeightsHeader))
	}
	// A plain policy ignores the version; the header still names it.
	plain := openaitest.Start(t, openaitest.WithPolicy(func([]openaitest.Message) string { return "same" }))
	if err := plain.SwapWeights("v9", openaitest.SwapOptions{}); err != nil {
		t.Fatal(err)
	}
	resp, out = chatOnce(t, plain, openaitest.DefaultModel)
	if r := decode[wireResponse](t, out); r.Choices[0].Message.Content != "same" || resp.Header.Get(openaitest.WeightsHeader) != "v9" {
		t.Errorf("plain policy after a swap: %q, header %q", r.Choices[0].Message.Content, resp.Header.Get(openaitest.WeightsHeader))
	}
}

// windowOpen polls GET /v1/models (which holds no request and spends no
// chat fault) until a swap's window refuses it with status.
func windowOpen(t *testing.T, srv *openaitest.Server, status int) {
	t.Helper()
	eventually(t, "the window to open", func() bool {
		resp, _ := getURL(t, srv.BaseURL()+"/models")
		return resp.StatusCode == status
	})
}

func TestSwapWindowRefusesThenServesTheNewWeights(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int // SwapOptions.Status
		want   int
		model  string
	}{
		{"default 503", 0, 503, ""},
		{"404 and a new model name", 404, 404, "quarry-test-model-v1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := openaitest.Start(t, openaitest.WithVersionedPolicy(byVersion), openaitest.WithFaults(openaitest.ServerError()))
			done := make(chan error, 1)
			go func() {
				done <- srv.SwapWeights("v1", openaitest.SwapOptions{Unavailable: 3 * time.Second, Status: tc.status, Model: tc.model})
			}()
			windowOpen(t, srv, tc.want)
			resp, out := getURL(t, srv.BaseURL()+"/models")
			wantRefused(t, resp, out, tc.want, openaitest.DefaultModel)
			for range 2 {
				resp, out = chatOnce(t, srv, openaitest.DefaultModel)
				wantRefused(t, resp, out, tc.want, openaitest.DefaultModel)
			}
			select {
			case err := <-done:
				t.Fatalf("the swap returned (%v) before the checks in its window ended", err)
			default:
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}

			// Once SwapWeights returned, the new weights serve. The planned
			// fault was not spent on the window's refusals: the first
			// admitted request gets it.
			model := cmp.Or(tc.model, openaitest.DefaultModel)
			if resp, out = chatOnce(t, srv, model); resp.StatusCode != 500 {
				t.Errorf("first admitted request: %d %s, want the planned 500", resp.StatusCode, out)
			}
			resp, out = chatOnce(t, srv, model)
			wantServed(t, srv, resp, out, "v1", model)
			admitted := 2
			if tc.model != "" {
				resp, out = chatOnce(t, srv, openaitest.DefaultModel)
				wantRefused(t, resp, out, 404, openaitest.DefaultModel)
				admitted++
			}
			resp, out = getURL(t, srv.BaseURL()+"/models")
			if l := decode[modelList](t, out); resp.StatusCode != 200 || len(l.Data) != 1 || l.Data[0].ID != model {
				t.Errorf("GET /models after the swap: %d %s", resp.StatusCode, out)
			}
			var seqs []int
			for _, rec := range srv.ChatRecords() {
				if rec.ChatSeq >= 0 {
					seqs = append(seqs, rec.ChatSeq)
				} else if rec.Status != tc.want || rec.Version != "" {
					t.Errorf("refused request %d: status %d version %q", rec.Seq, rec.Status, rec.Version)
				}
				if (rec.Version == "") == (rec.Status == 200) {
					t.Errorf("request %d: status %d with version %q", rec.Seq, rec.Status, rec.Version)
				}
			}
			if len(seqs) != admitted || seqs[0] != 0 || seqs[len(seqs)-1] != admitted-1 {
				t.Errorf("admitted chat seqs %v, want 0..%d", seqs, admitted-1)
			}
		})
	}
}

func TestInFlightRequestFinishesWithItsVersion(t *testing.T) {
	hold := make(chan struct{})
	srv := openaitest.Start(t, openaitest.WithVersionedPolicy(byVersion), openaitest.WithHold(hold))
	type answer struct {
		resp *http.Response
		out  []byte
		err  error
	}
	pinned := make(chan answer, 1)
	go func() {
		resp, out, err := post(t, http.DefaultClient, srv.BaseURL()+"/chat/completions", "", chatBody(openaitest.DefaultModel))
		pinned <- answer{resp, out, err}
	}()
	eventually(t, "the request to be admitted", func() bool {
		recs := srv.ChatRecords()
		return len(recs) == 1 && recs[0].ChatSeq == 0
	})
	done := make(chan error, 1)
	go func() {
		done <- srv.SwapWeights("v1", openaitest.SwapOptions{Unavailable: time.Second, Status: 404, Model: "m1"})
	}()
	windowOpen(t, srv, 404)
	resp, out := chatOnce(t, srv, openaitest.DefaultModel) // refused, not held
	wantRefused(t, resp, out, 404, openaitest.DefaultModel)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The swap is complete; the pinned request still answers as v0 did.
	close(hold)
	a := <-pinned
	if a.err != nil {
		t.Fatal(a.err)
	}
	wantServed(t, srv, a.resp, a.out, "v0", openaitest.DefaultModel)
	if rec := srv.ChatRecords()[0]; rec.Version != "v0" || rec.Status != 200 {
		t.Errorf("pinned record: version %q status %d", rec.Version, rec.Status)
	}
	resp, out = chatOnce(t, srv, "m1")
	wantServed(t, srv, resp, out, "v1", "m1")
}

func TestCloseEndsASwapWindow(t *testing.T) {
	srv := openaitest.Start(t)
	done := make(chan error, 1)
	go func() { done <- srv.SwapWeights("v1", openaitest.SwapOptions{Unavailable: time.Hour}) }()
	windowOpen(t, srv, 503)
	srv.Close()
	if err := <-done; err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("swap cut short by Close: %v", err)
	}
}

func TestSwapAfterInFlightWithoutWindow(t *testing.T) {
	hold := make(chan struct{})
	srv := openaitest.Start(t, openaitest.WithVersionedPolicy(byVersion), openaitest.WithHold(hold))
	pinned := make(chan []byte, 1)
	go func() {
		_, out, _ := post(t, http.DefaultClient, srv.BaseURL()+"/chat/completions", "", chatBody(openaitest.DefaultModel))
		pinned <- out
	}()
	eventually(t, "the request to be admitted", func() bool {
		recs := srv.ChatRecords()
		return len(recs) == 1 && recs[0].ChatSeq == 0
	})
	if err := srv.SwapWeights("v1", openaitest.SwapOptions{Model: "m1"}); err != nil {
		t.Fatal(err)
	}
	close(hold)
	if r := decode[wireResponse](t, <-pinned); r.Model != openaitest.DefaultModel || r.Choices[0].Message.Content != "answer of v0" {
		t.Errorf("pinned answer: model %q content %q", r.Model, r.Choices[0].Message.Content)
	}
	resp, out := chatOnce(t, srv, "m1")
	wantServed(t, srv, resp, out, "v1", "m1")
}

func TestSwapWeightsRejectsBadOptions(t *testing.T) {
	srv := openaitest.Start(t)
	for _, tc := range []struct {
		version string
		opts    openaitest.SwapOptions
		want    string
	}{
		{"", openaitest.SwapOptions{}, "version is empty"},
		{"v1", openaitest.SwapOptions{Status: 500}, "status 500: want 404 or 503"},
		{"v1", openaitest.SwapOptions{Unavailable: -time.Second}, "unavailable -1s: must not be negative"},
	} {
		if err := srv.SwapWeights(tc.version, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SwapWeights(%q, %+v) = %v, want %q", tc.version, tc.opts, err, tc.want)
		}
	}
	if got := srv.Weights().Version; got != openaitest.DefaultVersion {
		t.Errorf("a rejected swap changed the version to %q", got)
	}
}

func adminPost(t *testing.T, srv *openaitest.Server, body string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Post(srv.URL+"/admin/weights", "application/json", bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatalf("POST /admin/weights: %v", err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, out
}

func TestAdminWeightsEndpoint(t *testing.T) {
	const key = "sk-openaitest-key-0123456789"
	srv := openaitest.Start(t, openaitest.WithVersionedPolicy(byVersion), openaitest.WithAPIKey(key))
	// No key needed for /admin; GET reports the live weights.
	resp, out := getURL(t, srv.URL+"/admin/weights")
	if w := decode[openaitest.Weights](t, out); resp.StatusCode != 200 || w.Version != "v0" || w.Model != openaitest.DefaultModel {
		t.Fatalf("GET /admin/weights: %d %s", resp.StatusCode, out)
	}

	type result struct {
		resp *http.Response
		out  []byte
	}
	swapped := make(chan result, 1)
	go func() {
		resp, out := adminPost(t, srv, `{"version": "v1", "unavailable_ms": 1500, "status": 404, "model": "m1"}`)
		swapped <- result{resp, out}
	}()
	models := func() (*http.Response, []byte) {
		req, _ := http.NewRequest(http.MethodGet, srv.BaseURL()+"/models", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp, out
	}
	eventually(t, "the window to open", func() bool {
		resp, out = models()
		return resp.StatusCode == 404
	})
	wantRefused(t, resp, out, 404, openaitest.DefaultModel)
	resp, out, err := post(t, http.DefaultClient, srv.BaseURL()+"/chat/completions", key, chatBody(openaitest.DefaultModel))
	if err != nil {
		t.Fatal(err)
	}
	wantRefused(t, resp, out, 404, openaitest.DefaultModel)
	eventually(t, "the window to end", func() bool {
		resp, out = models()
		return resp.StatusCode == 200
	})
	if l := decode[modelList](t, out); len(l.Data) != 1 || l.Data[0].ID != "m1" || resp.Header.Get(openaitest.WeightsHeader) != "v1" {
		t.Errorf("GET /models once the window ended: %s, weights %q", out, resp.Header.Get(openaitest.WeightsHeader))
	}
	r := <-swapped
	if w := decode[openaitest.Weights](t, r.out); r.resp.StatusCode != 200 || w.Version != "v1" || w.Model != "m1" {
		t.Errorf("POST /admin/weights answered %d %s", r.resp.StatusCode, r.out)
	}
	resp, out, err = post(t, http.DefaultClient, srv.BaseURL()+"/chat/completions", key, chatBody("m1"))
	if err != nil {
		t.Fatal(err)
	}
	wantServed(t, srv, resp, out, "v1", "m1")
	resp, out = getURL(t, srv.URL+"/admin/weights")
	if w := decode[openaitest.Weights](t, out); w.Version != "v1" || w.Model != "m1" {
		t.Errorf("GET /admin/weights after the swap: %d %s", resp.StatusCode, out)
	}
	for _, rec := range srv.Records() {
		if strings.HasPrefix(rec.Path, "/admin") {
			t.Errorf("admin request recorded: %+v", rec)
		}
	}
}

func TestAdminWeightsRejectsBadBodies(t *testing.T) {
	srv := openaitest.Start(t)
	for _, tc := range []struct{ body, want string }{
		{`{"version": ""}`, "version is empty"},
		{`{"version": "v1", "status": 200}`, "status 200: want 404 or 503"},
		{`{"version": "v1", "unavailable_ms": -5}`, "unavailable_ms -5: must not be negative"},
		{`{"version": "v1", "unavailable": 5}`, `unknown field "unavailable"`},
		{`{"version": 1}`, "version"},
	} {
		resp, out := adminPost(t, srv, tc.body)
		var e wireError
		if err := json.Unmarshal(out, &e); err != nil || resp.StatusCode != 400 || !strings.Contains(e.Error.Message, tc.want) {
			t.Errorf("POST %s: %d %s, want 400 naming %q", tc.body, resp.StatusCode, out, tc.want)
		}
	}
	if got := srv.Weights().Version; got != openaitest.DefaultVersion {
		t.Errorf("a rejected swap changed the version to %q", got)
	}
}
