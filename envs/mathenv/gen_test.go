package mathenv

// The generator of the shipped samples (samples/*.jsonl). Every problem is
// drawn from a seeded generator and its answer computed exactly (math/big);
// each item also carries an expression of the problem's own numbers that
// mathcheck must find equal to the answer (a second, independent computation),
// the answer in other equivalent forms, and near misses. TestSamples checks
// that the committed files are what the generator writes (rewrite them with
// -update) and plays every form through the env.

import (
	"fmt"
	"hash/fnv"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
)

// item is one sample row plus what the tests know about it.
type item struct {
	Problem string `json:"problem"`
	Answer  string `json:"answer"`
	Kind    string `json:"kind"`

	expr  string   // evaluates to the answer from the problem's numbers; "" when there is none
	alts  []string // the answer in other forms: each must score 1
	wrong []string // near misses: each must score 0
}

// instruction ends every sample question. GEM's env adds none; the real
// datasets' questions may or may not carry one.
const instruction = " Put your final answer within \\boxed{}."

type kind struct {
	name string
	gen  func(rng *rand.Rand) item
}

// sampleRows is the size of every sample.
const sampleRows = 32

// sampleKinds is each sample's mix, in the flavour of the dataset it stands
// for; row i is of kind i mod len(mix).
var sampleKinds = map[string][]kind{
	"asdiv2k.jsonl":       {{"word_add", wordAdd}, {"word_sub", wordSub}, {"word_div", wordDiv}, {"word_mul", wordMul}},
	"gsm8k.jsonl":         {{"word_packs", wordPacks}, {"word_shop", wordShop}, {"word_reading", wordReading}, {"word_wage", wordWage}, {"word_tank", wordTank}},
	"math12k.jsonl":       {{"fraction", fraction}, {"linear", linear}, {"expand", expand}, {"percent", percent}, {"quadratic", quadratic}, {"interval", interval}, {"sqrt", sqrtSimplify}, {"function", function}, {"lcm", lcm(60)}, {"power", powerFraction}},
	"math8k-3to5.jsonl":   {{"linear", linear}, {"quadratic", quadratic}, {"interval", interval}, {"sqrt", sqrtSimplify}, {"expand", expand}, {"power", powerFraction}, {"pair", pair}, {"series", series(10000)}},
	"orz57k.jsonl":        {{"word_packs", wordPacks}, {"fraction", fraction}, {"linear", linear}, {"modpow", modPow}, {"choose", choose(1 << 20)}, {"system", system}, {"decimal", decimalRope}},
	"deepscaler40k.jsonl": {{"modpow", modPow}, {"choose", choose(1 << 20)}, {"system", system}, {"quadratic", quadratic}, {"sqrt", sqrtSimplify}, {"series", series(10000)}, {"pair", pair}},
	"math500.jsonl":       {{"fraction", fraction}, {"linear", linear}, {"expand", expand}, {"quadratic", quadratic}, {"interval", interval}, {"sqrt", sqrtSimplify}, {"percent", percent}, {"function", function}, {"pair", pair}, {"power", powerFraction}},
	"amc.jsonl":           {{"choose", choose(1 << 20)}, {"series", series(10000)}, {"function", function}, {"lcm", lcm(60)}, {"fraction", fraction}, {"system", system}},
	"olympiadbench.jsonl": {{"pair", pair}, {"quadratic", quadratic}, {"sqrt", sqrtSimplify}, {"expand", expand}, {"interval", interval}, {"system", system}},
	"minerva.jsonl":       {{"decimal_rope", decimalRope}, {"decimal_speed", decimalSpeed}, {"decimal_product", decimalProduct}, {"decimal_energy", decimalEnergy}},
	"aime24.jsonl":        {{"modpow", modPow}, {"choose", choose(999)}, {"series", series(999)}, {"lcm", lcm(40)}},
}

// generate draws a sample's items, seeded by its file name.
func generate(file string) []item {
	h := fnv.New64a()
	h.Write([]byte(file))
	rng := envs.NewRand(h.Sum64())
	mix := sampleKinds[file]
	items := make([]item, 0, sampleRows)
	seen := map[string]bool{}
	for len(items) < sampleRows {
		k := mix[len(items)%len(mix)]
		it := k.gen(rng)
		if seen[it.Problem] {
			continue
		}
		seen[it.Problem] = true
		it.Kind = k.name
		it.Problem += instruction
		items = append(items, it)
	}
	return items
}

