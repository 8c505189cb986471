package arithmetic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// calendarTasks are reasoning-gym's CalendarTask values, in its order.
var calendarTasks = []string{
	"weekday_offset", "weekday_of_date", "weekday_of_date_from_first_date",
	"recurring_event_day", "count_days", "count_business_days", "is_leap_year",
}

// weekdays are Monday first, as Python's date.weekday counts.
var weekdays = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

// CalendarArithmeticOptions are reasoning-gym's CalendarArithmeticConfig
// (its tasks default of None is every task). reasoning-gym leaves the
// numbers open; Quarry caps the year at 9999, the offset at 100 years and
// the leap year range at 10000.
type CalendarArithmeticOptions struct {
	Year             int      `json:"year" range:"1,9999"`
	Tasks            []string `json:"tasks" len:"1,7"`
	OffsetUpperBound int      `json:"offset_upper_bound" range:"1,36500"`
	LeapYearRange    int      `json:"leap_year_range" range:"0,10000"`
}

// Validate is reasoning-gym's: known task names, in any case.
func (o CalendarArithmeticOptions) Validate() error {
	for _, t := range o.Tasks {
		if !slices.Contains(calendarTasks, strings.ToLower(t)) {
			return &envs.OptionError{Option: "tasks", Reason: fmt.Sprintf("unknown task %q (allowed: %s)", t, strings.Join(calendarTasks, ", "))}
		}
	}
	return nil
}

var dayQuestionTemplates = []string{
	"Answer with the weekday's name (e.g., Monday, Tuesday, etc.).",
	"Provide the full name of the weekday.",
	"State the weekday (Monday through Sunday).",
	"Give the weekday name in full.",
	"Reply with just the weekday name.",
	"Write out the full weekday name.",
	"Respond with the weekday (Monday-Sunday).",
	"Answer using the complete weekday name.",
	"Name the day of the week in full.",
}

var countQuestionTemplates = []string{
	"Answer with a number.",
	"Provide the count as a number.",
	"Respond with just the number.",
	"Write the total number.",
	"Give the count numerically.",
	"State the amount as a number.",
	"Reply with the numerical value.",
	"Express your answer as a number.",
}

func pick(rng *rand.Rand, xs []string) string { return xs[rng.IntN(len(xs))] }

