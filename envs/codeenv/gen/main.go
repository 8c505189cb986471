// Command gen writes the code envs' shipped sample, samples/code.jsonl: small
// stdin/stdout problems written by the project (sum of numbers, reverse a
// string, count words, …), each with 3 to 15 generated tests in the shape of
// GEM's "tests" column. It is seeded, so a rerun writes the same bytes.
//
// Run it from the package directory: go generate ./envs/codeenv.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

const (
	seed = 20251231
	rows = 30
	out  = "samples/code.jsonl"
)

// test is one stdin/stdout case, as text.
type test struct{ in, out string }

// kind is a problem family: a title (the statement's first line, which the
// package's tests use to find their reference solution), a statement built
// from the variant's bounds, and a generator of one test.
type kind struct {
	title string
	// statement returns the description, input and output sections for
	// bound level big (0 small, 1 large).
	statement func(big int) string
	gen       func(rng *rand.Rand, big int) test
}

func main() {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var buf bytes.Buffer
	for i := range rows {
		k := kinds[i%len(kinds)]
		big := (i / len(kinds)) % 2
		n := 3 + rng.IntN(10) // 3..12
		if i%5 == 0 {
			n = 13 + rng.IntN(3) // 13..15: more than GEM's 12, to exercise the selection
		}
		tests := make([]test, 0, n)
		seen := map[string]bool{}
		for len(tests) < n {
			t := k.gen(rng, big)
			if seen[t.in] {
				continue
			}
			seen[t.in] = true
			tests = append(tests, t)
		}
		problem := k.title + "\n\n" + k.statement(big) + "\n\nExample\n\nInput\n" + tests[0].in + "Output\n" + tests[0].out
		row := struct {
			Problem string `json:"problem"`
			Tests   any    `json:"tests"`
		}{problem, encodeTests(i, tests)}
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(row); err != nil {
			fail(err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		fail(err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}

// encodeTests stores a row's tests in one of the shapes GEM's CodeEnv reads:
// a {"inputs", "outputs"} object of texts; the same object JSON-encoded into
// a string (GEM json.loads a string column); or, for rows of at most 12
// tests, inputs and outputs as lists of lines, which GEM joins with "\n".
func encodeTests(i int, tests []test) any {
	type io struct {
		Inputs  any `json:"inputs"`
		Outputs any `json:"outputs"`
	}
	var ins, outs []string
	for _, t := range tests {
		ins = append(ins, t.in)
		outs = append(outs, t.out)
	}
	switch {
	case i%3 == 0:
		b, err := json.Marshal(io{ins, outs})
		if err != nil {
			fail(err)
		}
		return string(b)
	case i%3 == 2 && len(tests) <= 12:
		return io{lines(ins), lines(outs)}
	default:
		return io{ins, outs}
	}
}

func lines(texts []string) [][]string {
	var out [][]string
	for _, t := range texts {
		out = append(out, strings.Split(strings.TrimSuffix(t, "\n"), "\n"))
	}
	return out
}

func ints(rng *rand.Rand, n, lim int) []int {
	v := make([]int, n)
	for i := range v {
		v[i] = rng.IntN(2*lim+1) - lim
	}
	return v
}

func join(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}

func word(rng *rand.Rand, min, max int, alphabet string) string {
	n := min + rng.IntN(max-min+1)
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

const lower = "abcdefghijklmnopqrstuvwxyz"

// bounds picks the small or large value of a bound.
func bounds(big int, small, large int) int { return []int{small, large}[big] }

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

var kinds = []kind{
	{
		title: "Sum of Numbers",
		statement: func(big int) string {
			return fmt.Sprintf("You are given n integers. Print their sum.\n\nInput\n\nThe first line contains an integer n (1 ≤ n ≤ %d). The second line contains n integers a_1, …, a_n (|a_i| ≤ %d).\n\nOutput\n\nPrint one integer: a_1 + … + a_n.",
				bounds(big, 10, 100), bounds(big, 1000, 1000000000))
		},
		gen: func(rng *rand.Rand, big int) test {
			v := ints(rng, 1+rng.IntN(bounds(big, 10, 100)), bounds(big, 1000, 1000000000))
			s := 0
			for _, x := range v {
				s += x
			}
			return test{fmt.Sprintf("%d\n%s\n", len(v), join(v)), fmt.Sprintf("%d\n", s)}
		},
	},
	{
		title: "Reverse a String",
		statement: func(big int) string {
			return fmt.Sprintf("Print the given string backwards.\n\nInput\n\nOne line holding a string s of 1 to %d lowercase English letters.\n\nOutput\n\nPrint s reversed.", bounds(big, 20, 200))
		},
		gen: func(rng *rand.Rand, big int) test {
			s := []byte(word(rng, 1, bounds(big, 20, 200), lower))
			in := string(s) + "\n"
			slices.Reverse(s)
			return test{in, string(s) + "\n"}
		},
	},
	{
		title: "Count the Words",
		statement: func(big int) string {
			return fmt.Sprintf("A line of text holds words made of lowercase letters, separated by one or more spaces. How many words are there?\n\nInput\n\nOne line of at most %d characters with at least one word.\n\nOutput\n\nPrint the number of words.", bounds(big, 80, 1000))
		},
		gen: func(rng *rand.Rand, big int) test {
			n := 1 + rng.IntN(bounds(big, 10, 120))
			var b strings.Builder
			for i := range n {
				if i > 0 {
					b.WriteString(strings.Repeat(" ", 1+rng.IntN(2)))
				}
				b.WriteString(word(rng, 1, 6, lower))
			}
			return test{b.String() + "\n", fmt.Sprintf("%d\n", n)}
		},
	},
	{
		title: "Largest Number",
		statement: func(big int) string {
			return fmt.Sprintf("Find the largest of n integers.\n\nInput\n\nThe first line contains n (1 ≤ n ≤ %d), the second n integers of absolute value at most %d.\n\nOutput\n\nPrint the largest of them.", bounds(big, 10, 200), bounds(big, 100, 1000000))
		},
		gen: func(rng *rand.Rand, big int) test {
			v := ints(rng, 1+rng.IntN(bounds(big, 10, 200)), bounds(big, 100, 1000000))
			return test{fmt.Sprintf("%d\n%s\n", len(v), join(v)), fmt.Sprintf("%d\n", slices.Max(v))}
		},
	},
	{
		title: "Count Vowels",
		statement: func(big int) string {
			return fmt.Sprintf("Count the vowels (a, e, i, o, u) in a word.\n\nInput\n\nOne line with a word of 1 to %d lowercase letters.\n\nOutput\n\nPrint the number of vowels.", bounds(big, 30, 300))
		},
		gen: func(rng *rand.Rand, big int) test {
			s := word(rng, 1, bounds(big, 30, 300), lower)
			n := 0
			for _, c := range s {
				if strings.ContainsRune("aeiou", c) {
					n++
				}
			}
			return test{s + "\n", fmt.Sprintf("%d\n", n)}
		},
	},
	{
		title: "FizzBuzz",
		statement: func(big int) string {
			return fmt.Sprintf("For every i from 1 to n print one line: FizzBuzz if i is divisible by 15, Fizz if by 3, Buzz if by 5, and i itself otherwise.\n\nInput\n\nOne integer n (1 ≤ n ≤ %d).\n\nOutput\n\nPrint n lines.", bounds(big, 20, 100))
		},
		gen: func(rng *rand.Rand, big int) test {
			n := 1 + rng.IntN(bounds(big, 20, 100))
			var b strings.Builder
			for i := 1; i <= n; i++ {
				switch {
				case i%15 == 0:
					b.WriteString("FizzBuzz\n")
				case i%3 == 0:
					b.WriteString("Fizz\n")
				case i%5 == 0:
					b.WriteString("Buzz\n")
				default:
					fmt.Fprintf(&b, "%d\n", i)
				}
			}
			return test{fmt.Sprintf("%d\n", n), b.String()}
		},
	},
	{
		title: "Sort the Numbers",
		statement: func(big int) string {
			return fmt.Sprintf("Sort n integers in non-decreasing order.\n\nInput\n\nThe first line contains n (1 ≤ n ≤ %d), the second line n integers of absolute value at most %d.\n\nOutput\n\nPrint the sorted integers on one line, separated by spaces.", bounds(big, 10, 100), bounds(big, 50, 100000))
		},
		gen: func(rng *rand.Rand, big int) test {
			v := ints(rng, 1+rng.IntN(bounds(big, 10, 100)), bounds(big, 50, 100000))
			in := fmt.Sprintf("%d\n%s\n", len(v), join(v))
			slices.Sort(v)
			return test{in, join(v) + "\n"}
		},
	},
	{
		title: "Palindrome Check",
		statement: func(big int) string {
			return fmt.Sprintf("Does a word read the same forwards and backwards?\n\nInput\n\nOne line with a word of 1 to %d lowercase letters.\n\nOutput\n\nPrint YES if it is a palindrome and NO otherwise.", bounds(big, 20, 400))
		},
		gen: func(rng *rand.Rand, big int) test {
			half := []byte(word(rng, 1, bounds(big, 10, 200), "abc"))
			s := slices.Clone(half)
			if rng.IntN(2) == 0 {
				s = s[:len(s)-1] // odd length
			}
			r := slices.Clone(half)
			slices.Reverse(r)
			s = append(s, r...)
			if rng.IntN(2) == 0 && len(s) > 1 {
				s[rng.IntN(len(s))] = 'z' // usually breaks the symmetry
			}
			t := slices.Clone(s)
			slices.Reverse(t)
			ans := "NO"
			if bytes.Equal(s, t) {
				ans = "YES"
			}
			return test{string(s) + "\n", ans + "\n"}
		},
	},
	{
		title: "Greatest Common Divisor",
		statement: func(big int) string {
			return fmt.Sprintf("Compute the greatest common divisor of two positive integers.\n\nInput\n\nOne line with two integers a and b (1 ≤ a, b ≤ %d).\n\nOutput\n\nPrint gcd(a, b).", bounds(big, 1000, 1000000000))
		},
		gen: func(rng *rand.Rand, big int) test {
			lim := bounds(big, 1000, 1000000000)
			g := 1 + rng.IntN(lim/50)
			a, b := g*(1+rng.IntN(50)), g*(1+rng.IntN(50))
			return test{fmt.Sprintf("%d %d\n", a, b), fmt.Sprintf("%d\n", gcd(a, b))}
		},
	},
	{
		title: "Digit Sum",
		statement: func(big int) string {
			return fmt.Sprintf("Add up the decimal digits of a positive integer.\n\nInput\n\nOne positive integer with at most %d digits and no leading zeros.\n\nOutput\n\nPrint the sum of its digits.", bounds(big, 18, 500))
		},
		gen: func(rng *rand.Rand, big int) test {
			s := word(rng, 1, 1, "123456789") + word(rng, 0, bounds(big, 17, 499), "0123456789")
			sum := 0
			for _, c := range s {
				sum += int(c - '0')
			}
			return test{s + "\n", fmt.Sprintf("%d\n", sum)}
		},
	},
	{
		title: "A Plus B, Many Times",
		statement: func(big int) string {
			return fmt.Sprintf("Answer t questions: what is a + b?\n\nInput\n\nThe first line contains t (1 ≤ t ≤ %d). Each of the next t lines contains two integers a and b (|a|, |b| ≤ %d).\n\nOutput\n\nFor each question print a + b on its own line.", bounds(big, 5, 50), bounds(big, 100, 1000000000))
		},
		gen: func(rng *rand.Rand, big int) test {
			t := 1 + rng.IntN(bounds(big, 5, 50))
			lim := bounds(big, 100, 1000000000)
			var in, out strings.Builder
			fmt.Fprintf(&in, "%d\n", t)
			for range t {
				v := ints(rng, 2, lim)
				fmt.Fprintf(&in, "%d %d\n", v[0], v[1])
				fmt.Fprintf(&out, "%d\n", v[0]+v[1])
			}
			return test{in.String(), out.String()}
		},
	},
	{
		title: "Count Distinct Values",
		statement: func(big int) string {
			return fmt.Sprintf("How many different values are among n integers?\n\nInput\n\nThe first line contains n (1 ≤ n ≤ %d), the second line n integers between 1 and %d.\n\nOutput\n\nPrint the number of distinct values.", bounds(big, 12, 150), bounds(big, 10, 100))
		},
		gen: func(rng *rand.Rand, big int) test {
			v := make([]int, 1+rng.IntN(bounds(big, 12, 150)))
			set := map[int]bool{}
			for i := range v {
				v[i] = 1 + rng.IntN(bounds(big, 10, 100))
				set[v[i]] = true
			}
			return test{fmt.Sprintf("%d\n%s\n", len(v), join(v)), fmt.Sprintf("%d\n", len(set))}
		},
	},
}