var (
	names  = []string{"Maya", "Liam", "Aisha", "Noah", "Sofia", "Kenji", "Elena", "Omar", "Priya", "Lucas", "Zara", "Mateo"}
	things = []string{"apples", "stickers", "marbles", "pencils", "books", "cookies", "stamps", "shells"}
)

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

// between draws an integer in [lo, hi].
func between(rng *rand.Rand, lo, hi int) int { return lo + rng.IntN(hi-lo+1) }

// nonzero draws an integer in [-m, m] other than 0.
func nonzero(rng *rand.Rand, m int) int {
	for {
		if v := between(rng, -m, m); v != 0 {
			return v
		}
	}
}

// integer answers: the text, and forms and misses every integer shares.
func integer(n int64) (string, []string, []string) {
	s := strconv.FormatInt(n, 10)
	return s, []string{s + ".0", `\text{` + s + `}`, "x = " + s}, []string{strconv.FormatInt(n+1, 10), strconv.FormatInt(n*10+1, 10)}
}

func intItem(problem string, n int64, expr string, moreAlts ...string) item {
	ans, alts, wrong := integer(n)
	return item{Problem: problem, Answer: ans, expr: expr, alts: append(alts, moreAlts...), wrong: wrong}
}

// ---- word problems (ASDiv, GSM8K) ----

func wordAdd(rng *rand.Rand) item {
	n, t := pick(rng, names), pick(rng, things)
	a, b := between(rng, 5, 60), between(rng, 3, 40)
	return intItem(fmt.Sprintf("%s has %d %s. %s gets %d more %s. How many %s does %s have now?", n, a, t, n, b, t, t, n),
		int64(a+b), fmt.Sprintf("%d+%d", a, b), fmt.Sprintf(`%d\text{ %s}`, a+b, t))
}

func wordSub(rng *rand.Rand) item {
	n, t := pick(rng, names), pick(rng, things)
	a := between(rng, 20, 99)
	b := between(rng, 1, a-1)
	return intItem(fmt.Sprintf("%s had %d %s and gave %d of them to a friend. How many %s does %s have left?", n, a, t, b, t, n),
		int64(a-b), fmt.Sprintf("%d-%d", a, b))
}

func wordDiv(rng *rand.Rand) item {
	t := pick(rng, things)
	b, k := between(rng, 2, 9), between(rng, 2, 15)
	return intItem(fmt.Sprintf("%d %s are shared equally among %d children. How many %s does each child get?", b*k, t, b, t),
		int64(k), fmt.Sprintf("%d/%d", b*k, b))
}

func wordMul(rng *rand.Rand) item {
	t := pick(rng, things)
	a, b := between(rng, 6, 48), between(rng, 3, 25)
	return intItem(fmt.Sprintf("Each box holds %d %s. How many %s are there in %d boxes?", a, t, t, b),
		int64(a*b), fmt.Sprintf(`%d \times %d`, a, b))
}

func wordPacks(rng *rand.Rand) item {
	n, t := pick(rng, names), pick(rng, things)
	p, q := between(rng, 3, 12), between(rng, 6, 24)
	r, s := between(rng, 1, p*q-1), between(rng, 1, 30)
	return intItem(fmt.Sprintf("%s buys %d packs of %s with %d %s in each pack, gives %d %s to friends, and then buys %d more %s. How many %s does %s have now?",
		n, p, t, q, t, r, t, s, t, t, n), int64(p*q-r+s), fmt.Sprintf("%d*%d-%d+%d", p, q, r, s))
}

func wordShop(rng *rand.Rand) item {
	a, b := between(rng, 2, 6), between(rng, 3, 9)
	m, c := between(rng, 10, 80), between(rng, 5, 40)
	return intItem(fmt.Sprintf("A bakery sells muffins for $%d each and loaves of bread for $%d each. On Saturday it sells %d muffins and %d loaves. How many dollars does it take in?",
		a, b, m, c), int64(a*m+b*c), fmt.Sprintf("%d*%d+%d*%d", a, m, b, c), fmt.Sprintf(`\$%d`, a*m+b*c), fmt.Sprintf("%d dollars", a*m+b*c))
}