func day(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

// weekday is d's name; weekdayIndex counts from Monday.
func weekday(d time.Time) string   { return weekdays[weekdayIndex(d)] }
func weekdayIndex(d time.Time) int { return (int(d.Weekday()) + 6) % 7 }

func daysIn(y, m int) int { return day(y, m+1, 0).Day() }

func daysBetween(a, b time.Time) int { return int(b.Sub(a).Hours() / 24) }

// randomDate is reasoning-gym's _random_date_for_year: a month, then a day.
func randomDate(rng *rand.Rand, year int) time.Time {
	m := rg.Between(rng, 1, 12)
	return day(year, m, rg.Between(rng, 1, daysIn(year, m)))
}

// randomDateBetween is reasoning-gym's _random_date_between, inclusive.
func randomDateBetween(rng *rand.Rand, a, b time.Time) time.Time {
	return a.AddDate(0, 0, rg.Between(rng, 0, daysBetween(a, b)))
}

// monthDay writes "March 13" (Python's strftime('%B') and the day unpadded).
func monthDay(d time.Time) string { return fmt.Sprintf("%s %d", d.Month(), d.Day()) }

// fullDate writes "Wednesday, March 13".
func fullDate(d time.Time) string { return weekday(d) + ", " + monthDay(d) }

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// calendarItem is what one calendar task draws: question, answer, meta.
type calendarItem struct {
	question, answer string
	meta             map[string]any
}

var calendarGenerators = map[string]func(*rand.Rand, CalendarArithmeticOptions) calendarItem{
	"weekday_offset": func(rng *rand.Rand, o CalendarArithmeticOptions) calendarItem {
		start := randomDate(rng, o.Year)
		offset := rg.Between(rng, 1, o.OffsetUpperBound)
		if rng.IntN(2) == 0 {
			offset = -offset
		}
		target := start.AddDate(0, 0, offset)
		ds := fmt.Sprintf("%s, %d", fullDate(start), start.Year())
		templates := []string{
			fmt.Sprintf("If today is %s, what day of the week will it be in %d days? ", ds, offset),
			fmt.Sprintf("Starting from %s, which weekday falls after a %d-day jump? ", ds, offset),
			fmt.Sprintf("Count forward %d days from %s - what's the weekday? ", offset, ds),
		}
		if offset < 0 {
			templates = []string{
				fmt.Sprintf("If today is %s, what day of the week was it %d days ago? ", ds, -offset),
				fmt.Sprintf("Starting from %s, which weekday was it %d days before? ", ds, -offset),
				fmt.Sprintf("Count backward %d days from %s - what's the weekday? ", -offset, ds),
			}
		}
		return calendarItem{pick(rng, templates) + pick(rng, dayQuestionTemplates), weekday(target),
			map[string]any{"start_date": isoDate(start), "offset_days": offset, "target_date": isoDate(target)}}
	},
	"weekday_of_date": func(rng *rand.Rand, o CalendarArithmeticOptions) calendarItem {
		d := randomDate(rng, o.Year)
		templates := []string{
			fmt.Sprintf("What day of the week was %s, %d?", monthDay(d), o.Year),
			fmt.Sprintf("On which weekday did %s, %d fall?", monthDay(d), o.Year),
			fmt.Sprintf("Name the day of the week for %02d/%02d/%d.", d.Month(), d.Day(), d.Year()),
		}
		return calendarItem{pick(rng, templates) + " " + pick(rng, dayQuestionTemplates), weekday(d),
			map[string]any{"target_date": isoDate(d)}}
	},
	"weekday_of_date_from_first_date": func(rng *rand.Rand, o CalendarArithmeticOptions) calendarItem {
		first := rng.IntN(7)
		jan1, dec31 := day(o.Year, 1, 1), day(o.Year, 12, 31)
		last := jan1.AddDate(0, 0, o.OffsetUpperBound)
		if last.After(dec31) {
			last = dec31
		}
		target := jan1
		for target.Equal(jan1) { // at least one day in two differs
			target = randomDateBetween(rng, jan1, last)
		}
		delta := daysBetween(jan1, target)
		f := weekdays[first]
		templates := []string{
			fmt.Sprintf("If the first day of the year was a %s, what day of the week will %s be? ", f, monthDay(target)),
			fmt.Sprintf("Given that January 1 fell on a %s, which weekday occurs on %s? ", f, monthDay(target)),
			fmt.Sprintf("In a year where %s is January 1st, name the weekday of %s. ", f, monthDay(target)),
		}
		return calendarItem{pick(rng, templates) + pick(rng, dayQuestionTemplates), weekdays[(first+delta)%7],
			map[string]any{"year": o.Year, "first_day": f, "target_date": isoDate(target), "delta_days": delta}}
	},
	"recurring_event_day": func(rng *rand.Rand, o CalendarArithmeticOptions) calendarItem {
		month := rg.Between(rng, 1, 12)
		ordinals := []string{"first", "second", "third", "fourth", "last"}
		ord := rng.IntN(len(ordinals))
		wd := rng.IntN(7)
		n := daysIn(o.Year, month)
		event := -1 // never: every month has four of each weekday
		if ordinals[ord] == "last" {
			for d := n; d >= 1 && event < 0; d-- {
				if weekdayIndex(day(o.Year, month, d)) == wd {
					event = d
				}
			}
		} else {
			seen := 0
			for d := 1; d <= n && event < 0; d++ {
				if weekdayIndex(day(o.Year, month, d)) == wd {
					if seen++; seen == ord+1 {
						event = d
					}
				}
			}
		}
		mn := time.Month(month).String()
		templates := []string{
			fmt.Sprintf("If a meeting is scheduled on the %s %s of %s %d, on which day of the month does it occur? ", ordinals[ord], weekdays[wd], mn, o.Year),
			fmt.Sprintf("In %s %d, if an event recurs on the %s %s, what is the date (day of the month) of the event? ", mn, o.Year, ordinals[ord], weekdays[wd]),
			fmt.Sprintf("Determine the day of the month for the %s %s in %s %d. ", ordinals[ord], weekdays[wd], mn, o.Year),
		}
		return calendarItem{pick(rng, templates) + pick(rng, countQuestionTemplates) + " Answer with -1 if the ordinal does not exist in the month.",
			strconv.Itoa(event), map[string]any{"year": o.Year, "month": month, "ordinal": ordinals[ord], "weekday": weekdays[wd]}}
	},
	"count_days": func(rng *rand.Rand, o CalendarArithmeticOptions) calendarItem {
		jan1, dec31 := day(o.Year, 1, 1), day(o.Year, 12, 31)
		start := randomDateBetween(rng, jan1, dec31)
		last := start.AddDate(0, 0, o.OffsetUpperBound)
		if last.After(dec31) {
			last = dec31
		}
		end := randomDateBetween(rng, start, last)
		wd := rng.IntN(7)
		count := 0
		for d := start; !d.After(end); d = d.AddDate(0, 0, 1) {
			if weekdayIndex(d) == wd {
				count++
			}
		}
		w, y := weekdays[wd], o.Year
		templates := []string{
			fmt.Sprintf("How many %ss are there from %s, %d to %s, %d (inclusive of both dates)? ", w, fullDate(start), y, fullDate(end), y),
			fmt.Sprintf("Count the occurrences of %s from %s to %s, %d (including both start and end dates). ", w, fullDate(start), fullDate(end), y),
			fmt.Sprintf("Between %s, %d and %s, %d (counting both dates), how many times does %s occur? ", fullDate(start), y, fullDate(end), y, w),
		}
		return calendarItem{pick(rng, templates) + pick(rng, countQuestionTemplates), strconv.Itoa(count),
			map[string]any{"year": y, "start_date": isoDate(start), "end_date": isoDate(end)}}
	},
	"count_business_days": func(rng *rand.Rand, o CalendarArithmeticOptions) calendarItem {
		// The end may fall in a later year; reasoning-gym's text still
		// names the config's year for it.
		start := randomDateBetween(rng, day(o.Year, 1, 1), day(o.Year, 12, 31))
		end := randomDateBetween(rng, start, start.AddDate(0, 0, o.OffsetUpperBound))
		n := daysBetween(start, end) + 1
		count := n / 7 * 5
		for i := range n % 7 {
			if (weekdayIndex(start)+i)%7 < 5 {
				count++
			}
		}
		y := o.Year
		templates := []string{
			fmt.Sprintf("How many business days (Monday-Friday) are there from %s, %d to %s, %d (inclusive of both dates)? ", fullDate(start), y, fullDate(end), y),
			fmt.Sprintf("Count the weekdays (excluding weekends) from %s to %s, %d (including both start and end dates). ", fullDate(start), fullDate(end), y),
			fmt.Sprintf("Between %s, %d and %s, %d (counting both dates), what's the total count of business days (Monday through Friday)? ", fullDate(start), y, fullDate(end), y),
		}
		return calendarItem{pick(rng, templates) + pick(rng, countQuestionTemplates), strconv.Itoa(count),
			map[string]any{"start_date": isoDate(start), "end_date": isoDate(end)}}
	},
	"is_leap_year": func(rng *rand.Rand, o CalendarArithmeticOptions) calendarItem {
		semi := o.LeapYearRange / 2
		y := rg.Between(rng, o.Year-semi, o.Year+semi)
		answer := "No"
		if isLeap(y) {
			answer = "Yes"
		}
		templates := []string{
			fmt.Sprintf("Determine if the year %d is a leap year. ", y),
			fmt.Sprintf("Is %d a leap year? ", y),
			fmt.Sprintf("Tell me whether %d is a leap year. ", y),
		}
		return calendarItem{pick(rng, templates) + "Answer with Yes or No.", answer, map[string]any{"year": y, "is_leap": isLeap(y)}}
	},
}

// isoDate is Python's date.isoformat for years 1 to 9999, and the same
// shape beyond.
func isoDate(d time.Time) string { return fmt.Sprintf("%04d-%02d-%02d", d.Year(), d.Month(), d.Day()) }

var calendarArithmeticTask = rg.Task[CalendarArithmeticOptions]{
	Name:        "calendar_arithmetic",
	Description: "reasoning-gym calendar_arithmetic: weekdays of dates and offsets, counts of weekdays and business days, recurring events, leap years.",
	Revision:    1,
	Defaults:    CalendarArithmeticOptions{Year: 2022, Tasks: calendarTasks, OffsetUpperBound: 100, LeapYearRange: 200},
	Generate: func(rng *rand.Rand, o CalendarArithmeticOptions) (rg.Item, error) {
		task := strings.ToLower(o.Tasks[rng.IntN(len(o.Tasks))])
		c := calendarGenerators[task](rng, o)
		c.meta["task"] = task
		return rg.Item{Question: c.question, Answer: c.answer, Data: task, Meta: c.meta}, nil
	},
	Score: scoreCalendar,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		switch it.Data.(string) {
		case "weekday_offset", "weekday_of_date", "weekday_of_date_from_first_date":
			return pick(rng, weekdays)
		case "is_leap_year":
			return pick(rng, []string{"Yes", "No"})
		}
		return guessNear(rng, it.Answer)
	},
}

