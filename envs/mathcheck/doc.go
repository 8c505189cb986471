// Package mathcheck decides whether a model's final math answer equals the
// ground truth, for Quarry's math environments (GEM's MathEnv and its eval
// sets: MATH500, AIME, GSM8K …).
//
// # GEM's rule
//
// GEM (gem/envs/math_env.py, gem/utils/math_grader.py) takes the content of
// the last \boxed{…} of the response (extract_answer; no \boxed, or a
// malformed last one, gives no answer) and grades it against each ground
// truth with grade(…, fast=False): Hendrycks' MATH normaliser compared as
// strings ("mathd"), OR sympy simplification of the difference after
// normalisation, OR math_verify, under a 1 s timeout (a timeout counts as
// wrong). The reward is 1 for correct, 0 otherwise. With
// use_format_error_reward=True a response with no extractable answer gets
// -0.1 instead of 0 (FormatPenalty); in either case the episode ends.
// A ground truth that contains \boxed is reduced to its boxed content.
//
// # This implementation
//
// Score and Equivalent follow that rule with one grader written in Go:
//
//  1. Both answers are normalised (Normalize) and compared as text,
//     case-insensitively when there is no LaTeX command (GEM lower-cases too).
//  2. Each is parsed into a structure: a set (\{…\}, a bare list "1, 2", or a
//     union of sets; order-insensitive), a tuple or interval ((1,2], [0,\infty);
//     ordered, brackets must match), a union of intervals (order-insensitive),
//     a matrix (pmatrix/bmatrix/array), a relation (x + y = 5, 1 < x \le 3),
//     or a scalar expression. A single leading assignment (x = 5, \theta = …,
//     f(x) = …, (x, y) = …, x \in [0,1]) is dropped. 1 \pm \sqrt2 is the list 1+\sqrt2, 1-\sqrt2.
//  3. Scalars are parsed by a recursive-descent parser (+ - * / ^, implicit
//     multiplication, \cdot \times \div, \frac \sqrt[n] \binom, |x|, floor and
//     ceiling, n!, \sin … \ln \log_b \exp, Greek and subscripted variables)
//     and evaluated. Arithmetic is exact on rationals (big.Rat), so 1/3 and
//     0.333333 differ and 123456789 and 123456788 differ; anything irrational
//     continues in complex128 and is compared with relative tolerance RelTol
//     (default 1e-6) plus an absolute 1e-10. So 2\pi equals 6.2831853 but not
//     6.28, and \sqrt2 equals 1.41421356 but not 1.414.
//  4. Expressions with variables are evaluated at Points (default 6) random
//     rational points from a fixed-seed generator; they are equivalent when
//     they agree at every point where both are defined and at least half the
//     points are usable. Equations match when one side-difference is a
//     non-zero constant multiple of the other (y = 2x+1 matches 2x - y + 1 = 0).
//
// Work is bounded: answers longer than MaxLen bytes, nesting deeper than
// MaxDepth, more than 64 list elements or 12 variables are rejected, exact
// numbers are capped at 4096 bits (then continue as floats), and every
// comparison has a step budget (MaxSteps). This replaces GEM's 1 s wall-clock
// timeout with a deterministic one: the same inputs always get the same
// verdict, on any machine and under any load.
//
// # Decisions
//
//   - Percentages: \% is dropped, as GEM does, so 50\% equals 50; in addition a
//     percentage equals its fraction, so 50\% also equals 0.5 and \frac12.
//   - Units: a trailing \text{…}/\mbox{…}/\mathrm{…} after a value, and a
//     trailing unit word (cm, km, dollars, degrees, units, square units …) are
//     dropped; so are ^\circ, °, $ and \$.
//   - Thousands separators are removed only when the whole answer (or list
//     element) is one number written with them: 1,000 is 1000, 12,345.5 is
//     12345.5; (1,000) is the pair (1, 0), and 1,2 is the list {1, 2}.
//   - A mixed number is an integer literal followed directly by a proper
//     fraction of integer literals: 2\frac{1}{2} and "2 1/2" are 5/2;
//     2\frac{x}{3} and 2\frac{5}{3} are products.
//   - Plain exponents take a whole digit run: x^23 is x^{23} (TeX would say
//     x^2·3); \frac34 and \sqrt2 follow TeX (one token per argument).
//   - e is Euler's number and i the imaginary unit (unless subscripted);
//     \log is the natural logarithm, as in sympy; \log_b is base b.
//   - A bare list is order-insensitive ("2, 3" equals "3, 2") and never equals
//     a tuple "(2, 3)"; a one-element set equals its element.
//   - An empty answer is never equivalent to anything, even to "".
//   - A one-variable inequality equals the interval it describes, both ways
//     round, as in GEM (math_verify compares a relation with a set through
//     sympy's as_set): x \le 3 is (-\infty, 3], x > 3 is (3, \infty),
//     1 < x \le 3 is (1, 3], x \ne 0 is (-\infty,0) \cup (0,\infty), and a
//     list of inequalities ("x < 1 or x > 2") is the union of their
//     intervals. Ends must match (open or closed). The variable must stand
//     alone on one side: 2x \le 6 is not solved to x \le 3, and an
//     interval's bounds must not contain it.
//
// # Known deviations from GEM's Python grader
//
//   - GEM's sympy path refuses to accept an unreduced fraction for a reduced
//     one (2/4 vs 1/2) or a non-integer form for an integer gold; its
//     math_verify path accepts them, and grade ORs the two, so we accept them.
//   - GEM's mathd path strips ~140 MathQA "unit" words (including "a", "t",
//     "c", "s", "o", "rd" …) anywhere in the answer; that can make different
//     answers equal (\text{a} vs \text{t}). We strip a curated list, and only
//     at the end of an answer after a value.
//   - GEM's _normalize deletes all braces after LaTeX-to-text conversion and
//     strips "and"/"or"; we keep structure and treat "and"/"or" as list commas.
//   - sympy decides symbolic equality; we use exact or numeric evaluation at
//     random points, which can call two different functions equal only if they
//     agree at all sampled points (for rational functions in exact arithmetic
//     this needs an improbable coincidence) and is complete for identities
//     sympy cannot simplify.
//   - math_verify's extraction from free text (e.g. "The answer is 5" inside
//     \boxed{}) is not reproduced: such an answer is compared as text.
//   - Timeouts: GEM's 1 s is wall-clock and load-dependent; ours is a step
//     budget.
//   - Not parsed (compared as text only): ratios 1:4, repeating decimals
//     0.\overline{3}, numbers in other bases 1011_2. math_verify may accept
//     some of these.
//
// Like GEM's mathd, any trailing \text{…} after a value is dropped, so
// 5\text{ (or 6)} equals 5; a \text{ or } / \text{ and } becomes a list
// comma instead, so 5\text{ or }6 is the list {5, 6}. Like GEM's _normalize,
// text is compared case-insensitively (so X equals x) and spaces are removed
// (so "5 6" equals 56, as with SI thousands spacing).
package mathcheck
