package mathcheck

import (
	"regexp"
	"strings"
)

// Normalize returns the canonical string form of a final answer: the form two
// answers are first compared in, before any parsing. It is a Go rendering of
// the rules in Hendrycks' MATH normaliser (GEM's mathd_normalize_answer), made
// deliberately conservative: it removes only what cannot change the value.
//
//   - LaTeX spacing, \left/\right, \displaystyle, $ delimiters and line breaks;
//   - \dfrac and \tfrac become \frac, \frac34 becomes \frac{3}{4}, \sqrt2
//     becomes \sqrt{2};
//   - a whole-answer \text{…} (\mbox, \mathrm, \textbf, \boxed …) is unwrapped,
//     a trailing unit in such a wrapper (5\text{ cm}) or a trailing unit word
//     (5 cm, 12 dollars) is dropped;
//   - degree marks (^\circ, °), \% and %, and dollar signs are dropped;
//   - a single leading assignment (x = 5, k=5) is dropped;
//   - thousands separators are removed when the whole answer is one number
//     written with them (1,000 or 1{,}000 or 1,\!000); (1,2) is untouched;
//   - Unicode minus, ×, ·, ÷, π, √, ∞, ≤, ≥ become their ASCII/LaTeX forms;
//   - all spaces are removed.
//
// Normalize never fails; on text that is not mathematics it returns the text
// with only these rewrites applied.
func Normalize(s string) string {
	c, _ := clean(s)
	c = prepElement(c)
	if _, rhs, ok := splitAssignment(c); ok {
		c = prepElement(rhs)
	}
	return strings.Join(strings.Fields(c), "")
}

// clean applies the whole-answer rewrites that do not depend on structure and
// reports whether a percent sign was removed. Spaces are collapsed but kept,
// because they still separate a command from a following letter (\sin x).
func clean(s string) (string, bool) {
	s = unicodeRepl.Replace(s)
	s = strings.ReplaceAll(s, `\$`, " ")
	s = strings.ReplaceAll(s, "$", " ")
	s = strings.ReplaceAll(s, `\%`, "%")
	pct := strings.Contains(s, "%")
	s = strings.ReplaceAll(s, "%", " ")
	// Doubly escaped backslashes (\\frac) come from JSON-escaped datasets; a
	// matrix row break (\\ followed by a non-letter) is left alone.
	if !strings.Contains(s, `\begin`) {
		s = doubleBackslash.ReplaceAllString(s, `\$1`)
	}
	for _, r := range dropCmds {
		s = replaceCmd(s, r, " ")
	}
	for _, r := range renameCmds {
		s = replaceCmd(s, r[0], r[1])
	}
	s = spaceRepl.Replace(s)
	s = degrees.ReplaceAllString(s, " ")
	s = replaceCmd(s, "circ", " ")
	s = replaceCmd(s, "degree", " ")
	s = matrixEnv.ReplaceAllString(s, `\${1}{pmatrix}`)
	s = arrayEnv.ReplaceAllString(s, `\begin{pmatrix}`)
	s = strings.ReplaceAll(s, `\end{array}`, `\end{pmatrix}`)
	s = textConjunctions(s)
	s = plainConjunctions.ReplaceAllString(s, ",")
	s = strings.ReplaceAll(s, "<=", `\le `)
	s = strings.ReplaceAll(s, ">=", `\ge `)
	s = strings.ReplaceAll(s, "!=", `\ne `)
	s = fixShorthand(s)
	return strings.Join(strings.Fields(s), " "), pct
}

var unicodeRepl = strings.NewReplacer(
	"\u2212", "-", "\u2013", "-", "\u2014", "-", "\u00d7", ` \times `, "\u00b7", ` \cdot `,
	"\u22c5", ` \cdot `, "\u00f7", ` \div `, "\u03c0", ` \pi `, "\u221a", ` \sqrt `,
	"\u221e", ` \infty `, "\u2264", ` \le `, "\u2265", ` \ge `, "\u2260", ` \ne `,
	"\u00b0", ` `, "\u222a", ` \cup `, "\u2205", ` \emptyset `, "\u00a0", " ",
	"\n", " ", "\r", " ", "\t", " ", "~", " ",
)

// spaceRepl removes LaTeX spacing commands that are not letters (\, \; \! …);
// a row break \\ is matched first so that "\\ " keeps its meaning.
var spaceRepl = strings.NewReplacer(`\\`, `\\`, `\,`, " ", `\;`, " ", `\:`, " ", `\!`, "", `\ `, " ", "{,}", ",")

// dropCmds are commands that only affect typesetting.
var dropCmds = []string{
	"left", "right", "displaystyle", "textstyle", "big", "Big", "bigg", "Bigg",
	"bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "quad", "qquad", "limits",
}

