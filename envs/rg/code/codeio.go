package code

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// codeioData is a subset of reasoning-gym's codeio.jsonl.gz with input/output
// pairs recorded offline by gen/record_codeio.py (PROVENANCE.md).
//
//go:embed data/codeio.jsonl.gz
var codeioData []byte

type codeioPair struct {
	InputStr   string `json:"input_str"`
	OutputStr  string `json:"output_str"`
	InputJSON  string `json:"input_json"`
	OutputJSON string `json:"output_json"`
}

type codeioEntry struct {
	Line            int          `json:"line"`
	TaskDescription string       `json:"task_description"`
	InputOutputSpec string       `json:"input_output_spec"`
	CodeSample      string       `json:"code_sample"`
	Difficulty      *int         `json:"difficulty"`
	Pairs           []codeioPair `json:"pairs"`
}

var codeioEntries = sync.OnceValue(func() []codeioEntry {
	zr, err := gzip.NewReader(bytes.NewReader(codeioData))
	if err != nil {
		panic("codeio data: " + err.Error())
	}
	var out []codeioEntry
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e codeioEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			panic("codeio data: " + err.Error())
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		panic("codeio data: " + err.Error())
	}
	return out
})

// codeioPool is the entries of a difficulty (all of them for nil).
func codeioPool(difficulty *int) []*codeioEntry {
	var out []*codeioEntry
	es := codeioEntries()
	for i := range es {
		if difficulty == nil || (es[i].Difficulty != nil && *es[i].Difficulty == *difficulty) {
			out = append(out, &es[i])
		}
	}
	return out
}

// CodeIOOptions are reasoning-gym's CodeIOConfig.
type CodeIOOptions struct {
	InputPredictionProbability float64 `json:"input_prediction_probability" range:"0,1"`
	Difficulty                 *int    `json:"difficulty" range:"1,10"`
}

func (o CodeIOOptions) Validate() error {
	if o.Difficulty != nil && len(codeioPool(o.Difficulty)) == 0 {
		var have []int
		for _, e := range codeioEntries() {
			if e.Difficulty != nil && !slices.Contains(have, *e.Difficulty) {
				have = append(have, *e.Difficulty)
			}
		}
		slices.Sort(have)
		return optErr("difficulty", "no recorded entry has difficulty %d (recorded: %v, or null for all)", *o.Difficulty, have)
	}
	return nil
}

const codeioOutputPrompt = `
You are given a question that requires some input and output variables as follows:

%s

The input and output requirements are as follows:

%s

Given the following input:

%s

Can you predict the output without writing any code? Please think and then provide the exact output in the form of a JSON object as your final answer. The keys and values of the object should strictly match the output requirement as specified.

Tip: Here is a reference code snippet for this question. You can refer to this code to guide your reasoning but not copy spans of code directly.

%s
`

const codeioInputPrompt = `
You are given a question that requires some input and output variables as follows:

%s

The input and output requirements are as follows:

%s

Given the following output:

%s

Can you predict a feasible input without writing any code? Please reason and put your final answer in the form of a JSON object, even if the there is only one input variable, with keys strictly matching the input variables' names as specified.

Tip: Here is a reference code snippet for this question. You can refer to this code to guide your reasoning but not copy spans of code directly.

%s
`

func registerCodeIO(r *envs.Registry) error {
	return rg.Register(r, rg.Task[CodeIOOptions]{
		Name:        "codeio",
		Description: "reasoning-gym codeio: predict a Python function's output from its input, or an input from its output, as JSON; partial credit by tree edit distance.",
		// 2: input_prediction_probability is the chance of the prompt that
		// shows the input, as in reasoning-gym's code (1 had it reversed).
		Revision:   2,
		DataDigest: envs.Digest(codeioData),
		Defaults:   CodeIOOptions{InputPredictionProbability: 0.5},
		Generate:   generateCodeIO,
		Score:      func(answer string, it *rg.Item) float64 { return scoreCodeIO(answer, it.Answer) },
		Retry:      true,
	})
}

