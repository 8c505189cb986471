// Package metricstest reads what a Quarry process serves at /metrics, and
// the metric names deploy/grafana/quarry.json queries, for tests.
package metricstest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// Families are the metric families of one scrape, by name.
type Families map[string]*dto.MetricFamily

// Get answers GET url: its status and body.
func Get(t testing.TB, url string) (int, string) {
	t.Helper()
	c := http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp.StatusCode, string(body)
}

// Scrape reads http://addr/metrics.
func Scrape(t testing.TB, addr string) Families {
	t.Helper()
	status, body := Get(t, "http://"+addr+"/metrics")
	if status != http.StatusOK {
		t.Fatalf("GET /metrics: %d %s", status, body)
	}
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return fams
}

func matches(m *dto.Metric, labels map[string]string) bool {
	n := 0
	for _, lp := range m.GetLabel() {
		if v, ok := labels[lp.GetName()]; ok {
			if v != lp.GetValue() {
				return false
			}
			n++
		}
	}
	return n == len(labels)
}

// Sum adds the counter values of name's series that carry labels.
func (f Families) Sum(name string, labels map[string]string) float64 {
	var s float64
	for _, m := range f[name].GetMetric() {
		if matches(m, labels) {
			s += m.GetCounter().GetValue()
		}
	}
	return s
}

// Count adds the observation counts of histogram name's series that carry labels.
func (f Families) Count(name string, labels map[string]string) uint64 {
	var s uint64
	for _, m := range f[name].GetMetric() {
		if matches(m, labels) {
			s += m.GetHistogram().GetSampleCount()
		}
	}
	return s
}

// LabelValues lists the values label takes in name's series.
func (f Families) LabelValues(name, label string) []string {
	var out []string
	for _, m := range f[name].GetMetric() {
		for _, lp := range m.GetLabel() {
			if lp.GetName() == label && !slices.Contains(out, lp.GetValue()) {
				out = append(out, lp.GetValue())
			}
		}
	}
	slices.Sort(out)
	return out
}

// SeriesNames is every name a query can use: family names, and a
// histogram's _bucket, _sum and _count series.
func (f Families) SeriesNames() map[string]bool {
	out := map[string]bool{}
	for name, fam := range f {
		out[name] = true
		if fam.GetType() == dto.MetricType_HISTOGRAM {
			for _, s := range []string{"_bucket", "_sum", "_count"} {
				out[name+s] = true
			}
		}
	}
	return out
}

var metricName = regexp.MustCompile(`\b(?:quarry|temporal)_[a-zA-Z0-9_]+`)

// DashboardMetrics reads a Grafana dashboard and returns, sorted, every
// quarry_ and temporal_ metric name its panel queries and template
// variables use.
func DashboardMetrics(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var d struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
		Templating struct {
			List []struct {
				Name       string `json:"name"`
				Type       string `json:"type"`
				Definition string `json:"definition"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var queries []string
	for _, p := range d.Panels {
		for _, t := range p.Targets {
			queries = append(queries, t.Expr)
		}
	}
	for _, v := range d.Templating.List {
		if v.Type == "query" {
			queries = append(queries, v.Definition)
		}
	}
	var names []string
	for _, q := range queries {
		found := metricName.FindAllString(q, -1)
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: query %q names no quarry_ or temporal_ metric", path, q)
		}
		for _, n := range found {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	return names, nil
}
