package arithmetic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// timeTaskTypes are reasoning-gym's time_intervals task types.
var timeTaskTypes = []string{"time", "time_seconds", "time_ms", "date", "datetime", "datetime_tz"}

// TimeIntervalsOptions are reasoning-gym's TimeIntervalsConfig, dates as
// "YYYY-MM-DD" and times as "HH:MM:SS[.ffffff]" (Python's str of a date and
// a time). min_time and max_time are accepted and checked but, as in
// reasoning-gym, unused. reasoning-gym leaves the differences open; Quarry
// caps them at 10 days of seconds and 100 years of days, and keeps dates in
// years 1000 to 9899 so every date prints with four-digit years.
type TimeIntervalsOptions struct {
	MinTime                  string   `json:"min_time" len:"5,15"`
	MaxTime                  string   `json:"max_time" len:"5,15"`
	MaxTimeDifferenceSeconds int      `json:"max_time_difference_seconds" range:"1,864000"`
	MinDate                  string   `json:"min_date" len:"10,10"`
	MaxDate                  string   `json:"max_date" len:"10,10"`
	MaxDateDifferenceDays    int      `json:"max_date_difference_days" range:"1,36500"`
	TaskTypes                []string `json:"task_types" len:"1,6"`
}

var (
	clockPattern = regexp.MustCompile(`^\d\d:\d\d(:\d\d(\.\d{1,6})?)?$`)
	firstDate    = time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC)
	lastDate     = time.Date(9899, 12, 31, 0, 0, 0, 0, time.UTC)
)

// dates parses min_date and max_date (Validate has checked them).
func (o TimeIntervalsOptions) dates() (lo, hi time.Time, err error) {
	lo, err = time.Parse(time.DateOnly, o.MinDate)
	if err != nil {
		return lo, hi, &envs.OptionError{Option: "min_date", Reason: fmt.Sprintf("%q is not a date YYYY-MM-DD", o.MinDate)}
	}
	hi, err = time.Parse(time.DateOnly, o.MaxDate)
	if err != nil {
		return lo, hi, &envs.OptionError{Option: "max_date", Reason: fmt.Sprintf("%q is not a date YYYY-MM-DD", o.MaxDate)}
	}
	return lo, hi, nil
}

// Validate is reasoning-gym's (min_date before max_date), plus what its
// generator needs to draw a date task: a date range longer than
// max_date_difference_days.
func (o TimeIntervalsOptions) Validate() error {
	for _, t := range []struct{ name, v string }{{"min_time", o.MinTime}, {"max_time", o.MaxTime}} {
		if !clockPattern.MatchString(t.v) || t.v[:2] > "23" || t.v[3:5] > "59" || len(t.v) > 5 && t.v[6:8] > "59" {
			return &envs.OptionError{Option: t.name, Reason: fmt.Sprintf("%q is not a time HH:MM:SS[.ffffff]", t.v)}
		}
	}
	lo, hi, err := o.dates()
	if err != nil {
		return err
	}
	switch {
	case lo.Before(firstDate) || lo.After(lastDate):
		return &envs.OptionError{Option: "min_date", Reason: fmt.Sprintf("%s is outside 1000-01-01 to 9899-12-31", o.MinDate)}
	case hi.Before(firstDate) || hi.After(lastDate):
		return &envs.OptionError{Option: "max_date", Reason: fmt.Sprintf("%s is outside 1000-01-01 to 9899-12-31", o.MaxDate)}
	case !lo.Before(hi):
		return &envs.OptionError{Option: "max_date", Reason: fmt.Sprintf("%s must be after min_date %s", o.MaxDate, o.MinDate)}
	}
	for _, t := range o.TaskTypes {
		if !slices.Contains(timeTaskTypes, t) {
			return &envs.OptionError{Option: "task_types", Reason: fmt.Sprintf("unknown task type %q (allowed: %s)", t, strings.Join(timeTaskTypes, ", "))}
		}
	}
	if days := int(hi.Sub(lo).Hours() / 24); slices.Contains(o.TaskTypes, "date") && o.MaxDateDifferenceDays >= days {
		return &envs.OptionError{Option: "max_date_difference_days", Reason: fmt.Sprintf("%d must be below the %d days from min_date to max_date for date tasks", o.MaxDateDifferenceDays, days)}
	}
	return nil
}