func generateCodeIO(rng *rand.Rand, o CodeIOOptions) (rg.Item, error) {
	pool := codeioPool(o.Difficulty)
	e := pool[rng.IntN(len(pool))]
	p := e.Pairs[rng.IntN(len(e.Pairs))]
	var q, answer, kind string
	// As reasoning-gym's code has it (not as the option's name reads):
	// below input_prediction_probability, the prompt shows the input and
	// asks for the output.
	if rng.Float64() < o.InputPredictionProbability {
		q = fmt.Sprintf(codeioOutputPrompt, e.TaskDescription, e.InputOutputSpec, p.InputStr, e.CodeSample)
		answer, kind = p.OutputJSON, "output"
	} else {
		q = fmt.Sprintf(codeioInputPrompt, e.TaskDescription, e.InputOutputSpec, p.OutputStr, e.CodeSample)
		answer, kind = p.InputJSON, "input"
	}
	return rg.Item{
		Question: q,
		Answer:   answer,
		Meta: map[string]any{
			"input_data": json.RawMessage(p.InputJSON), "output_data": json.RawMessage(p.OutputJSON),
			"source_line": e.Line, "predict": kind,
		},
	}, nil
}

// scoreCodeIO is reasoning-gym's score_answer: 1 for the exact JSON text;
// otherwise, if the answer holds braces, the JSON between its first { and
// last } is compared with the reference by tree edit distance, scaled by a
// penalty for text around it (at most len(ref)/(len(ref)+extra/2), at least
// 0.2), with 0.01 for any JSON that parses. More lenient: an answer that is
// JSON equal to the reference (spacing, key order, 2 vs 2.0) scores 1 with
// or without braces, and where the reference is not an object, an object
// with a single key holding it (as the prompt asks for an object) does too.
func scoreCodeIO(answer, oracle string) float64 {
	oracle = strings.TrimSpace(oracle)
	answer = strings.TrimSpace(answer)
	switch {
	case answer == "":
		return 0
	case answer == oracle:
		return 1
	}
	want, err := decodeJSON(oracle)
	if err != nil {
		return rg.DefaultScore(answer, oracle)
	}
	if got, err := decodeJSON(answer); err == nil {
		if jsonEqual(got, want) {
			return 1
		}
		if m, ok := got.(map[string]any); ok && len(m) == 1 {
			if _, isObj := want.(map[string]any); !isObj {
				for _, v := range m {
					if jsonEqual(v, want) {
						return 1
					}
				}
			}
		}
	}
	first, last := strings.Index(answer, "{"), strings.LastIndex(answer, "}")
	if first < 0 || last < 0 {
		return 0
	}
	n := float64(utf8.RuneCountInString(oracle))
	if last < first {
		// Python's slice is empty, json.loads fails: the substring rule.
		return rg.DefaultScore(answer, oracle)
	}
	extra := float64(utf8.RuneCountInString(answer[:first]) + utf8.RuneCountInString(answer[last+1:]))
	maxScore := math.Max(n/(n+0.5*extra), 0.2)
	got, err := decodeJSON(answer[first : last+1])
	if err != nil {
		if strings.Contains(answer, oracle) {
			return n / float64(utf8.RuneCountInString(answer))
		}
		return 0
	}
	if jsonEqual(got, want) {
		return maxScore
	}
	return math.Max(jsonSimilarity(got, want)*maxScore, 0.01)
}

// decodeJSON reads one JSON value, numbers kept as json.Number.
func decodeJSON(s string) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err == nil {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func isInt(n json.Number) bool { return !strings.ContainsAny(string(n), ".eE") }

// jsonEqual is Python's == on decoded JSON: 2 == 2.0, dicts regardless of
// order.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			// Python: True == 1, False == 0.
			if t, isBool := b.(bool); isBool {
				f, _ := x.Float64()
				return (t && f == 1) || (!t && f == 0)
			}
			return false
		}
		if isInt(x) && isInt(y) {
			a, ok1 := new(big.Int).SetString(string(x), 10)
			b, ok2 := new(big.Int).SetString(string(y), 10)
			return ok1 && ok2 && a.Cmp(b) == 0
		}
		f, err1 := x.Float64()
		g, err2 := y.Float64()
		return err1 == nil && err2 == nil && f == g
	case bool:
		if _, ok := b.(json.Number); ok {
			return jsonEqual(b, a)
		}
		return a == b
	default: // string, nil
		return a == b
	}
}

