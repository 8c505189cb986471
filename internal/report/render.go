package report

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"
)

// chartJS is Chart.js, vendored from npm (see assets/README.md), inlined
// into every report so nothing is fetched when it is opened.
//
//go:embed assets/chart.umd.min.js
var chartJS string

//go:embed page.html.tmpl
var pageTemplate string

var page = template.Must(template.New("report").Parse(pageTemplate))

// Render writes r as one self-contained HTML page.
func Render(w io.Writer, r *Report) error {
	v, err := view(r)
	if err != nil {
		return err
	}
	if err := page.Execute(w, v); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	return nil
}

// pageView is what the template shows: tables of cells and chart configs.
type pageView struct {
	Job, Location string
	ChartJS       template.JS
	Sections      []section
}

type section struct {
	ID, Title, Note string
	Charts          []chartView
	Tables          []tableView
}

type chartView struct {
	ID     string
	Series int // datasets
	Points int // points (labels) of each dataset
	Config template.JS
}

type tableView struct {
	ID, Caption string
	Head        []string
	Rows        []rowView
}

type rowView struct {
	Key   string
	Cells []cell
}

// cell is one value of a table: K names the quantity (data-k), V is its
// exact value (data-v) and Text how it is shown.
type cell struct {
	K, V, Text string
	Num        bool
}

func str(k, s string) cell { return cell{K: k, V: s, Text: s} }

func num(k string, x int64) cell {
	s := strconv.FormatInt(x, 10)
	return cell{K: k, V: s, Text: s, Num: true}
}

// flt shows four significant digits; data-v keeps the exact value.
func flt(k string, x float64) cell {
	return cell{K: k, V: strconv.FormatFloat(x, 'g', -1, 64), Text: strconv.FormatFloat(x, 'g', 4, 64), Num: true}
}

func view(r *Report) (*pageView, error) {
	v := &pageView{Job: r.Job, Location: r.Location, ChartJS: template.JS(strings.TrimSuffix(strings.TrimRight(chartJS, "\n"), "//# sourceMappingURL=chart.umd.min.js.map"))}
	builders := []func(*Report) (section, error){summarySection, batchSection, envSection, distSection, toolSection, latencySection, faultSection}
	for _, b := range builders {
		s, err := b(r)
		if err != nil {
			return nil, err
		}
		v.Sections = append(v.Sections, s)
	}
	return v, nil
}

// chart builds a Chart.js config: labels on the x axis, one dataset per
// series (its values in label order).
type series struct {
	Label string    `json:"label"`
	Data  []float64 `json:"data"`
	Axis  string    `json:"yAxisID,omitempty"`
}

func chart(id, kind string, labels []string, ss []series, options map[string]any) (chartView, error) {
	cfg := map[string]any{
		"type":    kind,
		"data":    map[string]any{"labels": labels, "datasets": ss},
		"options": options,
	}
	b, err := json.Marshal(cfg) // escapes <, > and &, so it cannot close the script
	if err != nil {
		return chartView{}, fmt.Errorf("chart %s: %w", id, err)
	}
	return chartView{ID: id, Series: len(ss), Points: len(labels), Config: template.JS(b)}, nil
}

func axes(x, y string) map[string]any {
	return map[string]any{"scales": map[string]any{
		"x": map[string]any{"title": map[string]any{"display": true, "text": x}},
		"y": map[string]any{"title": map[string]any{"display": true, "text": y}, "beginAtZero": true},
	}}
}

func summarySection(r *Report) (section, error) {
	s := r.Summary
	rows := []struct {
		label string
		c     cell
	}{
		{"committed batches", num("batches", int64(s.Batches))},
		{"episodes", num("episodes", s.Episodes)},
		{"failed episodes", num("failed_episodes", s.FailedEpisodes)},
		{"turns", num("turns", s.Turns)},
		{"tool turns", num("tool_turns", s.ToolTurns)},
		{"success rate", flt("success_rate", s.SuccessRate)},
		{"mean reward", flt("mean_reward", s.MeanReward)},
		{"mean return", flt("mean_return", s.MeanReturn)},
		{"prompt tokens", num("prompt_tokens", s.PromptTokens)},
		{"response tokens", num("response_tokens", s.ResponseTokens)},
		{"retries", num("retries", s.Retries)},
	}
	t := tableView{ID: "t-summary", Head: []string{"", "value"}}
	for _, row := range rows {
		c := row.c
		c.K = "value"
		t.Rows = append(t.Rows, rowView{Key: row.c.K, Cells: []cell{str("name", row.label), c}})
	}
	return section{ID: "summary", Title: "Summary", Tables: []tableView{t},
		Note: "Committed shards only. Rates and means are over committed episodes; failed episodes are in _failures/."}, nil
}