var intervalTemplates = []string{
	"What is the duration between {start} and {end}? Please answer in {format}.",
	"Calculate the time difference between {start} and {end}. Express the result in {format}.",
	"How much time elapsed from {start} to {end}? Give your answer in {format}.",
	"A meeting started at {start} and ended at {end}. How long was the meeting? Answer in {format}.",
	"A system operation started at {start} and completed at {end}. What was the operation duration? Answer in {format}.",
	"A database query started at {start} and ended at {end}. How long did the query take? Answer in {format}.",
	"A flight departed at {start} and arrived at {end}. How long was the flight? Answer in {format}.",
	"A video call started at {start} and ended at {end}. How long was the call? Answer in {format}.",
	"A system backup started at {start} and completed at {end}. What was the total backup duration? Answer in {format}.",
	"A conference call began at {start} and ended at {end}. How long was the conference? Answer in {format}.",
}

// A clockFormat is one of reasoning-gym's strftime formats as a Go layout:
// tz says an offset "+HHMM" follows, seconds whether the time shows them.
type clockFormat struct {
	strftime, layout string
	tz, seconds      bool
}

var dateFormats = []clockFormat{
	{"%Y-%m-%d", "2006-01-02", false, false},
	{"%B %d, %Y", "January 02, 2006", false, false},
	{"%m/%d/%Y", "01/02/2006", false, false},
	{"%A, %B %d, %Y", "Monday, January 02, 2006", false, false},
	{"%a %b %d %Y", "Mon Jan 02 2006", false, false},
	{"%d %B %Y", "02 January 2006", false, false},
	{"%Y-%m-%d (%A)", "2006-01-02 (Monday)", false, false},
}

var datetimeFormats = []clockFormat{
	{"%Y-%m-%d %H:%M", "2006-01-02 15:04", false, false},
	{"%Y-%m-%d %H:%M:%S", "2006-01-02 15:04:05", false, true},
	{"%Y-%m-%d %H:%M %z", "2006-01-02 15:04", true, false},
	{"%Y-%m-%d %H:%M:%S %z", "2006-01-02 15:04:05", true, true},
	{"%A, %B %d, %Y at %H:%M", "Monday, January 02, 2006 at 15:04", false, false},
	{"%a %b %d %Y %H:%M:%S", "Mon Jan 02 2006 15:04:05", false, true},
	{"%d %B %Y, %H:%M", "02 January 2006, 15:04", false, false},
	{"%d %B %Y, %H:%M %z", "02 January 2006, 15:04", true, false},
	{"%Y-%m-%d (%A) %H:%M:%S %z", "2006-01-02 (Monday) 15:04:05", true, true},
}

// interval is what the scorer needs: the answer's kind ("date", "time",
// "datetime"), the true duration and the difference that earns no credit.
type interval struct {
	kind    string
	ms      int64
	maxDiff float64 // seconds
}

// showClock writes t in f, the time truncated to what f shows, with the
// offset of off hours when f has one; it returns the text and the instant
// the text denotes.
func showClock(t time.Time, f clockFormat, off int) (string, time.Time) {
	if f.seconds {
		t = t.Truncate(time.Second)
	} else {
		t = t.Truncate(time.Minute)
	}
	s := t.Format(f.layout)
	if f.tz {
		s += fmt.Sprintf(" %+05d", off*100)
		t = t.Add(-time.Duration(off) * time.Hour)
	}
	return s, t
}

