package cognition

import (
	"embed"
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games/words"
	"github.com/quarry-rl/quarry/envs/rg"
)

// The FIGlet fonts of Debian's figlet package (2.2.5) that reasoning-gym
// does not list as bad (it drops term, mnemonic and ivrit from this set):
// see PROVENANCE.md.
//
//go:embed data/fonts/*.flf
var fontFS embed.FS

// figFont is a parsed FIGlet font: the glyphs of the printable ASCII
// characters, each `height` rows, and the horizontal layout.
type figFont struct {
	name      string
	height    int
	hardblank byte
	layout    int // figlet's smush mode bits (smKern, smSmush, rules)
	glyphs    map[byte][]string
}

// Horizontal layout bits (the FIGfont 2 spec's full_layout).
const (
	smEqual     = 1
	smLowline   = 2
	smHierarchy = 4
	smPair      = 8
	smBigX      = 16
	smHardblank = 32
	smKern      = 64
	smSmush     = 128
)

type figFonts struct {
	names  []string
	byName map[string]*figFont
	digest string
	err    error
}

var loadFonts = sync.OnceValue(func() figFonts {
	var fs figFonts
	fs.byName = map[string]*figFont{}
	entries, err := fontFS.ReadDir("data/fonts")
	if err != nil {
		fs.err = err
		return fs
	}
	var raw [][]byte
	for _, e := range entries {
		b, err := fontFS.ReadFile(path.Join("data/fonts", e.Name()))
		if err != nil {
			fs.err = err
			return fs
		}
		name := strings.TrimSuffix(e.Name(), ".flf")
		f, err := parseFont(name, string(b))
		if err != nil {
			fs.err = fmt.Errorf("font %s: %w", name, err)
			return fs
		}
		fs.names = append(fs.names, name)
		fs.byName[name] = f
		raw = append(raw, b)
	}
	slices.Sort(fs.names)
	fs.digest = envs.Digest(raw...)
	return fs
})

// parseFont reads a FIGlet 2 font's header and its printable ASCII glyphs.
func parseFont(name, text string) (*figFont, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "flf2a") || len(lines[0]) < 6 {
		return nil, errors.New("not a FIGlet 2 font")
	}
	f := &figFont{name: name, hardblank: lines[0][5], glyphs: map[byte][]string{}}
	fields := strings.Fields(lines[0][6:])
	nums := make([]int, len(fields))
	for i, s := range fields {
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("header field %d: %w", i+2, err)
		}
		nums[i] = n
	}
	if len(nums) < 5 {
		return nil, errors.New("short header")
	}
	f.height = nums[0]
	old, comments := nums[3], nums[4]
	switch {
	case len(nums) >= 7:
		f.layout = nums[6]
	case old == 0:
		f.layout = smKern
	case old < 0:
		f.layout = 0
	default:
		f.layout = old&31 | smSmush
	}
	at := 1 + comments
	for ch := 32; ch <= 126; ch++ {
		if at+f.height > len(lines) {
			return nil, fmt.Errorf("glyph %q truncated", rune(ch))
		}
		rows := make([]string, f.height)
		for r := range f.height {
			row := strings.TrimRight(lines[at+r], " ")
			if row == "" {
				return nil, fmt.Errorf("glyph %q row %d has no end mark", rune(ch), r)
			}
			mark := row[len(row)-1]
			rows[r] = strings.TrimRight(row, string(mark))
		}
		f.glyphs[byte(ch)] = rows
		at += f.height
	}
	return f, nil
}

