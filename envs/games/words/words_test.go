package words

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
)

// goldenDigest pins the embedded data. Rebuilding words.tsv.gz changes it:
// update it here and bump the Revision of every env that uses the words.
const goldenDigest = "4a24a878c70c8aa2"

func TestDigest(t *testing.T) {
	if got := Digest(); got != goldenDigest {
		t.Fatalf("Digest() = %s, want %s: the embedded data changed", got, goldenDigest)
	}
	if Digest() != envs.Digest(raw) {
		t.Fatal("Digest is not envs.Digest of the embedded bytes")
	}
}

var lowerAZ = regexp.MustCompile(`^[a-z]+$`)

func checkPool(t *testing.T, name string, pool func(int) []string, atLeast int) {
	t.Helper()
	for n := MinLength; n <= MaxLength; n++ {
		ws := pool(n)
		if len(ws) < atLeast {
			t.Errorf("%s(%d): %d words, want at least %d", name, n, len(ws), atLeast)
		}
		for i, w := range ws {
			if len(w) != n || !lowerAZ.MatchString(w) {
				t.Fatalf("%s(%d)[%d] = %q: not %d lowercase letters a–z", name, n, i, w, n)
			}
			if i > 0 && ws[i-1] >= w {
				t.Fatalf("%s(%d): %q then %q: not sorted and unique", name, n, ws[i-1], w)
			}
			if !IsWord(w) {
				t.Fatalf("%s(%d): %q is not in the dictionary", name, n, w)
			}
		}
	}
	for _, n := range []int{-1, 0, 1, 2, MaxLength + 1, 100} {
		if ws := pool(n); ws != nil {
			t.Errorf("%s(%d) = %d words, want none", name, n, len(ws))
		}
	}
}

func TestPools(t *testing.T) {
	checkPool(t, "Words", Words, 250)
	checkPool(t, "Extended", Extended, 500)
	for n := MinLength; n <= MaxLength; n++ {
		common, ext := Words(n), Extended(n)
		if len(ext) <= len(common) {
			t.Errorf("length %d: Extended has %d words, Words %d: not larger", n, len(ext), len(common))
		}
		for _, w := range common {
			if _, ok := slices.BinarySearch(ext, w); !ok {
				t.Fatalf("common word %q is missing from Extended(%d)", w, n)
			}
		}
	}
}

func TestKnownWords(t *testing.T) {
	for _, w := range []string{"dog", "cat", "house", "running", "table"} {
		if !slices.Contains(Words(len(w)), w) {
			t.Errorf("%q missing from Words", w)
		}
	}
	for _, w := range []string{"dogs", "walked", "zebras"} { // inflections: real words, not secrets
		if !IsWord(w) {
			t.Errorf("IsWord(%q) = false", w)
		}
		if slices.Contains(Extended(len(w)), w) {
			t.Errorf("inflection %q is in Extended", w)
		}
	}
	for _, w := range []string{"zebra", "aardvark"} {
		if !slices.Contains(Extended(len(w)), w) || slices.Contains(Words(len(w)), w) {
			t.Errorf("%q: want Extended but not Words", w)
		}
	}
	// Proper nouns, too short or long, not letters, not lowercase, not words.
	for _, w := range []string{"paris", "texas", "an", "incomprehensibilities", "x-ray", "Dog", "dog\n", "qzxv", ""} {
		if IsWord(w) {
			t.Errorf("IsWord(%q) = true", w)
		}
	}
}

var tokenRE = regexp.MustCompile(`[a-z]+`)

func TestClues(t *testing.T) {
	masked := 0
	for n := MinLength; n <= MaxLength; n++ {
		for _, w := range Words(n) {
			c, ok := Clue(w)
			if !ok || len(tokenRE.FindAllString(strings.ToLower(c), -1)) < 2 {
				t.Fatalf("Clue(%q) = %q, %v: want a clue of two words or more", w, c, ok)
			}
			if strings.Contains(strings.ToLower(c), w) {
				t.Errorf("Clue(%q) = %q gives the word away", w, c)
			}
			if strings.ContainsAny(c, "\t\n") || len(c) > 72 {
				t.Errorf("Clue(%q) = %q: not a short single line", w, c)
			}
			if strings.Contains(c, Mask) {
				masked++
			}
		}
	}
	if masked == 0 {
		t.Error("no clue has a masked form: masking was lost")
	}
	for _, w := range []string{"zebra", "dogs", "zzz", ""} {
		if c, ok := Clue(w); ok || c != "" {
			t.Errorf("Clue(%q) = %q, %v; want none (not a common word)", w, c, ok)
		}
	}
}

func TestSharedSlicesAreClipped(t *testing.T) {
	ws := Words(5)
	if cap(ws) != len(ws) {
		t.Fatalf("Words(5) has spare capacity %d: a caller's append would write into shared data", cap(ws)-len(ws))
	}
}

func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func TestParse(t *testing.T) {
	lx, err := parse(gz("abc\tc\tfirst three\nabcd\tx\nabcde\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lx.common[3], []string{"abc"}) || !slices.Equal(lx.extended[4], []string{"abcd"}) ||
		!slices.Equal(lx.dictionary[5], []string{"abcde"}) || lx.clues["abc"] != "first three" || len(lx.common[4]) != 0 {
		t.Fatalf("parse gave %+v", lx)
	}
	for _, bad := range []string{
		"abd\nabc\n",       // unsorted
		"abc\nabc\n",       // duplicate
		"Abc\n",            // capital
		"ab\n",             // too short
		"abc\tc\n",         // common without clue
		"abc\tq\n",         // unknown pool
		"abc\n\nabd\n",     // empty line
		"abcdefghijk\tx\n", // too long
	} {
		if _, err := parse(gz(bad)); err == nil {
			t.Errorf("parse(%q) accepted bad data", bad)
		}
	}
	if _, err := parse([]byte("not gzip")); err == nil {
		t.Error("parse accepted data that is not gzip")
	}
}

func ExampleClue() {
	clue, _ := Clue("house")
	fmt.Println(len(Words(5)) > 1000, clue)
	// Output: true a dwelling that serves as living quarters for one or more families
}

func BenchmarkIsWord(b *testing.B) {
	IsWord("warm") // parse outside the timing
	b.ReportAllocs()
	for b.Loop() {
		IsWord("crane")
	}
}
