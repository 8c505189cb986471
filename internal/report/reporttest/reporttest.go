// Package reporttest checks a rendered report the way a reader sees it: it
// opens the HTML file in headless Chromium (Debian's /usr/bin/chromium,
// installed by scripts/deps/chromium.sh, driven by chromedp), checks that
// every chart drew its series and points on a canvas with no console error
// and no network request, and compares every number the page shows with
// DuckDB queries (tools/duckdb/read.mjs) over the committed files of the
// same job — the queries docs/report.md documents.
package reporttest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Chromium is the browser the tests open reports in.
const Chromium = "/usr/bin/chromium"

// Page is what the browser showed.
type Page struct {
	Charts []Chart
	// Tables maps a table id to its rows by data-row key, each row mapping
	// a cell's data-k to the cell.
	Tables map[string]map[string]map[string]Cell
	// Screenshot is a PNG of the whole page.
	Screenshot []byte
}

// Chart is one rendered chart.
type Chart struct {
	ID string `json:"id"`
	// WantSeries and WantPoints are the figure's data-series and
	// data-points: what the report meant to draw.
	WantSeries int `json:"wantSeries"`
	WantPoints int `json:"wantPoints"`
	// Width and Height are the canvas's size on the page in CSS pixels;
	// Inked counts its pixels that are not transparent.
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Inked  int     `json:"inked"`
	// Drawn is false when no Chart.js chart is bound to the canvas; Series
	// holds, per dataset, the number of its elements Chart.js laid out at
	// finite positions inside the canvas.
	Drawn  bool  `json:"drawn"`
	Series []int `json:"series"`
}

// Cell is one table cell: its data-v and its text.
type Cell struct {
	V    string `json:"v"`
	Text string `json:"text"`
}

// inspectJS collects the charts and tables of a rendered report.
const inspectJS = `(() => {
  const charts = [...document.querySelectorAll('figure.chart')].map(fig => {
    const canvas = fig.querySelector('canvas');
    const box = canvas.getBoundingClientRect();
    const out = {id: fig.id, wantSeries: +fig.dataset.series, wantPoints: +fig.dataset.points,
      width: box.width, height: box.height, inked: 0, drawn: false, series: []};
    const px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 3; i < px.length; i += 4) if (px[i] > 0) out.inked++;
    const chart = Chart.getChart(canvas);
    if (!chart) return out;
    out.drawn = true;
    chart.data.datasets.forEach((_, i) => {
      const meta = chart.getDatasetMeta(i);
      out.series.push(meta.data.filter(el => Number.isFinite(el.x) && Number.isFinite(el.y) &&
        el.x >= 0 && el.x <= chart.width && el.y >= 0 && el.y <= chart.height).length);
    });
    return out;
  });
  const tables = {};
  document.querySelectorAll('table[id]').forEach(t => {
    const rows = {};
    t.querySelectorAll('tbody tr[data-row]').forEach(tr => {
      const cells = {};
      tr.querySelectorAll('td[data-k]').forEach(td => { cells[td.dataset.k] = {v: td.dataset.v, text: td.textContent}; });
      rows[tr.dataset.row] = cells;
    });
    tables[t.id] = rows;
  });
  return JSON.stringify({charts, tables});
})()`

// Open loads the report at path in headless Chromium and returns what it
// showed. It fails the test on a console error or warning, an uncaught
// exception, a log entry of level error or warning (a blocked fetch, a CSP
// violation) or any request other than the file itself.
func Open(t *testing.T, path string) *Page {
	t.Helper()
	if _, err := os.Stat(Chromium); err != nil {
		t.Fatalf("%s is missing: run scripts/deps/chromium.sh", Chromium)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(Chromium), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.NoFirstRun, chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc() // ends the browser and waits for it
	var seen events
	bctx, cancelBrowser := chromedp.NewContext(actx, chromedp.WithListener(seen.record))
	defer cancelBrowser()

	url := "file://" + path
	p, err := load(bctx, url)
	if err != nil {
		t.Fatalf("open %s in chromium: %v", url, err)
	}
	seen.mu.Lock()
	defer seen.mu.Unlock()
	if len(seen.problems) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(seen.problems, "\n"))
	}
	for _, r := range seen.requests {
		if r != url {
			t.Errorf("the page requested %s: a report must fetch nothing", r)
		}
	}
	return p
}

// load opens url in the tab of ctx, waits until the page says its charts
// are drawn, and reads them, its tables and a screenshot.
func load(ctx context.Context, url string) (*Page, error) {
	if err := chromedp.Do(ctx); err != nil { // attaches the tab
		return nil, err
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		return nil, err
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		return nil, err
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`body[data-rendered="true"]`))); err != nil {
		return nil, err
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](inspectJS))
	if err != nil {
		return nil, fmt.Errorf("read the page: %w", err)
	}
	var p Page
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return nil, fmt.Errorf("page data: %w", err)
	}
	if p.Screenshot, err = chromedp.Run(ctx, chromedp.FullScreenshot(100)); err != nil { // quality 100: PNG
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	return &p, nil
}

// events records what the tab reports. record runs in the tab's message
// loop from its first event on, so it only appends.
type events struct {
	mu                 sync.Mutex
	problems, requests []string
}

func (e *events) record(ev any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		e.problems = append(e.problems, "exception: "+ev.ExceptionDetails.Text+" "+describe(ev.ExceptionDetails.Exception))
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
			e.problems = append(e.problems, fmt.Sprintf("console.%s: %s", ev.Type, args(ev.Args)))
		}
	case *cdplog.EventEntryAdded:
		if ev.Entry.Level == cdplog.EntryLevelError || ev.Entry.Level == cdplog.EntryLevelWarning {
			e.problems = append(e.problems, fmt.Sprintf("log %s: %s %s", ev.Entry.Level, ev.Entry.Text, ev.Entry.URL))
		}
	case *network.EventRequestWillBeSent:
		e.requests = append(e.requests, ev.Request.URL)
	}
}

func args(as []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range as {
		parts = append(parts, describe(a))
	}
	return strings.Join(parts, " ")
}

func describe(o *runtime.RemoteObject) string {
	switch {
	case o == nil:
		return ""
	case len(o.Value) > 0:
		return string(o.Value)
	default:
		return o.Description
	}
}

// CheckCharts fails the test unless every chart of the page is drawn with
// the series and points its figure announces, each series' points laid
// out inside a visible, inked canvas, and unless want names exactly the
// charts found (in page order).
func CheckCharts(t *testing.T, p *Page, want ...string) {
	t.Helper()
	var ids []string
	for _, c := range p.Charts {
		ids = append(ids, c.ID)
		switch {
		case !c.Drawn:
			t.Errorf("chart %s: no chart bound to its canvas", c.ID)
		case c.Width < 100 || c.Height < 100:
			t.Errorf("chart %s: canvas %gx%g px", c.ID, c.Width, c.Height)
		case c.Inked == 0:
			t.Errorf("chart %s: nothing drawn on the canvas", c.ID)
		case len(c.Series) != c.WantSeries || c.WantSeries == 0:
			t.Errorf("chart %s: %d series drawn, want %d", c.ID, len(c.Series), c.WantSeries)
		}
		for i, n := range c.Series {
			if n != c.WantPoints {
				t.Errorf("chart %s series %d: %d points drawn, want %d", c.ID, i, n, c.WantPoints)
			}
		}
	}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("charts %v, want %v", ids, want)
	}
}