func wordReading(rng *rand.Rand) item {
	n := pick(rng, names)
	p, q, w := between(rng, 5, 30), between(rng, 10, 60), between(rng, 2, 6)
	return intItem(fmt.Sprintf("%s reads %d pages on each weekday and %d pages on each day of the weekend. How many pages does %s read in %d weeks?", n, p, q, n, w),
		int64(w*(5*p+2*q)), fmt.Sprintf("%d(5 \\cdot %d + 2 \\cdot %d)", w, p, q))
}

func wordWage(rng *rand.Rand) item {
	n := pick(rng, names)
	h, d, k := between(rng, 9, 25), between(rng, 3, 8), between(rng, 2, 6)
	s := between(rng, 10, h*d*k-1)
	return intItem(fmt.Sprintf("%s earns $%d an hour and works %d hours a day for %d days, then spends $%d on a bicycle. How many dollars of these earnings does %s have left?",
		n, h, d, k, s, n), int64(h*d*k-s), fmt.Sprintf("%d*%d*%d-%d", h, d, k, s))
}

func wordTank(rng *rand.Rand) item {
	capacity, full := 20*between(rng, 5, 100), 5*between(rng, 1, 19)
	return intItem(fmt.Sprintf("A water tank holds %d litres and is %d%% full. How many more litres are needed to fill it?", capacity, full),
		int64(capacity*(100-full)/100), fmt.Sprintf(`%d - \frac{%d}{100} \cdot %d`, capacity, full, capacity))
}

// ---- rationals ----

func rat(p, q int64) *big.Rat { return big.NewRat(p, q) }

func gcd(a, b int64) int64 { return new(big.Int).GCD(nil, nil, big.NewInt(a), big.NewInt(b)).Int64() }

// tex writes r as an integer or a signed \frac.
func tex(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	sign, num := "", new(big.Int).Set(r.Num())
	if num.Sign() < 0 {
		sign = "-"
		num.Neg(num)
	}
	return fmt.Sprintf(`%s\frac{%s}{%s}`, sign, num, r.Denom())
}

// slash writes r as p/q.
func slash(r *big.Rat) string { return r.RatString() }

// decimal writes r in positional notation when its expansion terminates.
func decimal(r *big.Rat) (string, bool) {
	q := new(big.Int).Set(r.Denom())
	twos, fives := 0, 0
	two, five, zero := big.NewInt(2), big.NewInt(5), new(big.Int)
	for m := new(big.Int); m.Mod(q, two).Cmp(zero) == 0; {
		q.Quo(q, two)
		twos++
	}
	for m := new(big.Int); m.Mod(q, five).Cmp(zero) == 0; {
		q.Quo(q, five)
		fives++
	}
	if q.Cmp(big.NewInt(1)) != 0 {
		return "", false
	}
	return r.FloatString(max(twos, fives)), true
}

// ratItem is an item whose answer is the rational r, written with tex.
func ratItem(problem string, r *big.Rat, expr string) item {
	it := item{Problem: problem, Answer: tex(r), expr: expr}
	one := big.NewRat(1, 1)
	if r.IsInt() {
		_, it.alts, _ = integer(r.Num().Int64())
	} else {
		it.alts = []string{slash(r), strings.Replace(tex(r), `\frac`, `\dfrac`, 1)}
		if d, ok := decimal(r); ok {
			it.alts = append(it.alts, d)
		}
		if r.Sign() > 0 && r.Cmp(one) > 0 { // a mixed number: 2\frac{1}{3}
			whole := new(big.Int).Quo(r.Num(), r.Denom())
			rest := new(big.Rat).Sub(r, new(big.Rat).SetInt(whole))
			it.alts = append(it.alts, whole.String()+tex(rest))
		}
	}
	it.wrong = append(it.wrong, tex(new(big.Rat).Add(r, one)))
	if r.Sign() != 0 {
		it.wrong = append(it.wrong, tex(new(big.Rat).Neg(r)))
	}
	if !r.IsInt() {
		it.wrong = append(it.wrong, tex(new(big.Rat).Inv(r)))
	}
	return it
}

// ---- algebra and arithmetic (MATH, competitions) ----

