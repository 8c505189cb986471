package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const qaPath = "../../../tools/search/testdata/qa.jsonl"

// The committed samples are exactly what the generator writes: rerun
// go generate ./envs/qaenv after changing it (or the search tool's QA pairs).
func TestSamplesUpToDate(t *testing.T) {
	files, err := generate(1, qaPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		committed, err := os.ReadFile(filepath.Join("..", "samples", f.name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(committed, f.data) {
			t.Errorf("samples/%s is stale: run go generate ./envs/qaenv", f.name)
		}
	}
	again, err := generate(1, qaPath)
	if err != nil {
		t.Fatal(err)
	}
	other, err := generate(2, qaPath)
	if err != nil {
		t.Fatal(err)
	}
	for i := range files {
		if !bytes.Equal(files[i].data, again[i].data) {
			t.Errorf("%s: two runs differ", files[i].name)
		}
		if i > 0 && bytes.Equal(files[i].data, other[i].data) {
			t.Errorf("%s: seeds 1 and 2 gave the same rule bases", files[i].name)
		}
	}
}

var (
	factRe  = regexp.MustCompile(`^(\w+) is (\w+)\.$`)
	allRe   = regexp.MustCompile(`^All (\w+) people are (\w+)\.$`)
	anyRe   = regexp.MustCompile(`^If someone is (.+) then they are (\w+)\.$`)
	ownRe   = regexp.MustCompile(`^If (.+) then (\w+) is (\w+)\.$`)
	stmtRe  = regexp.MustCompile(`^Statement: (\w+) is (not )?(\w+)\.$`)
	ownPrem = regexp.MustCompile(`^(\w+) is (\w+)$`)
)

// solve re-derives a rule base's answer from its text alone, by naive
// fixpoint iteration, and the depth of the statement's fact (-1 when it
// cannot be derived).
func solve(t *testing.T, q string) (answer string, depth int) {
	t.Helper()
	type rl struct {
		who  string
		prem []string
		then string
	}
	known := map[[2]string]int{}
	var rules []rl
	var people []string
	var stmt []string
	section := ""
	for _, line := range strings.Split(q, "\n") {
		switch {
		case line == "Facts:" || line == "Rules:":
			section = line
		case line == "" || strings.HasPrefix(line, "Anything") || strings.HasPrefix(line, "Is the statement"):
		case stmtRe.MatchString(line):
			stmt = stmtRe.FindStringSubmatch(line)
		case section == "Facts:":
			m := factRe.FindStringSubmatch(line)
			if m == nil {
				t.Fatalf("fact %q", line)
			}
			known[[2]string{m[1], m[2]}] = 0
			people = append(people, m[1])
		case allRe.MatchString(line):
			m := allRe.FindStringSubmatch(line)
			rules = append(rules, rl{prem: []string{m[1]}, then: m[2]})
		case anyRe.MatchString(line):
			m := anyRe.FindStringSubmatch(line)
			rules = append(rules, rl{prem: strings.Split(m[1], " and "), then: m[2]})
		case ownRe.MatchString(line):
			m := ownRe.FindStringSubmatch(line)
			r := rl{who: m[2], then: m[3]}
			for _, p := range strings.Split(m[1], " and ") {
				pm := ownPrem.FindStringSubmatch(p)
				if pm == nil || pm[1] != r.who {
					t.Fatalf("rule %q", line)
				}
				r.prem = append(r.prem, pm[2])
			}
			rules = append(rules, r)
		default:
			t.Fatalf("unparsed line %q", line)
		}
	}
	if stmt == nil {
		t.Fatalf("no statement in %q", q)
	}
	for round := 1; ; round++ {
		next := map[[2]string]int{}
		for _, r := range rules {
			for _, p := range people {
				if r.who != "" && r.who != p {
					continue
				}
				ok := true
				for _, a := range r.prem {
					if _, in := known[[2]string{p, a}]; !in {
						ok = false
					}
				}
				if _, in := known[[2]string{p, r.then}]; ok && !in {
					next[[2]string{p, r.then}] = round
				}
			}
		}
		if len(next) == 0 {
			break
		}
		for k, v := range next {
			known[k] = v
		}
	}
	d, holds := known[[2]string{stmt[1], stmt[3]}]
	if !holds {
		d = -1
	}
	if negated := stmt[2] != ""; holds != negated {
		return "True", d
	}
	return "False", d
}

// Every rule base's answer follows from its text, and a derivable
// statement has exactly the row's depth; each file holds every depth up to
// its own, and both answers.
func TestRuleTakerAnswers(t *testing.T) {
	files, err := generate(1, qaPath)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range Depths {
		f := files[i+1]
		depths := map[int]bool{}
		answers := map[string]int{}
		for n, line := range bytes.Split(bytes.TrimSpace(f.data), []byte("\n")) {
			var p problem
			if err := json.Unmarshal(line, &p); err != nil {
				t.Fatal(err)
			}
			got, depth := solve(t, p.Question)
			if got != p.Answer {
				t.Fatalf("%s row %d: answer %s, the rules give %s:\n%s", f.name, n, p.Answer, got, p.Question)
			}
			if depth >= 0 && depth != p.Depth {
				t.Fatalf("%s row %d: depth %d, the statement needs %d", f.name, n, p.Depth, depth)
			}
			if p.Depth > d {
				t.Fatalf("%s row %d: depth %d", f.name, n, p.Depth)
			}
			depths[p.Depth] = true
			answers[p.Answer]++
		}
		if len(depths) != d+1 || answers["True"] < 8 || answers["False"] < 8 {
			t.Fatalf("%s: depths %v, answers %v", f.name, depths, answers)
		}
	}
}

func TestConvertQA(t *testing.T) {
	in := `{"question":"In what year was X founded?","answer":"1590","doc_id":"3"}` + "\n\n" +
		`{"question":"Who founded X?","answer":"A B","doc_id":"4"}` + "\n"
	got, err := convertQA([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"problem":"In what year was X founded?","question":"In what year was X founded?","answer":["1590","in 1590"],"doc_id":"3"}` + "\n" +
		`{"problem":"Who founded X?","question":"Who founded X?","answer":"A B","doc_id":"4"}` + "\n"
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := convertQA([]byte(`{"question":"q"}`)); err == nil {
		t.Fatal("a pair without an answer was accepted")
	}
}
