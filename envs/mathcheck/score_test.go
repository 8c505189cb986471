package mathcheck

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestScore(t *testing.T) {
	tests := []struct {
		response, gold string
		reward         float64
		hasBoxed       bool
	}{
		{`so the answer is \boxed{\frac{1}{2}}.`, "0.5", 1, true},
		{`\boxed{3} no wait, \boxed{4}`, "4", 1, true}, // the last box counts
		{`\boxed{4} no wait, \boxed{3}`, "4", 0, true}, // even when wrong
		{`The answer is 4.`, "4", 0, false},            // no box: caller may apply FormatPenalty
		{`\boxed 4`, "4", 0, false},                    // GEM's remove_boxed needs \boxed{
		{`\boxed{4} and then \boxed 5`, "4", 0, false}, // the last \boxed is malformed
		{`\fbox{4}`, "4", 0, false},                    // found, but remove_boxed rejects it
		{`\boxed{\left(1, \frac{\sqrt{3}}{2}\right)}`, `(1, \frac{\sqrt3}{2})`, 1, true},
		{`\boxed{x = 5}`, `\boxed{5}`, 1, true}, // a boxed gold is unboxed first
		{`\boxed{5`, "5", 0, false},             // braces never close
		{`\boxed{}`, "5", 0, true},              // empty answer: formatted, wrong
		{`$\boxed{1,000}$ dollars`, "1000", 1, true},
	}
	for _, tt := range tests {
		reward, has := Score(tt.response, tt.gold)
		if reward != tt.reward || has != tt.hasBoxed {
			t.Errorf("Score(%q, %q) = %v, %v; want %v, %v", tt.response, tt.gold, reward, has, tt.reward, tt.hasBoxed)
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{`\dfrac{3}{4}`, `\frac{3}{4}`},
		{`\frac34`, `\frac{3}{4}`},
		{`\sqrt2`, `\sqrt{2}`},
		{`\left( 1, 2 \right)`, `(1,2)`},
		{`5\text{ cm}`, "5"},
		{`\text{yes}`, "yes"},
		{`90^\circ`, "90"},
		{`50\%`, "50"},
		{`1,000`, "1000"},
		{`(1,000)`, "(1,000)"},
		{`x = 5`, "5"},
		{`x + y = 5`, "x+y=5"},
		{"−3", "-3"},
		{`\$4.50`, "4.50"},
		{`$\frac{1}{2}$.`, `\frac{1}{2}`},
		{`\begin{bmatrix}1\\2\end{bmatrix}`, `\begin{pmatrix}1\\2\end{pmatrix}`},
		{`x \leq 3`, `x\le3`},
		{"7 3/4", `7\frac{3}{4}`},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestCheckerOptions shows the knobs doing what they say.
func TestCheckerOptions(t *testing.T) {
	if !(Checker{RelTol: 1e-2}).Equivalent("3.14", `\pi`) {
		t.Error("a looser tolerance should accept 3.14 for pi")
	}
	if (Checker{MaxLen: 3}).Equivalent("1234", "1234") {
		t.Error("answers over MaxLen should be rejected")
	}
	if (Checker{MaxSteps: 5}).Equivalent("(x+1)^2", "x^2+2x+1") {
		t.Error("a tiny budget should give up")
	}
	if (Checker{MaxDepth: 3}).Equivalent("((((1))))", "1+0") {
		t.Error("nesting beyond MaxDepth should not parse")
	}
	if !(Checker{Seed: 99, Points: 12}).Equivalent("(x+1)^2", "x^2+2x+1") {
		t.Error("another seed should still see an identity")
	}
}

// adversarial are inputs built to be slow or deep.
func adversarial() []string {
	return []string{
		strings.Repeat("(", 1000) + "1" + strings.Repeat(")", 1000),
		strings.Repeat("{", 1000) + "1" + strings.Repeat("}", 1000),
		strings.Repeat("-", 2000) + "1",
		strings.Repeat("2^", 1000) + "2",
		strings.Repeat(`\sqrt{`, 500) + "2" + strings.Repeat("}", 500),
		strings.Repeat(`\frac{1}{`, 200) + "x" + strings.Repeat("}", 200),
		strings.Repeat("(x+1)", 400),
		"(x+y+z+w+a+b+c+d+f+g+h+k)^{4096}",
		"(x+1)^{4096}",
		strings.Repeat("99999999999999999999", 100),
		strings.Repeat("1,", 1000) + "1",
		"(" + strings.Repeat("1,", 60) + "1)",
		`\{` + strings.Repeat("x,", 63) + `x\}`,
		strings.Repeat("x", 2000),
		strings.Repeat("9!", 1000),
		"1000!!",
		strings.Repeat(`\sin `, 600) + "x",
		strings.Repeat(`x\cup `, 400) + "x",
		strings.Repeat(`|`, 1001),
		strings.Repeat(`\pm 1`, 400),
		strings.Repeat("1 < ", 500) + "2",
		`\begin{pmatrix}` + strings.Repeat("x&", 100) + `x\end{pmatrix}`,
		strings.Repeat("2^{", 300) + "9" + strings.Repeat("}", 300),
		strings.Repeat(`\binom{1000}{500}`, 100),
	}
}

func TestBoundedWork(t *testing.T) {
	in := adversarial()
	for i, a := range in {
		for _, b := range []string{"1", "x", a, in[(i+1)%len(in)]} {
			start := time.Now()
			Equivalent(a, b)
			Equivalent(b, a)
			if d := time.Since(start); d > 500*time.Millisecond {
				t.Errorf("input %d (%.40q…) took %v", i, a, d)
			}
		}
	}
}

func ExampleEquivalent() {
	fmt.Println(Equivalent(`\frac{x^2-1}{x-1}`, "x+1"))
	fmt.Println(Equivalent(`\left[0, \infty\right)`, `[0,\infty)`))
	fmt.Println(Equivalent("x^2", "2x"))
	// Output:
	// true
	// true
	// false
}

func ExampleScore() {
	reward, hasBoxed := Score(`The total is $\boxed{1,000}$ dollars.`, "1000")
	fmt.Println(reward, hasBoxed)
	reward, hasBoxed = Score("The total is 1000.", "1000")
	if !hasBoxed {
		reward = FormatPenalty // GEM's use_format_error_reward=True
	}
	fmt.Println(reward, hasBoxed)
	// Output:
	// 1 true
	// -0.1 false
}
