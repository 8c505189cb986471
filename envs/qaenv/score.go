package qaenv

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Normalize is GEM's normalize_answer (gem/utils/qa_em.py, the SQuAD
// normalisation): lower case, drop ASCII punctuation (Python's
// string.punctuation, deleted rather than replaced, so "Jean-Luc" becomes
// "jeanluc"), replace the words "a", "an" and "the" by a space, and collapse
// whitespace runs to single spaces, trimmed.
//
// Word boundaries follow Python's Unicode \b: a word is a run of letters,
// digits and underscores in any script, so the "a" in "éa" is not a word.
// Whitespace is Python's str.split's, which adds the ASCII separators
// U+001C–U+001F to Go's unicode.IsSpace.
func Normalize(s string) string {
	s = strings.ToLower(s)
	var b strings.Builder
	b.Grow(len(s))
	// The text is a sequence of words (runs of word characters, with any
	// punctuation inside them already deleted), whitespace and other
	// characters (symbols, combining marks), which are kept as they are.
	// Whitespace and articles both become one separator, written only
	// between two kept pieces.
	var buf [64]byte
	word := buf[:0]
	sep := false
	put := func(piece []byte) {
		if sep && b.Len() > 0 {
			b.WriteByte(' ')
		}
		sep = false
		b.Write(piece)
	}
	flush := func() {
		switch string(word) {
		case "":
		case "a", "an", "the":
			sep = true
		default:
			put(word)
		}
		word = word[:0]
	}
	var rb [utf8.UTFMax]byte
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf && isPunct[r]:
			// Deleted before articles are found: "(the)" is an article,
			// and so is "t.he".
		case isWord(r):
			word = utf8.AppendRune(word, r)
		case isSpace(r):
			flush()
			sep = true
		default:
			flush()
			put(rb[:utf8.EncodeRune(rb[:], r)])
		}
	}
	flush()
	return b.String()
}

// isPunct marks Python's string.punctuation.
var isPunct = func() (t [0x80]bool) {
	for _, c := range "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~" {
		t[c] = true
	}
	return t
}()

// isWord is Python's Unicode \w (underscore is punctuation and deleted
// before it matters).
func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

// isSpace is Python's str.isspace as str.split uses it.
func isSpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// ExactMatch reports whether answer equals any gold after Normalize (GEM's
// em_check).
func ExactMatch(answer string, golds []string) bool {
	a := Normalize(answer)
	for _, g := range golds {
		if Normalize(g) == a {
			return true
		}
	}
	return false
}

// F1 is the SQuAD token F1 of answer against the best-matching gold: tokens
// are the words of the normalised texts, counted as a multiset; precision is
// the shared count over the answer's tokens, recall over the gold's. Two
// texts that both normalise to nothing score 1 (they are an exact match);
// one empty side scores 0. With no golds it is 0.
func F1(answer string, golds []string) float64 {
	pred := strings.Fields(Normalize(answer))
	best := 0.0
	for _, g := range golds {
		if f := tokenF1(pred, strings.Fields(Normalize(g))); f > best {
			best = f
		}
	}
	return best
}

func tokenF1(pred, gold []string) float64 {
	if len(pred) == 0 || len(gold) == 0 {
		if len(pred) == len(gold) {
			return 1
		}
		return 0
	}
	counts := make(map[string]int, len(gold))
	for _, t := range gold {
		counts[t]++
	}
	common := 0
	for _, t := range pred {
		if counts[t] > 0 {
			counts[t]--
			common++
		}
	}
	if common == 0 {
		return 0
	}
	p := float64(common) / float64(len(pred))
	r := float64(common) / float64(len(gold))
	return 2 * p * r / (p + r)
}

// lastTagged is GEM's extract_last_tagged_answer: the contents of the last
// non-overlapping <answer>…</answer> (matched leftmost and shortest, as
// Python's re.finditer with .*? and DOTALL does), trimmed of whitespace.
func lastTagged(s string) (string, bool) {
	const open, close = "<answer>", "</answer>"
	found := false
	var last string
	for {
		i := strings.Index(s, open)
		if i < 0 {
			break
		}
		s = s[i+len(open):]
		j := strings.Index(s, close)
		if j < 0 {
			break
		}
		last, found = s[:j], true
		s = s[j+len(close):]
	}
	return strings.TrimFunc(last, isSpace), found
}

// golds reads a row's ground truth as GEM's check_correct does: a scalar is
// one acceptable answer, a list holds several; each is rendered as Python's
// str() would (integers plainly, True/False capitalised).
func golds(v any) ([]string, error) {
	switch v := v.(type) {
	case []any:
		if len(v) == 0 {
			return nil, fmt.Errorf("answer list is empty")
		}
		out := make([]string, len(v))
		for i, x := range v {
			s, err := scalar(x)
			if err != nil {
				return nil, fmt.Errorf("answer %d: %w", i, err)
			}
			out[i] = s
		}
		return out, nil
	case []string:
		if len(v) == 0 {
			return nil, fmt.Errorf("answer list is empty")
		}
		return v, nil
	default:
		s, err := scalar(v)
		if err != nil {
			return nil, err
		}
		return []string{s}, nil
	}
}

func scalar(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case []byte:
		return string(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case int:
		return strconv.Itoa(v), nil
	case float64:
		s := strconv.FormatFloat(v, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eEn") { // Python's str(2.0) is "2.0"
			s += ".0"
		}
		return s, nil
	case bool:
		if v {
			return "True", nil
		}
		return "False", nil
	case nil:
		return "", fmt.Errorf("answer is null")
	default:
		return "", fmt.Errorf("answer has unsupported type %T", v)
	}
}
