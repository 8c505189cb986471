package arithmetic

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
)

func TestCalendarItems(t *testing.T) {
	seen := map[string]int{}
	for seed := range uint64(400) {
		it := item(t, calendarArithmeticTask, calendarArithmeticTask.Defaults, seed)
		m := it.Meta
		task := m["task"].(string)
		seen[task]++
		date := func(k string) time.Time {
			d, err := time.Parse(time.DateOnly, m[k].(string))
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		switch task {
		case "weekday_offset", "weekday_of_date":
			if d := date("target_date"); d.Weekday().String() != it.Answer {
				t.Fatalf("%s: %s is a %s, item says %s", it.Question, d, d.Weekday(), it.Answer)
			}
		case "weekday_of_date_from_first_date":
			// 2024 began on a Monday.
			if m["first_day"] == "Monday" {
				d := date("target_date")
				if got := time.Date(2024, d.Month(), d.Day(), 0, 0, 0, 0, time.UTC).Weekday().String(); got != it.Answer && d.Month() < 3 {
					t.Fatalf("%s: %s, item says %s", it.Question, got, it.Answer)
				}
			}
		case "count_days":
			start, end := date("start_date"), date("end_date")
			n := 0
			for d := start; !d.After(end); d = d.Add(24 * time.Hour) {
				if strings.Contains(it.Question, d.Weekday().String()+"s are") || strings.Contains(it.Question, "of "+d.Weekday().String()+" from") ||
					strings.Contains(it.Question, "does "+d.Weekday().String()+" occur") {
					n++
				}
			}
			if strconv.Itoa(n) != it.Answer {
				t.Fatalf("%s: counted %d, item says %s", it.Question, n, it.Answer)
			}
		case "count_business_days":
			n := 0
			for d := date("start_date"); !d.After(date("end_date")); d = d.Add(24 * time.Hour) {
				if d.Weekday() != time.Saturday && d.Weekday() != time.Sunday {
					n++
				}
			}
			if strconv.Itoa(n) != it.Answer {
				t.Fatalf("%s: counted %d, item says %s", it.Question, n, it.Answer)
			}
		case "recurring_event_day":
			d, _ := strconv.Atoi(it.Answer)
			when := time.Date(2022, time.Month(m["month"].(int)), d, 0, 0, 0, 0, time.UTC)
			if when.Weekday().String() != m["weekday"] || when.Month() != time.Month(m["month"].(int)) {
				t.Fatalf("%s: day %d is a %s", it.Question, d, when.Weekday())
			}
			if m["ordinal"] == "last" && when.AddDate(0, 0, 7).Month() == when.Month() ||
				m["ordinal"] == "first" && d > 7 || m["ordinal"] == "second" && (d <= 7 || d > 14) {
				t.Fatalf("%s: day %d", it.Question, d)
			}
		case "is_leap_year":
			y := m["year"].(int)
			leap := time.Date(y, 12, 31, 0, 0, 0, 0, time.UTC).YearDay() == 366
			if (it.Answer == "Yes") != leap || y < 1922 || y > 2122 {
				t.Fatalf("%d: %s", y, it.Answer)
			}
		}
	}
	if len(seen) != len(calendarTasks) {
		t.Fatalf("tasks drawn: %v", seen)
	}
	o := calendarArithmeticTask.Defaults
	o.Tasks = []string{"IS_LEAP_YEAR"}
	if it := item(t, calendarArithmeticTask, o, 0); it.Meta["task"] != "is_leap_year" {
		t.Fatalf("tasks [IS_LEAP_YEAR] drew %v", it.Meta["task"])
	}
}

func TestCalendarScore(t *testing.T) {
	wd := &rg.Item{Answer: "Tuesday", Data: "weekday_of_date"}
	checkScores(t, scoreCalendar, wd, []scoreCase{
		{"Tuesday", 1}, {"tuesday", 1}, {"TUESDAY", 1}, {"Tuesday.", 1},
		{"Monday", 0.1}, {"monday", 0.05}, {"Tues", 0}, {"", 0},
	})
	n := &rg.Item{Answer: "20", Data: "count_days"}
	checkScores(t, scoreCalendar, n, []scoreCase{
		{"20", 1}, {"20.0", 1}, {"+20", 1},
		{"22", math.Exp(-0.5)}, {"18", math.Exp(-0.5)}, {"20.5", 0}, {"twenty", 0},
	})
	checkScores(t, scoreCalendar, &rg.Item{Answer: "0", Data: "count_days"}, []scoreCase{{"0", 1}, {"1", 0}})
	leap := &rg.Item{Answer: "Yes", Data: "is_leap_year"}
	checkScores(t, scoreCalendar, leap, []scoreCase{{"Yes", 1}, {"yes", 1}, {"YES.", 1}, {"No", 0}, {"true", 0}})
}

func TestCalendarOptionErrors(t *testing.T) {
	envtest.OptionErrors(t, taskRegistry(t), "rg:calendar_arithmetic", []envtest.OptionCase{
		{Options: map[string]any{"tasks": []any{"moon_phase"}}, Option: "tasks"},
		{Options: map[string]any{"tasks": []any{}}, Option: "tasks"},
		{Options: map[string]any{"year": 0}, Option: "year"},
		{Options: map[string]any{"offset_upper_bound": 0}, Option: "offset_upper_bound"},
	})
}