// renameCmds maps synonyms onto the one spelling the parser knows.
var renameCmds = [][2]string{
	{"dfrac", `\frac`}, {"tfrac", `\frac`}, {"cfrac", `\frac`}, {"dbinom", `\binom`},
	{"tbinom", `\binom`}, {"leq", `\le`}, {"leqslant", `\le`}, {"geq", `\ge`},
	{"geqslant", `\ge`}, {"neq", `\ne`}, {"lt", "<"}, {"gt", ">"}, {"varnothing", `\emptyset`},
	{"infin", `\infty`}, {"bmatrix", "pmatrix"}, {"lvert", "|"}, {"rvert", "|"},
	{"vert", "|"}, {"mid", "|"}, {"ast", "*"}, {"colon", ":"},
}

var (
	doubleBackslash   = regexp.MustCompile(`\\\\([A-Za-z])`)
	degrees           = regexp.MustCompile(`\^\s*\{?\s*\\circ\s*\}?`)
	matrixEnv         = regexp.MustCompile(`\\(begin|end)\{[bBvV]?matrix\}`)
	arrayEnv          = regexp.MustCompile(`\\begin\{array\}\{[^{}]*\}`)
	plainConjunctions = regexp.MustCompile(`(?i)\s+(and|or)\s+`)
	thousands         = regexp.MustCompile(`^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$`)
	mixedPlain        = regexp.MustCompile(`^(-?)(\d+) +(\d+)/(\d+)$`)
	scaleWord         = regexp.MustCompile(`(?i)^([-+]?[\d,]*\.?\d+) *(million|billion|trillion)$`)
)

