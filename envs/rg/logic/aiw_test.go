package logic

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func TestAIWScore(t *testing.T) {
	checkScores(t, scoreInteger, &rg.Item{Answer: "4"}, []scoreCase{
		{"4", 1}, {"4.0", 1}, {"+4", 1}, {" 4 ", 1}, {"4.", 1},
		{"3", 0}, {"5", 0}, {"-4", 0}, {"", 0}, {"four", 0},
		{"4 sisters", 1.0 / 9}, // reasoning-gym's containment credit
	})
}

// TestAIWAnswers re-derives each answer from the question's numbers.
func TestAIWAnswers(t *testing.T) {
	nums := regexp.MustCompile(`\d+`)
	kinds := map[string]int{}
	for seed := range uint64(300) {
		it := item(t, AIW, AIW.Defaults, seed)
		n := nums.FindAllString(it.Question, -1)
		kind := it.Meta["task_type"].(string)
		kinds[kind]++
		var female string
		switch kind {
		case "siblings":
			// "sisters" follows the number of sisters in both templates.
			female = regexp.MustCompile(`(\d+) sisters`).FindStringSubmatch(it.Question)[1]
		case "friends":
			female = n[1]
		case "colleagues":
			female = n[1]
			if !strings.HasSuffix(it.Question, "How many female colleagues does Matilda have?") {
				t.Fatalf("question %q", it.Question)
			}
		}
		f, _ := strconv.Atoi(female)
		if it.Answer != strconv.Itoa(f+1) {
			t.Fatalf("seed %d: %q answered %s", seed, it.Question, it.Answer)
		}
	}
	if len(kinds) != 3 {
		t.Errorf("task types drawn: %v", kinds)
	}
}

func TestAIWOptions(t *testing.T) {
	r := registry(t)
	for _, c := range []struct {
		options map[string]any
		option  string
	}{
		{map[string]any{"female_names": []string{"Mary"}}, "female_names"},
		{map[string]any{"task_types": []string{"cousins"}, "task_type_weights": []float64{1}}, "task_types"},
		{map[string]any{"task_types": []string{"friends"}}, "task_type_weights"},
		{map[string]any{"task_type_weights": []float64{0, 0, 0}}, "task_type_weights"},
		{map[string]any{"male_names": []string{""}}, "male_names"},
	} {
		_, err := r.Make("rg:aiw", c.options)
		if err == nil || !strings.Contains(err.Error(), c.option) {
			t.Errorf("%v: %v", c.options, err)
		}
	}
	_, e := rgtest.Reset(t, r, "rg:aiw", map[string]any{"task_types": []string{"friends"}, "task_type_weights": []float64{1}}, 3)
	if e.Item().Meta["task_type"] != "friends" {
		t.Error("task_types not honoured")
	}
}
