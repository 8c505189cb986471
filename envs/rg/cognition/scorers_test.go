package cognition

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

type scoreCase struct {
	answer string
	want   float64
}

// checkScores scores each case against the item of id at seed.
func checkScores(t *testing.T, id string, options map[string]any, seed uint64, cases func(it rg.Item) []scoreCase) {
	t.Helper()
	_, e := rgtest.Reset(t, registry(t), id, options, seed)
	for _, c := range cases(e.Item()) {
		if got := e.Score(c.answer); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s seed %d: Score(%q) = %v, want %v (answer %q)", id, seed, c.answer, got, c.want, e.Item().Answer)
		}
	}
}

func TestColorCubeScore(t *testing.T) {
	checkScores(t, "rg:color_cube_rotation", nil, 1, func(it rg.Item) []scoreCase {
		a := it.Answer
		other := "red"
		if a == "red" {
			other = "blue"
		}
		return []scoreCase{
			{a, 1}, {strings.ToUpper(a), 1}, {"  " + a + " ", 1}, {strings.ToUpper(a[:1]) + a[1:] + ".", 1},
			{other, 0.01}, {"", 0.01}, {"the " + a + " side", 0.01},
		}
	})
}

// TestColorCubeAnswers re-derives every answer with rotation matrices
// instead of the generator's side permutations.
func TestColorCubeAnswers(t *testing.T) {
	normal := map[string][3]int{"top": {0, 1, 0}, "bottom": {0, -1, 0}, "front": {0, 0, 1}, "back": {0, 0, -1}, "right": {1, 0, 0}, "left": {-1, 0, 0}}
	cross := func(a, b [3]int) [3]int {
		return [3]int{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
	}
	dot := func(a, b [3]int) int { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
	r := registry(t)
	for seed := range uint64(200) {
		_, e := rgtest.Reset(t, r, "rg:color_cube_rotation", map[string]any{"max_rotations": 8}, seed)
		m := e.Item().Meta
		// where[s] is the direction the side first called s faces now.
		where := map[string][3]int{}
		for s, n := range normal {
			where[s] = n
		}
		for _, from := range m["rotations"].([]string) {
			for s, v := range where {
				if from == "bottom" { // half turn about the x axis
					where[s] = [3]int{v[0], -v[1], -v[2]}
					continue
				}
				k := cross(normal[from], normal["top"]) // quarter turn taking from to top
				kv := dot(k, v)
				c := cross(k, v)
				where[s] = [3]int{kv*k[0] + c[0], kv*k[1] + c[1], kv*k[2] + c[2]}
			}
		}
		target := normal[m["target_side"].(string)]
		var want string
		for s, v := range where {
			if v == target {
				want = m["initial_state"].(map[string]any)[s].(string)
			}
		}
		if e.Item().Answer != want {
			t.Fatalf("seed %d: answer %q, rotations give %q\n%s", seed, e.Item().Answer, want, e.Item().Question)
		}
	}
}

func TestModuloGridScore(t *testing.T) {
	checkScores(t, "rg:modulo_grid", map[string]any{"size_x": 6, "size_y": 6}, 3, func(it rg.Item) []scoreCase {
		rows := strings.Split(it.Answer, "\n")
		spaced := make([]string, len(rows))
		for i, row := range rows {
			spaced[i] = "  " + strings.Join(strings.Split(row, ""), " ") + " \t"
		}
		flipped := []rune(it.Answer)
		if flipped[0] == '✅' {
			flipped[0] = '❌'
		} else {
			flipped[0] = '✅'
		}
		wrapped := "grid:\n" + it.Answer
		return []scoreCase{
			{it.Answer, 1},
			{strings.Join(spaced, "\n"), 1},
			{strings.ReplaceAll(it.Answer, "\n", "\r\n\n"), 1},
			{"\n" + it.Answer + "\n\n", 1},
			{string(flipped), 0},
			{strings.Join(rows[1:], "\n"), 0},
			{wrapped, float64(len([]rune(it.Answer))) / float64(len([]rune(wrapped)))},
			{"", 0},
		}
	})
}

// TestModuloGridAnswers recomputes each grid from its metadata with
// big-integer powers, and checks the question is the grid with holes.
func TestModuloGridAnswers(t *testing.T) {
	r := registry(t)
	for seed := range uint64(100) {
		_, e := rgtest.Reset(t, r, "rg:modulo_grid", map[string]any{"max_holes": 5}, seed)
		it := e.Item()
		d, tg, op := it.Meta["divisor"].(int), it.Meta["target"].(int), it.Meta["operation"].(string)
		var want []string
		for y := range 20 {
			var b strings.Builder
			for x := range 20 {
				var v *big.Int
				switch op {
				case "sum":
					v = big.NewInt(int64(x + y))
				case "diff":
					v = big.NewInt(int64(max(x-y, y-x)))
				case "prod":
					v = big.NewInt(int64(x * y))
				default:
					v = new(big.Int).Exp(big.NewInt(int64(x)), big.NewInt(int64(y)), nil)
				}
				if new(big.Int).Mod(v, big.NewInt(int64(d))).Int64() == int64(tg) {
					b.WriteString(cellOn)
				} else {
					b.WriteString(cellOff)
				}
			}
			want = append(want, b.String())
		}
		if it.Answer != strings.Join(want, "\n") {
			t.Fatalf("seed %d: %s %% %d == %d gives another grid", seed, op, d, tg)
		}
		if !strings.Contains(it.Answer, cellOn) {
			t.Fatalf("seed %d: no ✅", seed)
		}
		q := []rune(it.Question[strings.Index(it.Question, "\n\n")+2:])
		a := []rune(it.Answer)
		holes := 0
		for i := range a {
			switch {
			case q[i] == '❔':
				holes++
			case q[i] != a[i]:
				t.Fatalf("seed %d: question and answer differ outside a hole", seed)
			}
		}
		if holes < 1 || holes > 5 {
			t.Fatalf("seed %d: %d holes", seed, holes)
		}
	}
}

func TestRectangleScore(t *testing.T) {
	checkScores(t, "rg:rectangle_count", nil, 2, func(it rg.Item) []scoreCase {
		n, _ := strconv.Atoi(it.Answer)
		s := strconv.Itoa
		return []scoreCase{
			{it.Answer, 1}, {" " + it.Answer + " ", 1}, {it.Answer + ".0", 1}, {"+" + it.Answer, 1},
			{s(n + 1), 0.8 * 0.8}, {s(n - 1), 0.8 * 0.8}, {s(n + 4), 0.8 * 0.2}, {s(n + 5), 0}, {s(n - 7), 0},
			{it.Answer + " rectangles", 0}, {"", 0}, {s(n) + ".5", 0},
		}
	})
}

// TestRectangleGrid checks each grid against its count: the outlines'
// corners are where rows and columns of marks meet, and no cell is drawn
// more than twice.
func TestRectangleGrid(t *testing.T) {
	r := registry(t)
	for seed := range uint64(50) {
		_, e := rgtest.Reset(t, r, "rg:rectangle_count", nil, seed)
		it := e.Item()
		puzzle := it.Meta["puzzle"].(string)
		rows := strings.Split(strings.TrimSuffix(puzzle, "\n"), "\n")
		if len(rows) != 80 {
			t.Fatalf("seed %d: %d rows", seed, len(rows))
		}
		marks := 0
		for _, row := range rows {
			if len([]rune(row)) != 80 || strings.Trim(row, " #█") != "" {
				t.Fatalf("seed %d: row %q", seed, row)
			}
			marks += strings.Count(row, "#") + 2*strings.Count(row, "█")
		}
		n, _ := strconv.Atoi(it.Answer)
		if n < 1 || n > 10 || marks < 8*n {
			t.Fatalf("seed %d: %d rectangles drawn with %d marks", seed, n, marks)
		}
		if !strings.Contains(it.Question, puzzle) {
			t.Fatalf("seed %d: puzzle not in question", seed)
		}
	}
}

func TestNumberSequenceScore(t *testing.T) {
	checkScores(t, "rg:number_sequence", nil, 4, func(it rg.Item) []scoreCase {
		n, _ := strconv.Atoi(it.Answer)
		return []scoreCase{
			{it.Answer, 1}, {it.Answer + ".0", 1}, {" " + it.Answer, 1},
			{strconv.Itoa(n + 1), 0}, {"x = " + it.Answer, float64(len(it.Answer)) / float64(len(it.Answer)+4)}, {"", 0},
		}
	})
	// 1,000 is 1000.
	it := rg.Item{Answer: "1000"}
	for _, c := range []scoreCase{{"1,000", 1}, {"1000.0", 1}, {"+1000", 1}, {"1000.5", 4.0 / 6}, {"10000", 0.8}} {
		if got := scoreInteger(c.answer, &it); got != c.want {
			t.Errorf("scoreInteger(%q) = %v, want %v", c.answer, got, c.want)
		}
	}
}

// TestNumberSequenceTerms: every sequence keeps reasoning-gym's bounds and
// the number of shown terms is within the options.
func TestNumberSequenceTerms(t *testing.T) {
	r := registry(t)
	for seed := range uint64(200) {
		_, e := rgtest.Reset(t, r, "rg:number_sequence", map[string]any{"min_terms": 5, "max_terms": 7}, seed)
		it := e.Item()
		terms := strings.Split(strings.TrimSuffix(it.Question, ", ?"), ", ")
		if len(terms) < 5 || len(terms) > 7 {
			t.Fatalf("seed %d: %d terms in %q", seed, len(terms), it.Question)
		}
		for _, s := range append(terms, it.Answer) {
			v, err := strconv.Atoi(s)
			if err != nil || v > 1000 || v < -1000 {
				t.Fatalf("seed %d: term %q", seed, s)
			}
		}
	}
	if got := floorDiv2(-3); got != -2 {
		t.Fatalf("-3 // 2 = %d, want -2 as in Python", got)
	}
}

func TestNeedleScore(t *testing.T) {
	checkScores(t, "rg:needle_haystack", nil, 5, func(it rg.Item) []scoreCase {
		a := it.Answer
		other := "Zoe"
		if a == other {
			other = "Adam"
		}
		return []scoreCase{
			{a, 1}, {strings.ToLower(a), 1}, {strings.ToUpper(a) + ".", 1}, {" " + a[:1] + " " + a[1:], 1},
			{other, 0}, {"", 0}, {a + " and " + other, 0},
		}
	})
}

// TestNeedleUnique: the asked verb and subject occur in exactly one
// statement, whose name is the answer.
func TestNeedleUnique(t *testing.T) {
	r := registry(t)
	for seed := range uint64(50) {
		_, e := rgtest.Reset(t, r, "rg:needle_haystack", map[string]any{"min_num_statements": 4000, "max_num_statements": 5000}, seed)
		it := e.Item()
		stack, q, _ := strings.Cut(it.Question, "\n")
		what := strings.TrimSuffix(strings.TrimPrefix(q, "Who "), "? Reply only with a name.")
		var who []string
		for _, s := range strings.Split(strings.TrimSuffix(stack, ". "), ". ") {
			name, rest, _ := strings.Cut(s, " ")
			if rest == what {
				who = append(who, name)
			}
		}
		if len(who) != 1 || who[0] != it.Answer {
			t.Fatalf("seed %d: %q is said of %v, answer %q", seed, what, who, it.Answer)
		}
	}
}

// TestFigletMatchesFiglet renders the golden words in every font and
// compares with what figlet 2.2.5 printed (figlet -w 100000, recorded in
// testdata/figlet.golden).
func TestFigletMatchesFiglet(t *testing.T) {
	fs := loadFonts()
	if fs.err != nil {
		t.Fatal(fs.err)
	}
	golden := readGolden(t)
	if len(golden) != 5*len(fs.names) {
		t.Fatalf("%d golden renderings for %d fonts", len(golden), len(fs.names))
	}
	for _, g := range golden {
		f := fs.byName[g.font]
		if f == nil {
			t.Fatalf("golden font %q not embedded", g.font)
		}
		if got := f.render(g.text); got != g.want {
			t.Errorf("%s %q:\ngot:\n%s\nfiglet:\n%s", g.font, g.text, got, g.want)
		}
	}
}

type goldenRender struct{ font, text, want string }

func readGolden(t *testing.T) []goldenRender {
	b, err := testdataFS.ReadFile("testdata/figlet.golden")
	if err != nil {
		t.Fatal(err)
	}
	var out []goldenRender
	for _, block := range strings.Split(string(b), "@@ ")[1:] {
		head, body, _ := strings.Cut(block, "\n")
		font, text, _ := strings.Cut(head, " ")
		out = append(out, goldenRender{font, text, body})
	}
	return out
}

func TestFigletScore(t *testing.T) {
	checkScores(t, "rg:figlet_font", map[string]any{"static_word": "HELLO"}, 0, func(it rg.Item) []scoreCase {
		return []scoreCase{
			{"HELLO", 1}, {"hello", 1}, {"H E L L O", 1}, {" Hello ", 1},
			{"HELLX", 0.4}, {"JELLO", 0.4}, {"HELL", 0.4}, {"HELLOS", 0.5}, {"WORLD", 0.1}, {"", 0}, {"OLLEH", 0.1},
		}
	})
	_, e := rgtest.Reset(t, registry(t), "rg:figlet_font", map[string]any{"static_word": "HI", "static_font": "standard", "space_letters": false}, 0)
	want := " _   _ ___ \n| | | |_ _|\n| |_| || | \n|  _  || | \n|_| |_|___|\n           \n"
	if q := e.Item().Question; !strings.HasSuffix(q, want) {
		t.Fatalf("question %q does not end in standard's HI", q)
	}
}

func TestRubikModel(t *testing.T) {
	solved := newCube(3)
	if got := solved.render(); got != strings.Repeat(" ", 9)+" Y  Y  Y "+strings.Repeat(" ", 18)+"\n"+
		strings.Repeat(" ", 9)+" Y  Y  Y "+strings.Repeat(" ", 18)+"\n"+
		strings.Repeat(" ", 9)+" Y  Y  Y "+strings.Repeat(" ", 18)+"\n"+
		strings.Repeat(" R  R  R  G  G  G  O  O  O  B  B  B \n", 3)+
		strings.Repeat(strings.Repeat(" ", 9)+" W  W  W "+strings.Repeat(" ", 18)+"\n", 3) {
		t.Fatalf("solved cube renders as\n%s", got)
	}
	moves := func(s string, n int) []cubeMove {
		m, err := parseMoves(s, n)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	// F turns the up face's bottom row to the right face and brings the
	// left face's right column up: that row is red (left's colour) now.
	c := newCube(3)
	c.apply(moves("F", 3))
	if u := c.grid(faces[0]); string(u[2]) != "RRR" || string(u[0]) != "YYY" {
		t.Fatalf("after F the up face is %q", u)
	}
	if r := c.grid(faces[3]); r[0][0] != 'Y' || r[2][0] != 'Y' || r[0][2] != 'O' {
		t.Fatalf("after F the right face is %q", r)
	}
	// R moves the front face's right column up.
	c = newCube(3)
	c.apply(moves("R", 3))
	if u := c.grid(faces[0]); u[0][2] != 'G' || u[2][2] != 'G' || u[0][0] != 'Y' {
		t.Fatalf("after R the up face is %q", u)
	}
	for _, tc := range []struct {
		moves string
		n     int
		done  bool
	}{
		{"R R R R", 3, true},
		{"U U' F F'", 3, true},
		{strings.Repeat("R U R' U' ", 6), 3, true},
		{strings.Repeat("R U R' U' ", 5), 3, false},
		{"X Y Z", 3, true},
		{"2R 2R'", 4, true},
		{"Rw R' 2R'", 4, true},
		{"3Rw R' 2R' 3R'", 5, true},
		{"Rw R'", 4, false},
	} {
		c := newCube(tc.n)
		c.apply(moves(tc.moves, tc.n))
		right, all := c.placed()
		if (right == all) != tc.done {
			t.Errorf("%q on %d×%d: solved %v, want %v", tc.moves, tc.n, tc.n, right == all, tc.done)
		}
	}
	for _, bad := range []string{"Q", "4R", "2X", "Rw2w", "U999999"} {
		if _, err := parseMoves(bad, 3); err == nil {
			t.Errorf("parseMoves(%q) accepted", bad)
		}
	}
}

func TestRubikScore(t *testing.T) {
	for _, size := range []int{3, 4} {
		checkScores(t, "rg:rubiks_cube", map[string]any{"cube_size": size}, 7, func(it rg.Item) []scoreCase {
			ref := strings.Fields(it.Answer)
			// Another solution: each counter-clockwise turn as three
			// clockwise ones, and a whole-cube rotation at the end.
			var other []string
			for _, m := range ref {
				if strings.HasSuffix(m, "'") {
					m = strings.TrimSuffix(m, "'")
					other = append(other, m, m, m)
				} else {
					other = append(other, m)
				}
			}
			alt := strings.Join(other, " ") + " Y"
			doubled := regexp.MustCompile(`(\S+) (\S+)`).ReplaceAllString(it.Answer, "$1, $2")
			return []scoreCase{
				{it.Answer, 1}, {alt, 1}, {strings.Join(ref, ",  "), 1}, {doubled, 1},
				{"Q", 0.01}, {it.Answer + " Q", 0.01},
			}
		})
	}
	// A wrong answer earns the fraction of placed stickers, at least 0.05.
	_, e := rgtest.Reset(t, registry(t), "rg:rubiks_cube", nil, 7)
	d := e.Item().Data.(rubikItem)
	c := newCube(3)
	c.apply(d.scramble)
	right, all := c.placed()
	want := max(0.01, float64(right)/float64(all))
	if got := e.Score(""); got != want {
		t.Fatalf("empty answer scores %v, want %v", got, want)
	}
	if got := e.Score("U U U U"); got != max(0.05, want) {
		t.Fatalf("no-op answer scores %v, want %v", got, max(0.05, want))
	}
}

func TestOptionErrors(t *testing.T) {
	r := registry(t)
	for id, cases := range map[string][]envtest.OptionCase{
		"rg:color_cube_rotation": {
			{Options: map[string]any{"min_rotations": 4, "max_rotations": 3}, Option: "max_rotations"},
			{Options: map[string]any{"min_rotations": 0}, Option: "min_rotations"},
			{Options: map[string]any{"max_rotations": 1001}, Option: "max_rotations"},
		},
		"rg:modulo_grid": {
			{Options: map[string]any{"size_x": 5}, Option: "size_x"},
			{Options: map[string]any{"max_divisor": 1}, Option: "max_divisor"},
			{Options: map[string]any{"max_holes": 0}, Option: "max_holes"},
			{Options: map[string]any{"holes": 3}, Option: "holes"},
		},
		"rg:rectangle_count": {
			{Options: map[string]any{"width": 9}, Option: "width"},
			{Options: map[string]any{"max_rectangles": 101}, Option: "max_rectangles"},
		},
		"rg:number_sequence": {
			{Options: map[string]any{"min_terms": 3}, Option: "min_terms"},
			{Options: map[string]any{"min_terms": 9, "max_terms": 8}, Option: "max_terms"},
			{Options: map[string]any{"min_value": 5, "max_value": 5}, Option: "max_value"},
			{Options: map[string]any{"max_complexity": 0}, Option: "max_complexity"},
		},
		"rg:needle_haystack": {
			{Options: map[string]any{"min_num_statements": 0}, Option: "min_num_statements"},
			{Options: map[string]any{"min_num_statements": 50, "max_num_statements": 40}, Option: "max_num_statements"},
			{Options: map[string]any{"max_num_statements": 5001}, Option: "max_num_statements"},
		},
		"rg:figlet_font": {
			{Options: map[string]any{"static_font": "term"}, Option: "static_font"},
			{Options: map[string]any{"static_word": "naïve"}, Option: "static_word"},
			{Options: map[string]any{"min_word_len": 8, "max_word_len": 7}, Option: "max_word_len"},
			{Options: map[string]any{"max_word_len": 11}, Option: "max_word_len"},
		},
		"rg:rubiks_cube": {
			{Options: map[string]any{"cube_size": 7}, Option: "cube_size"},
			{Options: map[string]any{"cube_size": 1}, Option: "cube_size"},
			{Options: map[string]any{"min_scramble_steps": 11}, Option: "max_scramble_steps"},
		},
	} {
		envtest.OptionErrors(t, r, id, cases)
	}
	envtest.OptionsAccepted(t, r, "rg:figlet_font", map[string]any{"static_font": "slant", "static_word": "Go 1.26!"})
}
