package envs

import (
	"regexp"
	"strings"
)

// LastBoxed returns the contents of the last \boxed{…} (or \fbox{…}) in s,
// with nested braces balanced, as GEM's extract_last_boxed_answer does. ok is
// false when there is none or its braces never close.
func LastBoxed(s string) (content string, ok bool) {
	idx := strings.LastIndex(s, `\boxed`)
	if idx < 0 {
		idx = strings.LastIndex(s, `\fbox`)
		if idx < 0 {
			return "", false
		}
	}
	depth, open := 0, -1
	for i := idx; i < len(s); i++ {
		switch s[i] {
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			depth--
			if depth == 0 {
				// GEM requires the form \boxed{…} exactly (remove_boxed).
				if !strings.HasPrefix(s[idx:], `\boxed{`) || open != idx+len(`\boxed`) {
					return "", false
				}
				return s[open+1 : i], true
			}
		}
	}
	return "", false
}

// LastMatch returns the submatches of the last non-overlapping match of re in
// s, or nil. GEM's games take their action this way: the last \boxed{…} whose
// contents fit the game's action pattern.
func LastMatch(re *regexp.Regexp, s string) []string {
	all := re.FindAllStringSubmatch(s, -1)
	if len(all) == 0 {
		return nil
	}
	return all[len(all)-1]
}