// replaceCmd replaces every \name that is not the prefix of a longer command
// name (so replacing \le leaves \left alone).
func replaceCmd(s, name, repl string) string {
	pat := `\` + name
	if !strings.Contains(s, pat) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, pat)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(pat)
		if end < len(s) && isLetter(s[end]) {
			b.WriteString(s[:end])
			s = s[end:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(repl)
		if repl != "" && isLetter(repl[len(repl)-1]) && end < len(s) && isLetter(s[end]) {
			b.WriteByte(' ')
		}
		s = s[end:]
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// wrappers are the commands whose braced argument is text, not mathematics.
var wrappers = []string{
	"text", "textbf", "textit", "textrm", "textnormal", "textup", "textsf", "texttt",
	"mbox", "mathrm", "mathbf", "mathit", "mathsf", "mathtt", "mathbb", "boxed", "fbox",
	"emph", "hbox",
}

// wrapperAt reports the wrapper command starting at s[i] (a backslash) and the
// index of its opening brace.
func wrapperAt(s string, i int) (name string, open int, ok bool) {
	if i >= len(s) || s[i] != '\\' {
		return "", 0, false
	}
	j := i + 1
	for j < len(s) && isLetter(s[j]) {
		j++
	}
	name = s[i+1 : j]
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j >= len(s) || s[j] != '{' {
		return "", 0, false
	}
	for _, w := range wrappers {
		if w == name {
			return name, j, true
		}
	}
	return "", 0, false
}

// groupEnd returns the index of the brace closing the one at s[open], or -1.
func groupEnd(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// textConjunctions turns \text{ and } and \text{ or } into list commas.
func textConjunctions(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if _, open, ok := wrapperAt(s, i); ok {
			if end := groupEnd(s, open); end > 0 {
				w := strings.ToLower(strings.TrimSpace(s[open+1 : end]))
				w = strings.TrimSpace(strings.TrimPrefix(w, ","))
				if w == "and" || w == "or" {
					b.WriteString(",")
					i = end + 1
					continue
				}
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// fixShorthand expands \frac34, \frac3x, \frac1{72} and \sqrt2 into braced
// form; a one-character argument is one token, as in TeX.
func fixShorthand(s string) string {
	if !strings.Contains(s, `\frac`) && !strings.Contains(s, `\sqrt`) && !strings.Contains(s, `\binom`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		n := 0
		switch {
		case cmdAt(s, i, "frac"), cmdAt(s, i, "binom"):
			n = 2
		case cmdAt(s, i, "sqrt"):
			n = 1
		}
		if n == 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isLetter(s[j]) {
			j++
		}
		b.WriteString(s[i:j])
		i = j
		if n == 1 {
			// \sqrt[3]{x}: copy the index.
			k := skipSpaces(s, i)
			if k < len(s) && s[k] == '[' {
				if e := strings.IndexByte(s[k:], ']'); e > 0 {
					b.WriteString(s[k : k+e+1])
					i = k + e + 1
				}
			}
		}
		for a := 0; a < n; a++ {
			k := skipSpaces(s, i)
			if k >= len(s) {
				break
			}
			switch {
			case s[k] == '{':
				e := groupEnd(s, k)
				if e < 0 {
					b.WriteString(s[k:])
					return b.String()
				}
				// Recurse so that \frac{\sqrt2}{2} is fixed too.
				b.WriteString("{" + fixShorthand(s[k+1:e]) + "}")
				i = e + 1
			case s[k] == '\\':
				e := k + 1
				for e < len(s) && isLetter(s[e]) {
					e++
				}
				if e == k+1 && e < len(s) {
					e++
				}
				b.WriteString("{" + s[k:e] + "}")
				i = e
			default:
				b.WriteString("{" + s[k:k+1] + "}")
				i = k + 1
			}
		}
	}
	return b.String()
}

func cmdAt(s string, i int, name string) bool {
	if !strings.HasPrefix(s[i:], `\`+name) {
		return false
	}
	e := i + 1 + len(name)
	return e >= len(s) || !isLetter(s[e])
}

func skipSpaces(s string, i int) int {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}

// prepElement applies the rewrites that concern one answer or one element of
// a list: unwrapping, trailing units and periods, thousands separators and
// mixed numbers written as "7 3/4".
func prepElement(s string) string {
	for range 8 {
		prev := s
		s = strings.TrimSpace(s)
		s = strings.TrimSuffix(s, ".")
		s = strings.TrimSuffix(s, `\.`)
		s = strings.TrimSpace(s)
		s = unwrapWhole(s)
		s = stripUnitWrapper(s)
		s = stripUnitWord(s)
		if s == prev {
			break
		}
	}
	if thousands.MatchString(s) {
		s = strings.ReplaceAll(s, ",", "")
	}
	if m := scaleWord.FindStringSubmatch(s); m != nil {
		// GEM's _normalize reads "3 million" as 3*10^6.
		p := strings.ReplaceAll(m[1], ",", "")
		s = p + `\times10^{` + map[string]string{"million": "6", "billion": "9", "trillion": "12"}[strings.ToLower(m[2])] + "}"
	}
	if m := mixedPlain.FindStringSubmatch(s); m != nil {
		s = m[1] + m[2] + `\frac{` + m[3] + "}{" + m[4] + "}"
	}
	return s
}

// unwrapWhole removes wrappers and braces that enclose the whole string.
func unwrapWhole(s string) string {
	for range 16 {
		s = strings.TrimSpace(s)
		if len(s) >= 2 && s[0] == '{' && groupEnd(s, 0) == len(s)-1 {
			s = s[1 : len(s)-1]
			continue
		}
		_, open, ok := wrapperAt(s, 0)
		if !ok || groupEnd(s, open) != len(s)-1 {
			return s
		}
		s = s[open+1 : len(s)-1]
	}
	return s
}

// stripUnitWrapper drops a trailing \text{…} (or \mbox, \mathrm …), possibly
// squared or cubed, when something that could be a value precedes it.
func stripUnitWrapper(s string) string {
	t := s
	for _, p := range []string{"^2", "^3", "^{2}", "^{3}"} {
		if strings.HasSuffix(t, p) {
			t = strings.TrimSpace(t[:len(t)-len(p)])
			break
		}
	}
	if !strings.HasSuffix(t, "}") {
		return s
	}
	open := groupStart(t, len(t)-1)
	if open < 0 {
		return s
	}
	k := open - 1
	for k >= 0 && t[k] == ' ' {
		k--
	}
	j := k
	for j >= 0 && isLetter(t[j]) {
		j--
	}
	if j < 0 || t[j] != '\\' {
		return s
	}
	if _, o, ok := wrapperAt(t, j); !ok || o != open {
		return s
	}
	inner := strings.TrimSpace(t[open+1 : len(t)-1])
	if inner == "e" || inner == "i" || strings.ContainsAny(inner, `\^_{}`) {
		return s
	}
	prefix := strings.TrimSpace(t[:j])
	if prefix == "" || strings.ContainsAny(prefix[len(prefix)-1:], "+-*/^_{(=,<>") || strings.HasSuffix(prefix, `\cdot`) || strings.HasSuffix(prefix, `\times`) {
		return s
	}
	return prefix
}

// groupStart returns the index of the brace opening the one closing at
// s[close], or -1.
func groupStart(s string, close int) int {
	depth := 0
	for i := close; i >= 0; i-- {
		switch s[i] {
		case '}':
			depth++
		case '{':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// unitWords are trailing words dropped after a number. One-letter units are
// dropped only after a space ("5 m"), since "5m" may be 5·m.
var unitWords = map[string]bool{
	"cm": true, "mm": true, "km": true, "kg": true, "mg": true, "ml": true, "sec": true,
	"secs": true, "second": true, "seconds": true, "min": true, "mins": true, "minute": true,
	"minutes": true, "hr": true, "hrs": true, "hour": true, "hours": true, "day": true,
	"days": true, "week": true, "weeks": true, "month": true, "months": true, "year": true,
	"years": true, "yr": true, "yrs": true, "inch": true, "inches": true, "ft": true,
	"feet": true, "foot": true, "yard": true, "yards": true, "yd": true, "mile": true,
	"miles": true, "meter": true, "meters": true, "metre": true, "metres": true,
	"centimeter": true, "centimeters": true, "kilometer": true, "kilometers": true,
	"millimeter": true, "millimeters": true, "liter": true, "liters": true, "litre": true,
	"litres": true, "gallon": true, "gallons": true, "mph": true, "kmh": true, "degree": true,
	"degrees": true, "deg": true, "unit": true, "units": true, "square": true, "sq": true,
	"cubic": true, "dollar": true, "dollars": true, "cent": true, "cents": true,
	"percent": true, "pound": true, "pounds": true, "lb": true, "lbs": true, "ounce": true,
	"ounces": true, "oz": true, "gram": true, "grams": true, "kilogram": true,
	"kilograms": true, "point": true, "points": true, "ways": true, "integers": true,
	"digits": true, "edges": true, "students": true, "people": true, "times": true,
	"m": true, "g": true, "s": true, "h": true, "l": true,
}

// stripUnitWord drops up to three trailing unit words (12 square units, 5 m^2).
func stripUnitWord(s string) string {
	for range 3 {
		t := s
		for _, p := range []string{"^2", "^3", "^{2}", "^{3}"} {
			if strings.HasSuffix(t, p) {
				t = t[:len(t)-len(p)]
				break
			}
		}
		if i := strings.LastIndexByte(t, '/'); i > 0 && unitWords[strings.ToLower(t[i+1:])] {
			// m/s, km/h: drop the divisor and try the rest as a unit.
			t = t[:i]
		}
		j := len(t)
		for j > 0 && isLetter(t[j-1]) {
			j--
		}
		w := strings.ToLower(t[j:])
		if w == "" || !unitWords[w] || j == 0 || t[j-1] == '\\' {
			return s
		}
		prefix := strings.TrimRight(t[:j], " ")
		if prefix == "" {
			return s
		}
		last := prefix[len(prefix)-1]
		spaced := len(prefix) < j
		if !(isDigit(last) || last == '}' || last == ')' || (spaced && isLetter(last))) {
			return s
		}
		if len(w) == 1 && !(spaced && isDigit(last)) {
			return s
		}
		s = prefix
	}
	return s
}

// splitAssignment splits "x = rhs" (also x_1 = …, \theta = …, f(x) = …,
// (x, y) = …, x \in …) when the left side is a variable, a function of
// variables or a tuple of variables, and there is exactly one top-level '='.
func splitAssignment(s string) (lhs, rhs string, ok bool) {
	idx, n := -1, 0
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '=':
			if depth == 0 {
				idx, n = i, n+1
			}
		}
	}
	opLen := 1
	if n == 0 {
		if i := strings.Index(s, `\in`); i > 0 && (i+3 >= len(s) || !isLetter(s[i+3])) {
			idx, n, opLen = i, 1, 3
		}
	}
	if n != 1 {
		return "", "", false
	}
	lhs = strings.TrimSpace(s[:idx])
	rhs = strings.TrimSpace(s[idx+opLen:])
	if rhs == "" || !isVariableName(lhs) && !isVariableTuple(lhs) {
		return "", "", false
	}
	return lhs, rhs, true
}

var (
	variableName = regexp.MustCompile(`^(?:[A-Za-z]|\\[A-Za-z]+)(?:_(?:[A-Za-z0-9]|\{[A-Za-z0-9]+\}))?$`)
	functionName = regexp.MustCompile(`^[A-Za-z]\( *[A-Za-z](?: *, *[A-Za-z])* *\)$`)
)

// isVariableTuple reports whether s is a tuple of variables: (x, y).
func isVariableTuple(s string) bool {
	if len(s) < 5 || s[0] != '(' || s[len(s)-1] != ')' {
		return false
	}
	for _, v := range strings.Split(s[1:len(s)-1], ",") {
		if !isVariableName(strings.TrimSpace(v)) {
			return false
		}
	}
	return true
}

func isVariableName(s string) bool {
	if functionName.MatchString(s) {
		return true // f(x) = x^2 + 1
	}
	if !variableName.MatchString(s) {
		return false
	}
	if s[0] == '\\' {
		name := s[1:]
		if i := strings.IndexByte(name, '_'); i >= 0 {
			name = name[:i]
		}
		return greek[name]
	}
	return true
}