// pyStr is Python's str() of a decoded JSON scalar.
func pyStr(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		if isInt(x) {
			return string(x)
		}
		f, err := x.Float64()
		if err != nil {
			return string(x)
		}
		return pyFloat(f)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// pyFloat is Python's repr of a float: the shortest digits that round-trip,
// fixed notation for exponents -4 to 15, else d.ddde±XX.
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±XX
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	neg := strings.HasPrefix(mant, "-")
	digits := strings.Replace(strings.TrimPrefix(mant, "-"), ".", "", 1)
	var out string
	if exp >= -4 && exp < 16 {
		if exp >= 0 {
			if len(digits) <= exp+1 {
				out = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
			} else {
				out = digits[:exp+1] + "." + digits[exp+1:]
			}
		} else {
			out = "0." + strings.Repeat("0", -exp-1) + digits
		}
	} else {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		out = fmt.Sprintf("%se%s%02d", m, sign, exp)
	}
	if neg {
		out = "-" + out
	}
	return out
}

// pyDumps is the length of Python's json.dumps of v (", " and ": "
// separators, non-ASCII escaped as \uXXXX).
func pyDumpsLen(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := 2
		i := 0
		for k, w := range x {
			if i > 0 {
				n += 2
			}
			n += pyStringLen(k) + 2 + pyDumpsLen(w)
			i++
		}
		return n
	case []any:
		n := 2
		for i, w := range x {
			if i > 0 {
				n += 2
			}
			n += pyDumpsLen(w)
		}
		return n
	case string:
		return pyStringLen(x)
	case nil:
		return 4
	case bool:
		if x {
			return 4
		}
		return 5
	case json.Number:
		if isInt(x) {
			return len(x)
		}
		f, _ := x.Float64()
		switch {
		case math.IsInf(f, 0):
			return len("Infinity") + btoi(f < 0)
		}
		return len(pyFloat(f))
	}
	return 0
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func pyStringLen(s string) int {
	n := 2
	for _, r := range s {
		switch {
		case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t' || r == '\b' || r == '\f':
			n += 2
		case r < 0x20 || (r >= 0x7f && r < 0x10000):
			if r == 0x7f {
				n++
			} else {
				n += 6
			}
		case r >= 0x10000:
			n += 12 // a surrogate pair
		default:
			n++
		}
	}
	return n
}

// zNode is a tree of reasoning-gym's _json_to_tree: a dict's children in
// key order labelled by key, a list's labelled item_<i>, a scalar a leaf
// "<label>:<str(value)>".
type zNode struct {
	label string
	kids  []*zNode
}

func jsonTree(v any, label string, budget *int) *zNode {
	*budget--
	switch x := v.(type) {
	case map[string]any:
		n := &zNode{label: label}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // Python sorts str by code point, as Go sorts bytes of UTF-8
		for _, k := range keys {
			if *budget < 0 {
				break
			}
			n.kids = append(n.kids, jsonTree(x[k], k, budget))
		}
		return n
	case []any:
		n := &zNode{label: label}
		for i, w := range x {
			if *budget < 0 {
				break
			}
			n.kids = append(n.kids, jsonTree(w, "item_"+strconv.Itoa(i), budget))
		}
		return n
	}
	return &zNode{label: label + ":" + pyStr(v)}
}

// jsonSimilarity is reasoning-gym's _compute_json_similarity:
// 1 − distance/(0.2 × the longer json.dumps), at least 0. A tree more than
// four times the reference's size (plus 64 nodes) scores 0 without the
// distance, which would take too long.
func jsonSimilarity(got, want any) float64 {
	budget := 1 << 30
	tw := jsonTree(want, "root", &budget)
	size := (1<<30 - budget)
	budget = 4*size + 64
	tg := jsonTree(got, "root", &budget)
	if budget < 0 {
		return 0
	}
	d := treeDistance(tg, tw)
	m := float64(max(pyDumpsLen(got), pyDumpsLen(want)))
	return math.Max(0, 1-d/(0.2*m))
}