func batchSection(r *Report) (section, error) {
	t := tableView{ID: "t-batches", Head: []string{"batch", "episodes", "failed", "turns", "mean reward", "mean return", "success rate"}}
	var labels []string
	reward, ret, success := series{Label: "mean reward"}, series{Label: "mean return"}, series{Label: "success rate", Axis: "y1"}
	for _, b := range r.Batches {
		labels = append(labels, strconv.Itoa(b.Batch))
		reward.Data = append(reward.Data, b.MeanReward)
		ret.Data = append(ret.Data, b.MeanReturn)
		success.Data = append(success.Data, b.SuccessRate)
		t.Rows = append(t.Rows, rowView{Key: strconv.Itoa(b.Batch), Cells: []cell{
			num("batch", int64(b.Batch)), num("episodes", b.Episodes), num("failed_episodes", b.FailedEpisodes), num("turns", b.Turns),
			flt("mean_reward", b.MeanReward), flt("mean_return", b.MeanReturn), flt("success_rate", b.SuccessRate),
		}})
	}
	opts := axes("batch", "reward / return")
	opts["scales"].(map[string]any)["y1"] = map[string]any{"position": "right", "min": 0, "max": 1,
		"title": map[string]any{"display": true, "text": "success rate"}, "grid": map[string]any{"drawOnChartArea": false}}
	c, err := chart("chart-batches", "line", labels, []series{reward, ret, success}, opts)
	return section{ID: "batches", Title: "Per batch", Charts: []chartView{c}, Tables: []tableView{t}}, err
}

func envSection(r *Report) (section, error) {
	t := tableView{ID: "t-envs", Head: []string{"env", "version", "episodes", "failed", "turns", "turns/episode", "success rate", "mean reward", "mean return"}}
	var labels []string
	success, reward := series{Label: "success rate"}, series{Label: "mean reward"}
	ids := map[string]int{}
	for _, e := range r.Envs {
		ids[e.EnvID]++
	}
	for _, e := range r.Envs {
		label := e.EnvID
		if ids[e.EnvID] > 1 { // several versions of one env: tell the bars apart
			label += " " + e.EnvVersion
		}
		labels = append(labels, label)
		success.Data = append(success.Data, e.SuccessRate)
		reward.Data = append(reward.Data, e.MeanReward)
		t.Rows = append(t.Rows, rowView{Key: e.EnvID + "@" + e.EnvVersion, Cells: []cell{
			str("env_id", e.EnvID), str("env_version", e.EnvVersion), num("episodes", e.Episodes), num("failed_episodes", e.Failed),
			num("turns", e.Turns), flt("mean_turns", e.MeanTurns), flt("success_rate", e.SuccessRate),
			flt("mean_reward", e.MeanReward), flt("mean_return", e.MeanReturn),
		}})
	}
	c, err := chart("chart-envs", "bar", labels, []series{success, reward}, axes("env", "value"))
	return section{ID: "envs", Title: "Per env", Charts: []chartView{c}, Tables: []tableView{t}}, err
}

func distSection(r *Report) (section, error) {
	s := section{ID: "distributions", Title: "Turns and tokens",
		Note: "Token histograms count model turns (response_len > 0); turns of random and oracle policies carry no tokens."}
	for _, h := range []struct {
		id, title, x string
		h            Histogram
	}{
		{"turns", "turns per episode", "turns", r.TurnsPerEpisode},
		{"response-tokens", "response tokens per model turn", "response tokens", r.ResponseTokens},
		{"prompt-tokens", "prompt tokens per model turn", "prompt tokens", r.PromptTokens},
	} {
		t := tableView{ID: "t-hist-" + h.id, Caption: h.title, Head: []string{"from", "to (excl.)", "count"}}
		var labels []string
		counts := series{Label: h.title}
		for i, n := range h.h.Counts {
			lo := h.h.Lo + int64(i)*h.h.Width
			label := strconv.FormatInt(lo, 10)
			if h.h.Width > 1 {
				label += "–" + strconv.FormatInt(lo+h.h.Width-1, 10)
			}
			labels = append(labels, label)
			counts.Data = append(counts.Data, float64(n))
			t.Rows = append(t.Rows, rowView{Key: strconv.FormatInt(lo, 10), Cells: []cell{num("lo", lo), num("hi", lo+h.h.Width), num("count", n)}})
		}
		s.Tables = append(s.Tables, t)
		if len(labels) == 0 {
			continue
		}
		c, err := chart("chart-"+h.id, "bar", labels, []series{counts}, axes(h.x, "count"))
		if err != nil {
			return s, err
		}
		s.Charts = append(s.Charts, c)
	}
	return s, nil
}

