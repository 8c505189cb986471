package codecheck

import (
	"regexp"
	"strings"
)

// codeBlockRE is GEM's ```(?:\w+)?\n(.*?)``` with re.DOTALL. Python's \w on
// str is Unicode-aware (letters, numbers, underscore); Go's \w is ASCII only,
// hence the explicit class. Go's regexp prefers matches in the same order as
// Python's backtracking engine (leftmost-first, lazy .*?), so FindAll yields
// the same non-overlapping blocks re.findall does.
var codeBlockRE = regexp.MustCompile("(?s)```([\\p{L}\\p{N}_]+)?\\n(.*?)```")

// LastCodeBlock returns the program GEM's code envs grade: the body of the
// last fenced block of response, stripped of leading and trailing whitespace
// as Python's str.strip does, and the block's language tag (empty for a bare
// fence). Any tag counts, not only python: GEM runs whatever the last block
// holds as Python. The tag must be a single word followed directly by a
// newline, so "``` python" or "```c++" do not open a block. ok is false when
// the response has no block (GEM's −0.1 case); an empty block is ok with
// empty code.
//
// Blocks are found left to right without overlap, so a stray fence shifts
// the pairing exactly as it does in GEM.
func LastCodeBlock(response string) (code, lang string, ok bool) {
	ms := codeBlockRE.FindAllStringSubmatchIndex(response, -1)
	if len(ms) == 0 {
		return "", "", false
	}
	m := ms[len(ms)-1]
	if m[2] >= 0 {
		lang = response[m[2]:m[3]]
	}
	return pyStrip(response[m[4]:m[5]]), lang, true
}

// pyStrip is Python's str.strip() without arguments: it trims the characters
// str.isspace() accepts, which include the ASCII separators \x1c–\x1f that
// Go's unicode.IsSpace does not.
func pyStrip(s string) string { return strings.TrimFunc(s, pyIsSpace) }

func pyIsSpace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r >= 0x1c && r <= ' ', r == 0x85, r == 0xa0, r == 0x1680:
		return true
	case r >= 0x2000 && r <= 0x200a, r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}