// levenshtein counts code points, as reasoning-gym's _str_edit_distance.
func levenshtein(a, b string) float64 {
	x, y := []rune(a), []rune(b)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			if x[i-1] == y[j-1] {
				cur[j] = prev[j-1]
			} else {
				cur[j] = 1 + min(prev[j], cur[j-1], prev[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return float64(prev[len(y)])
}

func isNumeric(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsNumber(r) {
			return false
		}
	}
	return true
}

// labelDistance is reasoning-gym's _tree_node_edit_distance.
func labelDistance(t1, t2 string) float64 {
	k1, v1, ok1 := strings.Cut(t1, ":")
	k2, v2, ok2 := strings.Cut(t2, ":")
	if !ok1 || !ok2 {
		return levenshtein(t1, t2)
	}
	var kd, vd float64
	if k1 != k2 {
		kd = levenshtein(k1, k2)
	}
	if v1 != v2 {
		vd = levenshtein(v1, v2)
		n1, n2 := strings.ReplaceAll(v1, ".", ""), strings.ReplaceAll(v2, ".", "")
		switch {
		case isNumeric(n1) && isNumeric(n2):
			a, err1 := strconv.ParseFloat(v1, 64)
			b, err2 := strconv.ParseFloat(v2, 64)
			if err1 == nil && err2 == nil {
				a, b = math.Abs(a), math.Abs(b)
				div := math.Max(math.Min(a, b), 10e-5)
				vd = float64(max(utf8.RuneCountInString(v1), utf8.RuneCountInString(v2))) * math.Abs((a-b)/div)
			}
		case isNumeric(v1) || isNumeric(v2):
			vd += float64(max(utf8.RuneCountInString(t1), utf8.RuneCountInString(t2)))
		}
	}
	return kd + vd
}

// treeDistance is the Zhang–Shasha tree edit distance (zss.simple_distance)
// with labelDistance as the update cost and a label's length as the cost
// of inserting or removing its node.
func treeDistance(a, b *zNode) float64 {
	type post struct {
		labels []string
		lml    []int // leftmost leaf descendant, postorder index
		keys   []int
	}
	index := func(root *zNode) post {
		var p post
		var walk func(n *zNode) int
		walk = func(n *zNode) int {
			first := -1
			for _, k := range n.kids {
				l := walk(k)
				if first < 0 {
					first = l
				}
			}
			i := len(p.labels)
			p.labels = append(p.labels, n.label)
			if first < 0 {
				first = i
			}
			p.lml = append(p.lml, first)
			return first
		}
		walk(root)
		seen := map[int]bool{}
		for i := len(p.lml) - 1; i >= 0; i-- {
			if !seen[p.lml[i]] {
				seen[p.lml[i]] = true
				p.keys = append(p.keys, i)
			}
		}
		slices.Sort(p.keys)
		return p
	}
	A, B := index(a), index(b)
	n, m := len(A.labels), len(B.labels)
	td := make([][]float64, n)
	for i := range td {
		td[i] = make([]float64, m)
	}
	cost := func(s string) float64 { return float64(utf8.RuneCountInString(s)) }
	for _, i := range A.keys {
		for _, j := range B.keys {
			li, lj := A.lml[i], B.lml[j]
			rows, cols := i-li+2, j-lj+2
			fd := make([][]float64, rows)
			for x := range fd {
				fd[x] = make([]float64, cols)
			}
			for x := 1; x < rows; x++ {
				fd[x][0] = fd[x-1][0] + cost(A.labels[li+x-1])
			}
			for y := 1; y < cols; y++ {
				fd[0][y] = fd[0][y-1] + cost(B.labels[lj+y-1])
			}
			for x := 1; x < rows; x++ {
				for y := 1; y < cols; y++ {
					ai, bj := li+x-1, lj+y-1
					del := fd[x-1][y] + cost(A.labels[ai])
					ins := fd[x][y-1] + cost(B.labels[bj])
					if A.lml[ai] == li && B.lml[bj] == lj {
						sub := fd[x-1][y-1] + labelDistance(A.labels[ai], B.labels[bj])
						fd[x][y] = min(del, ins, sub)
						td[ai][bj] = fd[x][y]
					} else {
						p, q := A.lml[ai]-li, B.lml[bj]-lj
						fd[x][y] = min(del, ins, fd[p][q]+td[ai][bj])
					}
				}
			}
		}
	}
	return td[n-1][m-1]
}