var timeIntervalsTask = rg.Task[TimeIntervalsOptions]{
	Name:        "time_intervals",
	Description: "reasoning-gym time_intervals: the duration between two times, dates or datetimes, in a given format.",
	Revision:    1,
	Defaults: TimeIntervalsOptions{
		MinTime: "00:00:00", MaxTime: "23:59:59.999999", MaxTimeDifferenceSeconds: 24 * 60 * 60,
		MinDate: "1900-01-01", MaxDate: "3000-01-01", MaxDateDifferenceDays: 100, TaskTypes: timeTaskTypes,
	},
	Generate: func(rng *rand.Rand, o TimeIntervalsOptions) (rg.Item, error) {
		lo, hi, err := o.dates()
		if err != nil {
			return rg.Item{}, err
		}
		kind := o.TaskTypes[rng.IntN(len(o.TaskTypes))]
		var start, end, format, expected string
		var iv interval
		switch kind {
		case "time", "time_seconds", "time_ms":
			start, end, format, expected, iv = drawTimes(rng, o, kind)
		case "date":
			start, end, format, expected, iv = drawDates(rng, o, lo, hi)
		default:
			start, end, format, expected, iv = drawDatetimes(rng, o, lo, hi)
		}
		// The reference answer truncates the clock to its format; the
		// scorer compares with what it says, as reasoning-gym does.
		answer := formatInterval(iv.ms, expected)
		iv.ms, _ = parseInterval(answer)
		q := strings.NewReplacer("{start}", start, "{end}", end, "{format}", expected).Replace(intervalTemplates[rng.IntN(len(intervalTemplates))])
		return rg.Item{
			Question: q,
			Answer:   answer,
			Data:     iv,
			Meta:     map[string]any{"task_type": kind, "start_time": start, "end_time": end, "format": format, "expected_format": expected},
		}, nil
	},
	Score: scoreInterval,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		iv := it.Data.(interval)
		return formatInterval(rng.Int64N(int64(iv.maxDiff*1000)+1), it.Meta["expected_format"].(string))
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		ms, ok := parseInterval(answer)
		switch {
		case !ok:
			return "Your answer is not a duration in the requested format."
		case ms > it.Data.(interval).ms:
			return "Your duration is too long."
		case ms < it.Data.(interval).ms:
			return "Your duration is too short."
		}
		return "Your duration is right but not in the requested format."
	},
}

// drawTimes is reasoning-gym's time tasks: a start in the day and an end at
// most max_time_difference_seconds later, no later than midnight.
func drawTimes(rng *rand.Rand, o TimeIntervalsOptions, kind string) (start, end, format, expected string, iv interval) {
	f := clockFormat{"%H:%M", "15:04", false, false}
	expected = "HH:MM"
	switch kind {
	case "time_seconds":
		f, expected = clockFormat{"%H:%M:%S", "15:04:05", false, true}, "HH:MM:SS"
	case "time_ms":
		f, expected = clockFormat{"%H:%M:%S.%f", "15:04:05.000", false, true}, "HH:MM:SS.mmm"
	}
	h, m, s := rng.IntN(24), rng.IntN(60), rng.IntN(60)
	base := time.Date(2000, 1, 1, h, m, s, 0, time.UTC)
	untilMidnight := (24-h)*3600 - m*60 - s
	diff := rg.Between(rng, 1, min(o.MaxTimeDifferenceSeconds, untilMidnight))
	stop := base.Add(time.Duration(diff) * time.Second)
	if kind == "time_ms" {
		base = base.Add(time.Duration(rng.IntN(1000)) * time.Millisecond)
		stop = base.Add(time.Duration(diff)*time.Second + time.Duration(rng.IntN(1000))*time.Millisecond)
		start, end = base.Format(f.layout), stop.Format(f.layout)
	} else {
		var t0, t1 time.Time
		start, t0 = showClock(base, f, 0)
		end, t1 = showClock(stop, f, 0)
		base, stop = t0, t1
	}
	ms := stop.Sub(base).Milliseconds()
	return start, end, f.strftime, expected, interval{kind: "time", ms: ms, maxDiff: float64(o.MaxTimeDifferenceSeconds)}
}

// drawDates is reasoning-gym's date task: a start that leaves room for the
// end, and a difference of 0 to max_date_difference_days days.
func drawDates(rng *rand.Rand, o TimeIntervalsOptions, lo, hi time.Time) (start, end, format, expected string, iv interval) {
	f := dateFormats[rng.IntN(len(dateFormats))]
	span := int(hi.Sub(lo).Hours() / 24)
	maxDiff := min(o.MaxDateDifferenceDays, span)
	d0 := lo.AddDate(0, 0, rng.IntN(span-maxDiff))
	diff := rg.Between(rng, 0, maxDiff)
	d1 := d0.AddDate(0, 0, diff)
	return d0.Format(f.layout), d1.Format(f.layout), f.strftime, "D days",
		interval{kind: "date", ms: int64(diff) * 86400000, maxDiff: float64(o.MaxDateDifferenceDays) * 86400}
}