// render writes text in the font as figlet 2.2 does without a width limit
// (figlet -w ∞): glyphs placed left to right, each moved left as far as
// the font's layout allows (fitting, or smushing by its rules), hardblanks
// printed as spaces.
func (f *figFont) render(text string) string {
	out := make([][]byte, f.height)
	prevWidth := 0
	for i := 0; i < len(text); i++ {
		g, ok := f.glyphs[text[i]]
		if !ok {
			continue
		}
		width := len(g[0])
		amount := f.smushAmount(out, g, prevWidth, width)
		for r := range f.height {
			row := out[r]
			for k := range amount {
				col := len(row) - amount + k
				if col < 0 {
					continue
				}
				row[col] = f.smush(row[col], g[r][k], prevWidth, width)
			}
			if amount <= len(g[r]) {
				row = append(row, g[r][amount:]...)
			}
			out[r] = row
		}
		prevWidth = width
	}
	var b strings.Builder
	for _, row := range out {
		b.WriteString(strings.ReplaceAll(string(row), string(f.hardblank), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// smushAmount is how many columns the next glyph moves into the output:
// the least, over the rows, of the blank gap between the two, plus one
// where the facing characters smush.
func (f *figFont) smushAmount(out [][]byte, g []string, prevWidth, width int) int {
	if f.layout&(smSmush|smKern) == 0 {
		return 0
	}
	best := width
	for r := range f.height {
		line := out[r]
		lineBd := len(line) - 1
		for lineBd >= 0 && line[lineBd] == ' ' {
			lineBd--
		}
		var ch1 byte
		if lineBd >= 0 {
			ch1 = line[lineBd]
		} else {
			lineBd = 0
		}
		charBd := 0
		for charBd < len(g[r]) && g[r][charBd] == ' ' {
			charBd++
		}
		var ch2 byte
		if charBd < len(g[r]) {
			ch2 = g[r][charBd]
		}
		amt := charBd + len(line) - 1 - lineBd
		switch {
		case ch1 == 0 || ch1 == ' ':
			amt++
		case ch2 != 0 && f.smush(ch1, ch2, prevWidth, width) != 0:
			amt++
		}
		best = min(best, amt)
	}
	return best
}

// smush is figlet's smushem: the character two facing characters become,
// or 0 when they cannot share a column.
func (f *figFont) smush(l, r byte, prevWidth, width int) byte {
	switch {
	case l == ' ' || l == 0:
		return r
	case r == ' ' || r == 0:
		return l
	case prevWidth < 2 || width < 2:
		return 0
	case f.layout&smSmush == 0:
		return 0
	case f.layout&63 == 0: // universal smushing
		if l == f.hardblank {
			return r
		}
		if r == f.hardblank {
			return l
		}
		return r
	}
	m, hb := f.layout, f.hardblank
	if m&smHardblank != 0 && l == hb && r == hb {
		return l
	}
	if l == hb || r == hb {
		return 0
	}
	if m&smEqual != 0 && l == r {
		return l
	}
	in := func(c byte, set string) bool { return strings.IndexByte(set, c) >= 0 }
	if m&smLowline != 0 {
		if l == '_' && in(r, `|/\[]{}()<>`) {
			return r
		}
		if r == '_' && in(l, `|/\[]{}()<>`) {
			return l
		}
	}
	if m&smHierarchy != 0 {
		for _, c := range []struct{ a, b string }{{"|", `/\[]{}()<>`}, {`/\`, "[]{}()<>"}, {"[]", "{}()<>"}, {"{}", "()<>"}, {"()", "<>"}} {
			if in(l, c.a) && in(r, c.b) {
				return r
			}
			if in(r, c.a) && in(l, c.b) {
				return l
			}
		}
	}
	if m&smPair != 0 {
		switch string([]byte{l, r}) {
		case "[]", "][", "{}", "}{", "()", ")(":
			return '|'
		}
	}
	if m&smBigX != 0 {
		switch string([]byte{l, r}) {
		case `/\`:
			return '|'
		case `\/`:
			return 'Y'
		case "><":
			return 'X'
		}
	}
	return 0
}

// FigletOptions are reasoning-gym's FigletFontConfig fields. Words come
// from Quarry's common English words (envs/games/words), 3 to 10 letters,
// so the lengths are bounded by that list (reasoning-gym's curriculum
// reaches 30 letters with its anagram list). static_font must name one of
// the embedded fonts.
type FigletOptions struct {
	StaticWord   string `json:"static_word" len:"0,32"`
	StaticFont   string `json:"static_font" len:"0,32"`
	MinWordLen   int    `json:"min_word_len" range:"3,10"`
	MaxWordLen   int    `json:"max_word_len" range:"3,10"`
	SpaceLetters bool   `json:"space_letters"`
}

// Validate checks the word lengths and that static_font and static_word
// can be drawn.
func (o FigletOptions) Validate() error {
	if err := rg.MinMax("min_word_len", "max_word_len", o.MinWordLen, o.MaxWordLen); err != nil {
		return err
	}
	fs := loadFonts()
	if fs.err != nil {
		return fs.err
	}
	if o.StaticFont != "" && fs.byName[o.StaticFont] == nil {
		return &envs.OptionError{Option: "static_font", Reason: fmt.Sprintf("%q is not a font; want one of %s", o.StaticFont, strings.Join(fs.names, ", "))}
	}
	for i := 0; i < len(o.StaticWord); i++ {
		if c := o.StaticWord[i]; c < 32 || c > 126 {
			return &envs.OptionError{Option: "static_word", Reason: "only printable ASCII characters can be drawn"}
		}
	}
	return nil
}

var figletTemplates = []string{
	"What word does this say?\n\n",
	"Please read the following figlet font:\n\n",
}

// FigletFont is rg:figlet_font: read a word drawn in a FIGlet font.
var FigletFont = rg.Task[FigletOptions]{
	Name:        "figlet_font",
	Description: "reasoning-gym figlet_font: read an upper-case word drawn in a FIGlet font.",
	Revision:    1,
	DataDigest:  envs.Digest([]byte(loadFonts().digest), []byte(words.Digest())),
	Defaults:    FigletOptions{MinWordLen: 3, MaxWordLen: 7, SpaceLetters: true},
	Generate:    generateFiglet,
	Score:       scoreFiglet,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		n := len(it.Answer)
		ws := words.Words(min(max(n, words.MinLength), words.MaxLength))
		return strings.ToUpper(ws[rng.IntN(len(ws))])
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, score float64) string {
		return fmt.Sprintf("That is not the word (%d letters in the right place).", int(score*10+0.5))
	},
}

func generateFiglet(rng *rand.Rand, o FigletOptions) (rg.Item, error) {
	fs := loadFonts()
	if fs.err != nil {
		return rg.Item{}, fs.err
	}
	word := o.StaticWord
	if word == "" {
		n := rg.Between(rng, o.MinWordLen, o.MaxWordLen)
		ws := words.Words(n)
		if len(ws) == 0 {
			return rg.Item{}, fmt.Errorf("figlet_font: no words of %d letters", n)
		}
		word = strings.ToUpper(ws[rng.IntN(len(ws))])
	}
	shown := word
	if o.SpaceLetters {
		shown = strings.Join(strings.Split(word, ""), " ")
	}
	font := o.StaticFont
	if font == "" {
		font = fs.names[rng.IntN(len(fs.names))]
	}
	render := fs.byName[font].render(shown)
	return rg.Item{
		Question: figletTemplates[rng.IntN(len(figletTemplates))] + render,
		Answer:   word,
		Meta:     map[string]any{"font": font, "space_letters": o.SpaceLetters},
	}, nil
}

// scoreFiglet is reasoning-gym's: the word, case and spaces ignored, scores
// 1; otherwise 0.1 for each letter in the right place, at most 1.
func scoreFiglet(answer string, it *rg.Item) float64 {
	a := []rune(strings.ToLower(strings.ReplaceAll(answer, " ", "")))
	w := []rune(strings.ToLower(strings.TrimSpace(it.Answer)))
	if string(a) == string(w) {
		return 1
	}
	right := 0
	for i := range min(len(a), len(w)) {
		if a[i] == w[i] {
			right++
		}
	}
	return min(float64(right)*0.1, 1)
}