func fraction(rng *rand.Rand) item {
	for {
		b, d := int64(between(rng, 2, 12)), int64(between(rng, 2, 12))
		a, c := int64(between(rng, 1, int(b)-1)), int64(between(rng, 1, int(d)-1))
		if gcd(a, b) != 1 || gcd(c, d) != 1 {
			continue // operands in lowest terms, as a textbook writes them
		}
		x, y := rat(a, b), rat(c, d)
		var r *big.Rat
		op := rng.IntN(3)
		sym := []string{"+", "-", `\times`}[op]
		switch op {
		case 0:
			r = new(big.Rat).Add(x, y)
		case 1:
			r = new(big.Rat).Sub(x, y)
		default:
			r = new(big.Rat).Mul(x, y)
		}
		if r.IsInt() {
			continue
		}
		e := fmt.Sprintf(`\frac{%d}{%d} %s \frac{%d}{%d}`, a, b, sym, c, d)
		return ratItem(fmt.Sprintf("Compute $%s$. Express your answer as a common fraction in lowest terms.", e), r, e)
	}
}

// linearTerm writes k·v ("3x", "x", "-x") or a constant (v == "").
func linearTerm(k int, v string) string {
	switch {
	case v == "":
		return strconv.Itoa(k)
	case k == 1:
		return v
	case k == -1:
		return "-" + v
	}
	return strconv.Itoa(k) + v
}

// poly writes the sum of coefficient·monomial terms, skipping zeros, with
// signs as a person writes them ("2x^2 - x + 3").
func poly(coefs []int, monos []string) string {
	var b strings.Builder
	for i, k := range coefs {
		if k == 0 {
			continue
		}
		t := linearTerm(k, monos[i])
		switch {
		case b.Len() == 0:
			b.WriteString(t)
		case k < 0:
			b.WriteString(" - " + strings.TrimPrefix(t, "-"))
		default:
			b.WriteString(" + " + t)
		}
	}
	if b.Len() == 0 {
		return "0"
	}
	return b.String()
}

func linear(rng *rand.Rand) item {
	for {
		a, c := nonzero(rng, 9), nonzero(rng, 9)
		if a == c {
			continue
		}
		b, num := nonzero(rng, 20), nonzero(rng, 30)
		d := num + b
		r := rat(int64(num), int64(a-c))
		it := ratItem(fmt.Sprintf("Solve for $x$: $%s = %s$.", poly([]int{a, b}, []string{"x", ""}), poly([]int{c, d}, []string{"x", ""})),
			r, fmt.Sprintf(`\frac{(%d)-(%d)}{(%d)-(%d)}`, d, b, a, c))
		it.alts = append(it.alts, "x = "+it.Answer, "x="+slash(r))
		return it
	}
}

func expand(rng *rand.Rand) item {
	a, c := nonzero(rng, 4), between(rng, 1, 5)
	b, d := nonzero(rng, 9), nonzero(rng, 9)
	coefs := []int{a * c, a*d + b*c, b * d}
	monos := []string{"x^2", "x", ""}
	left, right := poly([]int{a, b}, []string{"x", ""}), poly([]int{c, d}, []string{"x", ""})
	rev := poly([]int{coefs[2], coefs[1], coefs[0]}, []string{"", "x", "x^2"})
	return item{
		Problem: fmt.Sprintf("Expand $(%s)(%s)$.", left, right),
		Answer:  poly(coefs, monos),
		expr:    fmt.Sprintf("(%s)(%s)", left, right),
		alts:    []string{rev, strings.ReplaceAll(poly(coefs, []string{"x^{2}", "x", ""}), " ", "")},
		wrong: []string{
			poly([]int{coefs[0], coefs[1], coefs[2] + 1}, monos),
			poly([]int{coefs[0], -coefs[1] + 1, coefs[2]}, monos),
			poly([]int{coefs[0], coefs[1], coefs[2]}, []string{"x^3", "x", ""}),
		},
	}
}

func percent(rng *rand.Rand) item {
	ps := []string{"5", "10", "12.5", "15", "20", "25", "30", "35", "40", "45", "60", "75", "80", "120", "150"}
	p := pick(rng, ps)
	n := between(rng, 8, 400)
	pr, _ := new(big.Rat).SetString(p)
	r := new(big.Rat).Mul(pr, rat(int64(n), 100))
	ans, _ := decimal(r)
	it := item{
		Problem: fmt.Sprintf(`What is $%s\%%$ of $%d$?`, p, n),
		Answer:  ans,
		expr:    fmt.Sprintf(`\frac{%s}{100} \cdot %d`, p, n),
		alts:    []string{ans + "0", tex(r)},
		wrong:   []string{tex(new(big.Rat).Add(r, big.NewRat(1, 1))), tex(new(big.Rat).Mul(pr, rat(int64(n), 1)))},
	}
	if !strings.Contains(ans, ".") {
		it.alts[0] = ans + ".00"
	}
	return it
}