func toolSection(r *Report) (section, error) {
	s := section{ID: "tools", Title: "Tool calls", Note: fmt.Sprintf("%d of %d turns called a tool.", r.Summary.ToolTurns, r.Summary.Turns)}
	t := tableView{ID: "t-tools", Head: []string{"tool", "calls", "errors", "error rate", "calls/episode", "mean ms", "p50 ms", "p95 ms"}}
	var labels []string
	calls, errs := series{Label: "calls"}, series{Label: "errors"}
	for _, x := range r.Tools {
		labels = append(labels, x.Tool)
		calls.Data = append(calls.Data, float64(x.Calls))
		errs.Data = append(errs.Data, float64(x.Errors))
		t.Rows = append(t.Rows, rowView{Key: x.Tool, Cells: []cell{
			str("tool", x.Tool), num("calls", x.Calls), num("errors", x.Errors), flt("error_rate", x.ErrorRate),
			flt("calls_per_episode", x.CallsPerEpisode), flt("mean_ms", x.MeanMs), flt("p50_ms", x.P50Ms), flt("p95_ms", x.P95Ms),
		}})
	}
	s.Tables = []tableView{t}
	if len(labels) > 0 {
		c, err := chart("chart-tools", "bar", labels, []series{calls, errs}, axes("tool", "calls"))
		if err != nil {
			return s, err
		}
		s.Charts = []chartView{c}
	}
	return s, nil
}

func latencySection(r *Report) (section, error) {
	t := tableView{ID: "t-latency", Head: []string{"kind", "count", "mean ms", "p50 ms", "p90 ms", "p99 ms", "max ms"}}
	var labels []string
	p50, p90, p99 := series{Label: "p50"}, series{Label: "p90"}, series{Label: "p99"}
	for _, l := range r.Latency {
		labels = append(labels, l.Kind)
		p50.Data = append(p50.Data, l.P50)
		p90.Data = append(p90.Data, l.P90)
		p99.Data = append(p99.Data, l.P99)
		t.Rows = append(t.Rows, rowView{Key: l.Kind, Cells: []cell{
			str("kind", l.Kind), num("count", l.Count), flt("mean", l.Mean), flt("p50", l.P50), flt("p90", l.P90), flt("p99", l.P99), flt("max", l.Max),
		}})
	}
	c, err := chart("chart-latency", "bar", labels, []series{p50, p90, p99}, axes("latency", "ms"))
	return section{ID: "latency", Title: "Latency", Charts: []chartView{c}, Tables: []tableView{t},
		Note: "generation: every turn's generation_ms (the inference call, or a local policy); env_step: env_ms of turns that stepped the env; tool_call: env_ms of turns that called a tool."}, err
}

func faultSection(r *Report) (section, error) {
	s := section{ID: "faults", Title: "Faults and failures",
		Note: "Failed episodes: _failures/ records by error_class. Turn errors: non-fatal error_class of committed turns. Generation faults: failed attempts retried before an accepted answer, by last_fault."}
	classes := map[string][3]float64{}
	ft := tableView{ID: "t-failures", Caption: "failed episodes", Head: []string{"class", "episodes"}}
	for _, c := range r.Failures {
		ft.Rows = append(ft.Rows, rowView{Key: c.Class, Cells: []cell{str("class", c.Class), num("count", c.Count)}})
		v := classes[c.Class]
		v[0] = float64(c.Count)
		classes[c.Class] = v
	}
	et := tableView{ID: "t-turn-errors", Caption: "turn errors", Head: []string{"class", "turns"}}
	for _, c := range r.TurnErrors {
		et.Rows = append(et.Rows, rowView{Key: c.Class, Cells: []cell{str("class", c.Class), num("count", c.Count)}})
		v := classes[c.Class]
		v[1] = float64(c.Count)
		classes[c.Class] = v
	}
	gt := tableView{ID: "t-faults", Caption: "generation faults", Head: []string{"last fault", "turns", "failed attempts"}}
	for _, f := range r.Faults {
		gt.Rows = append(gt.Rows, rowView{Key: f.Class, Cells: []cell{str("class", f.Class), num("turns", f.Turns), num("attempts", f.Attempts)}})
		v := classes[f.Class]
		v[2] = float64(f.Attempts)
		classes[f.Class] = v
	}
	s.Tables = []tableView{ft, et, gt}
	if len(classes) == 0 {
		return s, nil
	}
	labels := make([]string, 0, len(classes))
	for c := range classes {
		labels = append(labels, c)
	}
	slices.Sort(labels)
	ss := []series{{Label: "failed episodes"}, {Label: "turn errors"}, {Label: "generation faults (attempts)"}}
	for _, l := range labels {
		for i := range ss {
			ss[i].Data = append(ss[i].Data, classes[l][i])
		}
	}
	c, err := chart("chart-faults", "bar", labels, ss, axes("class", "count"))
	s.Charts = []chartView{c}
	return s, err
}