// drawDatetimes is reasoning-gym's datetime and datetime_tz tasks (the
// same draw: both pick any of the datetime formats). With an offset in the
// format, the end's clock reading carries its own offset, so the duration
// between the two instants differs from the difference drawn.
func drawDatetimes(rng *rand.Rand, o TimeIntervalsOptions, lo, hi time.Time) (start, end, format, expected string, iv interval) {
	f := datetimeFormats[rng.IntN(len(datetimeFormats))]
	expected = [...]string{"D days, HH:MM", "D days, HH:MM:SS"}[rng.IntN(2)]
	span := int(hi.Sub(lo).Hours() / 24)
	base := lo.AddDate(0, 0, rg.Between(rng, 0, span)).Add(time.Duration(rng.IntN(24))*time.Hour +
		time.Duration(rng.IntN(60))*time.Minute + time.Duration(rng.IntN(60))*time.Second)
	diffDays := rg.Between(rng, 0, o.MaxDateDifferenceDays)
	diffSeconds := rg.Between(rng, 1, o.MaxTimeDifferenceSeconds)
	startOff, endOff := 0, 0
	if f.tz {
		startOff, endOff = rg.Between(rng, -12, 12), rg.Between(rng, -12, 12)
	}
	stop := base.AddDate(0, 0, diffDays).Add(time.Duration(diffSeconds) * time.Second)
	start, t0 := showClock(base, f, startOff)
	end, t1 := showClock(stop, f, endOff)
	return start, end, f.strftime, expected,
		interval{kind: "datetime", ms: t1.Sub(t0).Milliseconds(), maxDiff: float64(o.MaxDateDifferenceDays) * 86400}
}

// formatInterval writes ms as reasoning-gym's answers: "HH:MM",
// "HH:MM:SS", "HH:MM:SS.mmm" (hours may pass 24), "D days", and for
// datetimes Python's timedelta split (days floored, so "-1 days, 23:00" is
// an hour back) with the clock truncated to the format.
func formatInterval(ms int64, format string) string {
	days := floorDiv(ms, 86400000)
	dayMS := ms - days*86400000
	h, m, s, frac := dayMS/3600000, dayMS/60000%60, dayMS/1000%60, dayMS%1000
	switch format {
	case "HH:MM", "HH:MM:SS", "HH:MM:SS.mmm":
		h += days * 24
		out := fmt.Sprintf("%02d:%02d", h, m)
		if format != "HH:MM" {
			out += fmt.Sprintf(":%02d", s)
		}
		if format == "HH:MM:SS.mmm" {
			out += fmt.Sprintf(".%03d", frac)
		}
		return out
	case "D days":
		return fmt.Sprintf("%d days", days)
	case "D days, HH:MM:SS":
		return fmt.Sprintf("%d days, %02d:%02d:%02d", days, h, m, s)
	}
	return fmt.Sprintf("%d days, %02d:%02d", days, h, m)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

var durationPattern = regexp.MustCompile(`(?i)^(?:([+-]?\d{1,7})\s*(?:days?|d)?\s*(?:,|and)?\s*)??(?:(\d{1,9}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9}))?)?)?$`)

// parseInterval reads "D days", "H:MM", "H:MM:SS", "H:MM:SS.fff" and "D
// days, H:MM[:SS]" (also "1 day", a bare day count, no comma) in
// milliseconds.
func parseInterval(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 100 {
		return 0, false
	}
	m := durationPattern.FindStringSubmatch(s)
	if m == nil || m[1] == "" && m[2] == "" {
		return 0, false
	}
	var ms int64
	if m[1] != "" {
		d, _ := strconv.ParseInt(m[1], 10, 64)
		ms = d * 86400000
	}
	if m[2] != "" {
		h, _ := strconv.ParseInt(m[2], 10, 64)
		mi, _ := strconv.ParseInt(m[3], 10, 64)
		sec, _ := strconv.ParseInt(m[4], 10, 64) // 0 when absent
		ms += h*3600000 + mi*60000 + sec*1000
		if m[5] != "" {
			frac, _ := strconv.ParseFloat("0."+m[5], 64)
			ms += int64(math.Round(frac * 1000))
		}
	}
	return ms, true
}

// scoreInterval is reasoning-gym's: 1 for the duration, else partial
// credit 1 - |error|/max falling to 0 at max_time_difference_seconds (time
// tasks) or max_date_difference_days (date and datetime tasks). An answer
// scores by its value, so "1 day, 02:00" and "26:00" are one duration
// (reasoning-gym reads each task's format only); a date task reads the day
// count alone.
func scoreInterval(answer string, it *rg.Item) float64 {
	iv := it.Data.(interval)
	got, ok := parseInterval(answer)
	if !ok {
		return 0
	}
	if iv.kind == "date" {
		got = floorDiv(got, 86400000) * 86400000
	}
	if got == iv.ms {
		return 1
	}
	return max(0, 1-math.Abs(float64(got-iv.ms))/1000/iv.maxDiff)
}