func quadratic(rng *rand.Rand) item {
	r1, r2 := between(rng, -9, 9), between(rng, -9, 9)
	for r1 == r2 {
		r2 = between(rng, -9, 9)
	}
	r1, r2 = min(r1, r2), max(r1, r2)
	s, p := -(r1 + r2), r1*r2
	roots := fmt.Sprintf("%d, %d", r1, r2)
	it := item{
		Problem: fmt.Sprintf("Find all real solutions of $%s = 0$. Enter the solutions separated by commas.", poly([]int{1, s, p}, []string{"x^2", "x", ""})),
		Answer:  roots,
		expr: fmt.Sprintf(`\frac{-(%d)-\sqrt{(%d)^2-4(%d)}}{2}, \frac{-(%d)+\sqrt{(%d)^2-4(%d)}}{2}`,
			s, s, p, s, s, p),
		alts:  []string{fmt.Sprintf("%d, %d", r2, r1), fmt.Sprintf(`\{%d, %d\}`, r1, r2), fmt.Sprintf(`x = %d \text{ or } x = %d`, r1, r2)},
		wrong: []string{strconv.Itoa(r1), fmt.Sprintf("(%d, %d)", r1, r2), fmt.Sprintf("%d, %d", r1, r2+1)},
	}
	return it
}

func interval(rng *rand.Rand) item {
	a, b, c := nonzero(rng, 9), nonzero(rng, 20), between(rng, -20, 20)
	for a == 1 || a == -1 {
		a = nonzero(rng, 9)
	}
	r := rat(int64(c-b), int64(a))
	op, closed := ">", false
	if rng.IntN(2) == 0 {
		op, closed = `\ge`, true
	}
	// a·x op c−b: dividing by a negative a flips the inequality.
	above := a > 0
	form := func(closed, above bool, e string) string {
		lo, hi := "(", ")"
		if closed {
			lo, hi = "[", "]"
		}
		if above {
			return lo + e + `, \infty)`
		}
		return `(-\infty, ` + e + hi
	}
	ans := form(closed, above, tex(r))
	it := item{
		Problem: fmt.Sprintf("Solve the inequality $%s %s %d$. Express your answer in interval notation.", poly([]int{a, b}, []string{"x", ""}), op, c),
		Answer:  ans,
		expr:    form(closed, above, fmt.Sprintf(`\frac{(%d)-(%d)}{%d}`, c, b, a)),
		alts:    []string{strings.ReplaceAll(ans, " ", ""), `\left` + ans[:len(ans)-1] + `\right` + ans[len(ans)-1:]},
		wrong:   []string{form(closed, !above, tex(r)), form(!closed, above, tex(r))},
	}
	if d, ok := decimal(r); ok {
		it.alts = append(it.alts, form(closed, above, d))
	}
	return it
}

func sqrtSimplify(rng *rand.Rand) item {
	a := between(rng, 2, 9)
	b := pick(rng, []int{2, 3, 5, 6, 7, 10, 11, 13, 14, 15})
	ans := fmt.Sprintf(`%d\sqrt{%d}`, a, b)
	it := item{
		Problem: fmt.Sprintf(`Simplify $\sqrt{%d}$.`, a*a*b),
		Answer:  ans,
		expr:    fmt.Sprintf(`\sqrt{%d}`, a*a*b),
		alts:    []string{fmt.Sprintf(`\sqrt{%d} \cdot %d`, b, a), fmt.Sprintf(`%d \times \sqrt{%d}`, a, b)},
		wrong:   []string{fmt.Sprintf(`%d\sqrt{%d}`, a, b+1), fmt.Sprintf(`%d\sqrt{%d}`, a+1, b)},
	}
	if b < 10 {
		it.alts = append(it.alts, fmt.Sprintf(`%d\sqrt %d`, a, b))
	} else { // TeX takes one token: \sqrt 10 is \sqrt{1}0
		it.wrong = append(it.wrong, fmt.Sprintf(`%d\sqrt %d`, a, b))
	}
	if a != b {
		it.wrong = append(it.wrong, fmt.Sprintf(`%d\sqrt{%d}`, b, a))
	}
	return it
}