// scoreCalendar is reasoning-gym's. Weekdays: 1 for the day, 0.1 for
// another weekday name, 0.05 for another in other case; Quarry takes the
// right day in any case (reasoning-gym: 0.05) and ignores a final full stop.
// Counts: exp(-5 × relative error), an integer in any number format. Leap
// years: yes or no in any case.
func scoreCalendar(answer string, it *rg.Item) float64 {
	a := strings.TrimSuffix(strings.TrimSpace(answer), ".")
	switch it.Data.(string) {
	case "weekday_offset", "weekday_of_date", "weekday_of_date_from_first_date":
		switch {
		case strings.EqualFold(a, it.Answer):
			return 1
		case slices.Contains(weekdays, a):
			return 0.1
		case slices.ContainsFunc(weekdays, func(w string) bool { return strings.EqualFold(w, a) }):
			return 0.05
		}
		return 0
	case "is_leap_year":
		if strings.EqualFold(a, it.Answer) {
			return 1
		}
		return 0
	}
	x, ok := parseNumber(a)
	if !ok || !x.IsInt() {
		return 0
	}
	got, _ := x.Float64()
	want, _ := strconv.ParseFloat(it.Answer, 64)
	if want == 0 {
		if got == 0 {
			return 1
		}
		return 0
	}
	return math.Exp(-5 * math.Abs(got-want) / math.Abs(want))
}
