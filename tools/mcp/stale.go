package mcp

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Homes are named quarry-mcp-<pid>.<start>-<server>-<random>, after the
// worker process that made them (its pid and start time, so a reused pid is
// not mistaken for it). A worker killed before closing its sessions leaves
// its homes behind; the next Tool made with the same home base removes them,
// as internal/sandbox sweeps its work dirs.
const homePrefix = "quarry-mcp-"

// owner identifies a process across pid reuse: its pid and its start time
// in clock ticks since boot (field 22 of /proc/PID/stat).
type owner struct {
	pid   int
	start uint64
}

func (o owner) String() string { return fmt.Sprintf("%d.%d", o.pid, o.start) }

// self is this process as an owner; ok is false where /proc cannot tell
// (then homes carry no owner and are never swept).
func self() (owner, bool) {
	start, err := processStart(os.Getpid())
	return owner{os.Getpid(), start}, err == nil
}

func processStart(pid int) (uint64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces and parentheses; the
	// fields after the last ')' are plain.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, fmt.Errorf("parse /proc/%d/stat", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	const startField = 22 - 3
	if len(f) <= startField {
		return 0, fmt.Errorf("parse /proc/%d/stat", pid)
	}
	return strconv.ParseUint(f[startField], 10, 64)
}

// homePattern is the os.MkdirTemp pattern of a server's home.
func (t *Tool) homePattern(server string) string {
	if t.owner == "" {
		return homePrefix + server + "-"
	}
	return homePrefix + t.owner + "-" + server + "-"
}

// sweepHomes removes the homes in base whose owner process is gone, and
// reports how many it removed.
func sweepHomes(base string) (int, error) {
	if base == "" {
		base = os.TempDir()
	}
	entries, err := os.ReadDir(base)
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, e := range entries {
		o, ok := parseOwner(e.Name())
		if !ok || !e.IsDir() {
			continue
		}
		if start, err := processStart(o.pid); err == nil && start == o.start {
			continue // its worker still runs
		}
		if err := os.RemoveAll(filepath.Join(base, e.Name())); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	if len(errs) > 0 {
		return n, fmt.Errorf("sweep stale MCP homes: %w", errs[0])
	}
	return n, nil
}

// parseOwner reads the owner from a home's name.
func parseOwner(name string) (owner, bool) {
	rest, ok := strings.CutPrefix(name, homePrefix)
	if !ok {
		return owner{}, false
	}
	id, _, ok := strings.Cut(rest, "-")
	if !ok {
		return owner{}, false
	}
	p, s, ok := strings.Cut(id, ".")
	if !ok {
		return owner{}, false
	}
	pid, err1 := strconv.Atoi(p)
	start, err2 := strconv.ParseUint(s, 10, 64)
	if err1 != nil || err2 != nil || pid <= 0 {
		return owner{}, false
	}
	return owner{pid, start}, true
}