func function(rng *rand.Rand) item {
	a, b, c, k := nonzero(rng, 6), between(rng, -9, 9), between(rng, -15, 15), nonzero(rng, 6)
	f := poly([]int{a, b, c}, []string{"x^2", "x", ""})
	return intItem(fmt.Sprintf("If $f(x) = %s$, what is $f(%d)$?", f, k),
		int64(a*k*k+b*k+c), fmt.Sprintf("%d(%d)^2 + (%d)(%d) + (%d)", a, k, b, k, c))
}

func powerFraction(rng *rand.Rand) item {
	for {
		a, b := int64(between(rng, 2, 9)), int64(between(rng, 2, 9))
		if gcd(a, b) != 1 {
			continue
		}
		e := fmt.Sprintf(`\left(\frac{%d}{%d}\right)^{-2}`, a, b)
		return ratItem(fmt.Sprintf("Evaluate $%s$. Express your answer as a common fraction.", e), rat(b*b, a*a), e)
	}
}

func pair(rng *rand.Rand) item {
	for {
		x, y := between(rng, -9, 9), between(rng, -9, 9)
		a, b, c, d := nonzero(rng, 6), nonzero(rng, 6), nonzero(rng, 6), nonzero(rng, 6)
		det := a*d - b*c
		if det == 0 || x == y {
			continue
		}
		e, f := a*x+b*y, c*x+d*y
		ans := fmt.Sprintf("(%d, %d)", x, y)
		return item{
			Problem: fmt.Sprintf("Find the ordered pair $(x, y)$ that satisfies $%s = %d$ and $%s = %d$.",
				poly([]int{a, b}, []string{"x", "y"}), e, poly([]int{c, d}, []string{"x", "y"}), f),
			Answer: ans,
			expr: fmt.Sprintf(`\left(\frac{(%d)(%d) - (%d)(%d)}{%d}, \frac{(%d)(%d) - (%d)(%d)}{%d}\right)`,
				e, d, b, f, det, a, f, e, c, det),
			alts:  []string{strings.ReplaceAll(ans, " ", ""), `\left` + strings.Replace(ans, ")", `\right)`, 1)},
			wrong: []string{fmt.Sprintf("(%d, %d)", y, x), fmt.Sprintf("%d, %d", x, y), fmt.Sprintf("(%d, %d)", x, y+1)},
		}
	}
}

func system(rng *rand.Rand) item {
	for {
		x, y := between(rng, -15, 15), between(rng, -15, 15)
		if x == y || x*y == x+y {
			continue
		}
		s, d := x+y, x-y
		it := intItem(fmt.Sprintf("Real numbers $x$ and $y$ satisfy $x + y = %d$ and $x - y = %d$. What is $xy$?", s, d),
			int64(x*y), fmt.Sprintf(`\frac{(%d)+(%d)}{2} \cdot \frac{(%d)-(%d)}{2}`, s, d, s, d))
		it.wrong = append(it.wrong, strconv.Itoa(x+y))
		return it
	}
}

func series(limit int) func(*rand.Rand) item {
	return func(rng *rand.Rand) item {
		for {
			a, d, k := between(rng, 1, 12), between(rng, 2, 9), between(rng, 5, 40)
			last := a + (k-1)*d
			sum := k * (a + last) / 2
			if sum > limit {
				continue
			}
			return intItem(fmt.Sprintf(`What is the sum of the arithmetic sequence $%d, %d, %d, \ldots, %d$?`, a, a+d, a+2*d, last),
				int64(sum), fmt.Sprintf(`\frac{(\frac{%d-%d}{%d}+1)(%d+%d)}{2}`, last, a, d, a, last))
		}
	}
}

func choose(limit int64) func(*rand.Rand) item {
	return func(rng *rand.Rand) item {
		for {
			n := int64(between(rng, 6, 20))
			k := int64(between(rng, 2, int(n)-2))
			c := new(big.Int).Binomial(n, k).Int64()
			if c > limit {
				continue
			}
			perm := new(big.Int).Div(new(big.Int).MulRange(1, n), new(big.Int).MulRange(1, n-k)).Int64()
			it := intItem(fmt.Sprintf("In how many ways can a committee of %d people be chosen from a group of %d people?", k, n),
				c, fmt.Sprintf(`\binom{%d}{%d}`, n, k), fmt.Sprintf(`\binom{%d}{%d}`, n, n-k))
			it.wrong = append(it.wrong, strconv.FormatInt(perm, 10))
			return it
		}
	}
}

