package arithmetic

import (
	"strings"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
)

// parseShown reads a question's start or end back with Go's parser.
func parseShown(t *testing.T, s, format string) time.Time {
	t.Helper()
	layouts := map[string]string{
		"%H:%M": "15:04", "%H:%M:%S": "15:04:05", "%H:%M:%S.%f": "15:04:05.000",
	}
	for _, f := range append(dateFormats, datetimeFormats...) {
		layouts[f.strftime] = f.layout
		if f.tz {
			layouts[f.strftime] += " -0700"
		}
	}
	v, err := time.Parse(layouts[format], s)
	if err != nil {
		t.Fatalf("%q as %s: %v", s, format, err)
	}
	return v
}

func TestTimeIntervalsItems(t *testing.T) {
	kinds := map[string]int{}
	for seed := range uint64(300) {
		it := item(t, timeIntervalsTask, timeIntervalsTask.Defaults, seed)
		m := it.Meta
		kind, format, expected := m["task_type"].(string), m["format"].(string), m["expected_format"].(string)
		kinds[kind]++
		t0, t1 := parseShown(t, m["start_time"].(string), format), parseShown(t, m["end_time"].(string), format)
		d := t1.Sub(t0)
		if strings.HasPrefix(kind, "time") && d < 0 {
			d += 24 * time.Hour // the end is past midnight
		}
		if want := formatInterval(d.Milliseconds(), expected); want != it.Answer {
			t.Fatalf("%s: %s to %s is %s, item says %s", kind, m["start_time"], m["end_time"], want, it.Answer)
		}
		if !strings.Contains(it.Question, m["start_time"].(string)) || !strings.HasSuffix(it.Question, " in "+expected+".") {
			t.Fatalf("question %q", it.Question)
		}
	}
	if len(kinds) != len(timeTaskTypes) {
		t.Fatalf("task types drawn: %v", kinds)
	}
}

func TestFormatInterval(t *testing.T) {
	for _, c := range []struct {
		ms     int64
		format string
		want   string
	}{
		{3723004, "HH:MM:SS.mmm", "01:02:03.004"},
		{86400000, "HH:MM", "24:00"},
		{86400000*3 + 3723000, "D days, HH:MM:SS", "3 days, 01:02:03"},
		{86400000*3 + 3723000, "D days, HH:MM", "3 days, 01:02"},
		{-3600000, "D days, HH:MM", "-1 days, 23:00"}, // Python's timedelta
		{86400000 * 7, "D days", "7 days"},
	} {
		if got := formatInterval(c.ms, c.format); got != c.want {
			t.Errorf("formatInterval(%d, %s) = %q, want %q", c.ms, c.format, got, c.want)
		}
	}
}

func TestTimeIntervalsScore(t *testing.T) {
	tm := &rg.Item{Answer: "01:30:00", Data: interval{kind: "time", ms: 5400000, maxDiff: 86400}}
	checkScores(t, scoreInterval, tm, []scoreCase{
		{"01:30:00", 1}, {"1:30:00", 1}, {"01:30", 1}, {"0 days, 01:30:00", 1},
		{"01:30:36", 1 - 36.0/86400}, // reasoning-gym's linear credit
		{"13:30:00", 0.5},
		{"90 minutes", 0}, {"", 0},
	})
	ms := &rg.Item{Answer: "00:00:01.500", Data: interval{kind: "time", ms: 1500, maxDiff: 100}}
	checkScores(t, scoreInterval, ms, []scoreCase{{"00:00:01.500", 1}, {"00:00:01.5", 1}, {"00:00:01.499", 1 - 0.001/100}})
	date := &rg.Item{Answer: "40 days", Data: interval{kind: "date", ms: 40 * 86400000, maxDiff: 100 * 86400}}
	checkScores(t, scoreInterval, date, []scoreCase{{"40 days", 1}, {"40", 1}, {"40 Days", 1}, {"50 days", 0.9}, {"forty", 0}})
	dt := &rg.Item{Answer: "-1 days, 23:00", Data: interval{kind: "datetime", ms: -3600000, maxDiff: 100 * 86400}}
	checkScores(t, scoreInterval, dt, []scoreCase{
		{"-1 days, 23:00", 1}, {"-1 days, 23:00:00", 1}, {"-1 day 23:00", 1},
		{"0 days, 23:00", 1 - 86400.0/(100*86400)},
	})
	day := &rg.Item{Answer: "1 days, 02:00", Data: interval{kind: "datetime", ms: 93600000, maxDiff: 86400}}
	checkScores(t, scoreInterval, day, []scoreCase{{"1 days, 02:00", 1}, {"1 day, 02:00", 1}, {"26:00", 1}, {"1 days, 03:00", 1 - 3600.0/86400}})
}

func TestTimeIntervalsOptionErrors(t *testing.T) {
	envtest.OptionErrors(t, taskRegistry(t), "rg:time_intervals", []envtest.OptionCase{
		{Options: map[string]any{"min_date": "3000-01-01"}, Option: "max_date"},
		{Options: map[string]any{"min_date": "1900-13-01"}, Option: "min_date"},
		{Options: map[string]any{"max_date": "9950-01-01"}, Option: "max_date"},
		{Options: map[string]any{"min_date": "0999-12-31"}, Option: "min_date"},
		{Options: map[string]any{"min_time": "24:00:00"}, Option: "min_time"},
		{Options: map[string]any{"task_types": []any{"week"}}, Option: "task_types"},
		{Options: map[string]any{"task_types": []any{}}, Option: "task_types"},
		{Options: map[string]any{"max_time_difference_seconds": 0}, Option: "max_time_difference_seconds"},
		{Options: map[string]any{"min_date": "2000-01-01", "max_date": "2000-02-01", "max_date_difference_days": 31}, Option: "max_date_difference_days"},
	})
	// Without date tasks the short range is fine.
	envtest.Make(t, taskRegistry(t), "rg:time_intervals", map[string]any{
		"min_date": "2000-01-01", "max_date": "2000-02-01", "max_date_difference_days": 31, "task_types": []any{"datetime"},
	})
}
