package deploycheck

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// Instruction is one Dockerfile instruction, continuation lines joined.
type Instruction struct {
	Line int    // where it starts, 1-based
	Cmd  string // upper case: FROM, RUN, COPY…
	Args string
}

// ParseDockerfile splits a Dockerfile into instructions, dropping comments
// and joining lines that end in a backslash.
func ParseDockerfile(data string) []Instruction {
	var out []Instruction
	var cur *Instruction
	for i, line := range strings.Split(data, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "#") || (trimmed == "" && cur == nil) {
			continue
		}
		cont := strings.HasSuffix(trimmed, "\\")
		trimmed = strings.TrimSpace(strings.TrimSuffix(trimmed, "\\"))
		if cur == nil {
			cmd, args, _ := strings.Cut(trimmed, " ")
			out = append(out, Instruction{Line: i + 1, Cmd: strings.ToUpper(cmd), Args: strings.TrimSpace(args)})
			cur = &out[len(out)-1]
		} else if trimmed != "" {
			cur.Args += " " + trimmed
		}
		if !cont {
			cur = nil
		}
	}
	return out
}

// Image is what the Dockerfile's final stage holds.
type Image struct {
	Binaries   map[string]bool // Quarry commands in /usr/local/bin
	Packages   map[string]bool // Debian packages installed
	Entrypoint []string
	User       string // the last USER, "" when none (root)
}

// BinDir is where the image puts Quarry's commands.
const BinDir = "/usr/local/bin"

// sandboxPackages are what the sandbox runs (scripts/deps/bubblewrap.sh)
// and the init that reaps what a killed sandbox leaves.
var sandboxPackages = []string{"bubblewrap", "python3", "util-linux", "tini"}

// CheckDockerfile checks the image against the repository: the builder's
// Go is go.mod's, every built package is a command under cmd/, the final
// stage holds the built binaries, the sandbox's packages and an entrypoint
// that exists, and runs as root (the sandbox switches to slot uids).
func CheckDockerfile(data string, r Repo) (Image, error) {
	img := Image{Binaries: map[string]bool{}, Packages: map[string]bool{}}
	var errs []error
	built := map[string]bool{}
	stage := 0
	for _, in := range ParseDockerfile(data) {
		where := fmt.Sprintf("Dockerfile:%d", in.Line)
		switch in.Cmd {
		case "FROM":
			stage++
			if stage == 1 && !strings.HasPrefix(in.Args, "golang:"+r.GoVersion+"-") {
				errs = append(errs, fmt.Errorf("%s: the build stage is %q; want golang:%s-… (go.mod's go directive)", where, in.Args, r.GoVersion))
			}
			img.User = ""
		case "RUN":
			errs = append(errs, dockerRun(where, in.Args, r, built, img.Packages)...)
		case "COPY":
			errs = append(errs, dockerCopy(where, in.Args, built, img.Binaries)...)
		case "USER":
			img.User = in.Args
		case "ENTRYPOINT":
			if err := json.Unmarshal([]byte(in.Args), &img.Entrypoint); err != nil {
				errs = append(errs, fmt.Errorf("%s: ENTRYPOINT %s: want the exec form (a JSON array) so signals reach the process: %v", where, in.Args, err))
			}
		}
	}
	for _, p := range sandboxPackages {
		if !img.Packages[p] {
			errs = append(errs, fmt.Errorf("Dockerfile: the final stage does not install %s, which the sandbox needs", p))
		}
	}
	if img.User != "" && img.User != "root" && img.User != "0" && !strings.HasPrefix(img.User, "0:") {
		errs = append(errs, fmt.Errorf("Dockerfile: USER %s: the sandbox must run as root to switch each run to its slot uid (see deploy/README.md)", img.User))
	}
	errs = append(errs, img.checkCommand("Dockerfile: ENTRYPOINT", img.Entrypoint)...)
	if len(img.Binaries) == 0 {
		errs = append(errs, fmt.Errorf("Dockerfile: no Quarry binary is copied into %s", BinDir))
	}
	return img, joinErrs(errs)
}

// dockerRun reads the go build and apt-get install commands of a RUN.
func dockerRun(where, args string, r Repo, built, packages map[string]bool) []error {
	var errs []error
	for _, step := range strings.Split(args, "&&") {
		f := strings.Fields(step)
		if i := slices.Index(f, "build"); i > 0 && strings.HasSuffix(f[i-1], "go") {
			out := "."
			for j, a := range f[i+1:] {
				switch {
				case a == "-o" && i+j+2 < len(f):
					out = f[i+j+2]
				case strings.HasPrefix(a, "./cmd/"):
					name := path.Base(a)
					if _, ok := r.Binaries[name]; !ok {
						errs = append(errs, fmt.Errorf("%s: builds %s, which is not a command under cmd/ (have %s)", where, a, keys(r.Binaries)))
					}
					if strings.HasSuffix(out, "/") {
						built[path.Join(out, name)] = true
					} else {
						built[out] = true // -o names the file
					}
				}
			}
		}
		if i := slices.Index(f, "install"); i > 0 && strings.HasSuffix(f[i-1], "apt-get") {
			for _, p := range f[i+1:] {
				if !strings.HasPrefix(p, "-") {
					packages[p] = true
				}
			}
		}
	}
	return errs
}

// dockerCopy follows built binaries copied into BinDir.
func dockerCopy(where, args string, built, bins map[string]bool) []error {
	f := strings.Fields(args)
	if len(f) < 2 || !slices.ContainsFunc(f, func(s string) bool { return strings.HasPrefix(s, "--from=") }) {
		return nil
	}
	var srcs []string
	for _, s := range f[:len(f)-1] {
		if !strings.HasPrefix(s, "--") {
			srcs = append(srcs, s)
		}
	}
	dest := f[len(f)-1]
	var errs []error
	for _, s := range srcs {
		var files []string // what s copies: a built file, or those under a folder
		for b := range built {
			if b == s || strings.HasSuffix(s, "/") && strings.HasPrefix(b, s) && !strings.HasSuffix(b, "/") {
				files = append(files, b)
			}
		}
		if len(files) == 0 {
			errs = append(errs, fmt.Errorf("%s: copies %s, which the build stage does not build", where, s))
			continue
		}
		if path.Clean(dest) == BinDir {
			for _, f := range files {
				bins[path.Base(f)] = true
			}
		}
	}
	return errs
}

// checkCommand checks that a command line run in the image starts with a
// program the image has: a Quarry binary in BinDir, or tini in front of
// one.
func (img Image) checkCommand(where string, argv []string) []error {
	if _, _, err := img.program(argv); err != nil {
		return []error{fmt.Errorf("%s: %w", where, err)}
	}
	return nil
}

// program finds the Quarry binary a command line runs and its arguments.
func (img Image) program(argv []string) (bin string, args []string, err error) {
	if len(argv) > 0 && path.Base(argv[0]) == "tini" {
		if !img.Packages["tini"] {
			return "", nil, fmt.Errorf("runs %s but the image does not install tini", argv[0])
		}
		argv = argv[1:]
		if len(argv) > 0 && argv[0] == "--" {
			argv = argv[1:]
		}
	}
	if len(argv) == 0 {
		return "", nil, fmt.Errorf("runs no program")
	}
	dir, name := path.Split(argv[0])
	if path.Clean(dir) != BinDir || !img.Binaries[name] {
		return "", nil, fmt.Errorf("runs %s, which the image does not hold (it has %s in %s)", argv[0], keys(img.Binaries), BinDir)
	}
	return name, argv[1:], nil
}

func keys[V any](m map[string]V) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}