func lcm(maxN int) func(*rand.Rand) item {
	return func(rng *rand.Rand) item {
		for {
			a, b := int64(between(rng, 4, maxN)), int64(between(rng, 4, maxN))
			g := gcd(a, b)
			if a == b || g == 1 {
				continue // coprime pairs make the answer a·b, too easy to guess
			}
			it := intItem(fmt.Sprintf("What is the least common multiple of %d and %d?", a, b), a*b/g, "")
			it.wrong = append(it.wrong, strconv.FormatInt(a*b, 10), strconv.FormatInt(g, 10))
			return it
		}
	}
}

func modPow(rng *rand.Rand) item {
	b, e := int64(between(rng, 2, 19)), int64(between(rng, 20, 120))
	if b%10 == 0 {
		b++
	}
	m := big.NewInt(1000)
	r := new(big.Int).Exp(big.NewInt(b), big.NewInt(e), m).Int64()
	it := intItem(fmt.Sprintf("Find the remainder when $%d^{%d}$ is divided by $1000$.", b, e),
		r, fmt.Sprintf(`%d^{%d} - 1000\left\lfloor \frac{%d^{%d}}{1000} \right\rfloor`, b, e, b, e), fmt.Sprintf("%03d", r))
	it.wrong = append(it.wrong, strconv.FormatInt((r+500)%1000, 10))
	return it
}

// ---- decimals (Minerva) ----

// tenths draws a decimal with one place in [lo, hi] tenths.
func tenths(rng *rand.Rand, lo, hi int) *big.Rat { return rat(int64(between(rng, lo, hi)), 10) }

func dec(r *big.Rat) string {
	s, ok := decimal(r)
	if !ok {
		panic("not a terminating decimal: " + r.String())
	}
	return s
}

func decItem(problem string, r *big.Rat, expr string, unit string) item {
	ans := dec(r)
	alts := []string{tex(r), ans + `\text{ ` + unit + `}`}
	if strings.Contains(ans, ".") {
		alts = append(alts, ans+"0")
	}
	return item{Problem: problem, Answer: ans, expr: expr, alts: alts,
		wrong: []string{dec(new(big.Rat).Add(r, rat(1, 10))), dec(new(big.Rat).Mul(r, rat(10, 1)))}}
}

func decimalRope(rng *rand.Rand) item {
	l, n := tenths(rng, 50, 400), pick(rng, []int64{2, 4, 5, 8})
	r := new(big.Rat).Quo(l, rat(n, 1))
	return decItem(fmt.Sprintf("A rope %s m long is cut into %d equal pieces. How long is each piece, in metres?", dec(l), n),
		r, fmt.Sprintf(`\frac{%s}{%d}`, dec(l), n), "m")
}

func decimalSpeed(rng *rand.Rand) item {
	d := tenths(rng, 100, 900)
	t := pick(rng, []*big.Rat{rat(2, 1), rat(5, 2), rat(4, 1), rat(5, 4), rat(8, 5)})
	r := new(big.Rat).Quo(d, t)
	return decItem(fmt.Sprintf("A cyclist covers %s km in %s hours at a steady speed. What is the speed in km/h?", dec(d), dec(t)),
		r, fmt.Sprintf(`\frac{%s}{%s}`, dec(d), dec(t)), "km/h")
}

func decimalProduct(rng *rand.Rand) item {
	x, y := rat(int64(between(rng, 101, 999)), 100), rat(int64(between(rng, 11, 99)), 10)
	r := new(big.Rat).Mul(x, y)
	return decItem(fmt.Sprintf(`A current of %s A flows through a resistance of %s $\Omega$. What is the voltage across it, in volts?`, dec(x), dec(y)),
		r, fmt.Sprintf(`%s \times %s`, dec(x), dec(y)), "V")
}

func decimalEnergy(rng *rand.Rand) item {
	m, v := tenths(rng, 5, 80), tenths(rng, 10, 120)
	r := new(big.Rat).Mul(rat(1, 2), new(big.Rat).Mul(m, new(big.Rat).Mul(v, v)))
	return decItem(fmt.Sprintf(`A %s kg cart moves at %s m/s. What is its kinetic energy $\frac{1}{2}mv^2$, in joules?`, dec(m), dec(v)),
		r, fmt.Sprintf(`\frac{1}{2} \cdot %s \cdot %s^2`, dec(m), dec(v)), "J")
}

// sampleFiles lists the samples in a fixed order.
func sampleFiles() []string {
	var files []string
	for f := range sampleKinds {
		files = append(files, f)
	}
	slices.Sort(files)
	return files
}
