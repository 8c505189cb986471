package code

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/games/words"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func TestRunBF(t *testing.T) {
	hello := "++++++++[>++++[>++>+++>+++>+<<<<-]>+>+>->>+[<]<-]>>.>---.+++++++..+++.>>.<-.<.+++.------.--------.>>+.>++."
	for _, c := range []struct {
		prog, want string
		err        bool
	}{
		{hello, "Hello World!\n", false},
		{"-.", "\xff", false},        // cells wrap
		{"+[>+<+]>.", "\xff", false}, // the inner cell counts to 255 as the outer wraps to 0
		{"comments are skipped +++++++++[>+++++++<-]>.", "?", false},
		{"[", "", true},
		{"]", "", true},
		{"<", "", true},
		{"+[]", "", true}, // never ends: the step budget stops it
	} {
		got, err := runBF(c.prog, 1<<20)
		if (err != nil) != c.err || (!c.err && got != c.want) {
			t.Errorf("runBF(%q) = %q, %v; want %q (error %v)", c.prog, got, err, c.want, c.err)
		}
	}
}

func TestBFPrintNumber(t *testing.T) {
	for v := range 256 {
		e := &bfEmitter{rng: envs.NewRand(uint64(v))}
		e.add(1, v, 9)
		e.printNumber(v)
		if got, err := runBF(e.b.String(), 1<<22); err != nil || got != strconv.Itoa(v) {
			t.Fatalf("%d prints %q (%v)", v, got, err)
		}
	}
}

func TestBFItems(t *testing.T) {
	r := registry(t)
	for seed := range uint64(50) {
		_, e := rgtest.Reset(t, r, "rg:bf", nil, seed)
		it := e.Item()
		if w := it.Meta["word"].(string); it.Answer != w || len(w) != 5 {
			t.Fatalf("seed %d: prints %q, not the word %q", seed, it.Answer, w)
		}
		_, e = rgtest.Reset(t, r, "rg:bf", map[string]any{"difficulty": 2}, seed)
		it = e.Item()
		x, y, target := it.Meta["x"].(int), it.Meta["y"].(int), it.Meta["target"].(int)
		acc := 0
		for acc < target {
			acc += x + y
		}
		if it.Answer != strconv.Itoa(acc) {
			t.Fatalf("seed %d: difficulty 2 prints %s, the loop gives %d", seed, it.Answer, acc)
		}
		_, e = rgtest.Reset(t, r, "rg:bf", map[string]any{"difficulty": 3}, seed)
		it = e.Item()
		x, y, target = it.Meta["x"].(int), it.Meta["y"].(int), it.Meta["target"].(int)
		cond := it.Meta["conditional"].(int)
		acc = 0
		for acc < target {
			if acc += x; acc > cond {
				acc += y
			}
		}
		if it.Answer != strconv.Itoa(acc) || !strings.Contains(it.Question, it.Meta["bf_program"].(string)) {
			t.Fatalf("seed %d: difficulty 3 prints %s, the loop gives %d", seed, it.Answer, acc)
		}
	}
	_, e := rgtest.Reset(t, r, "rg:bf", nil, 7)
	a := e.Item().Answer
	for _, c := range []struct {
		answer string
		want   float64
	}{
		{a, 1},
		{"The output is " + a, 5.0 / 19},
		{strings.ToUpper(a), 0},
		{a[:4], 0},
	} {
		if got := e.Score(c.answer); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Score(%q) = %v, want %v", c.answer, got, c.want)
		}
	}
	if !words.IsWord(a) {
		t.Fatalf("%q is not a word", a)
	}
	envtest.OptionErrors(t, r, "rg:bf", []envtest.OptionCase{
		{Options: map[string]any{"difficulty": 0}, Option: "difficulty"},
		{Options: map[string]any{"difficulty": 4}, Option: "difficulty"},
	})
}
