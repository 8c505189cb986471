package sandbox

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cgroups are the control groups a run is put in, found at New: one
// directory per hierarchy, quarry-sandbox-<owner> inside this process's own
// group (so the limits of whatever runs this process still apply), holding
// a group per slot, made for a run and removed after it. An empty field
// means that control is not in force on this host.
//
// This machine kind mounts cgroup v1 controllers (memory, pids, cpu) next
// to a controller-less v2 hierarchy, whose cgroup.kill still kills a group
// at once; both are used. A host whose only hierarchy is v2 is not handled
// yet: there the rlimits alone are in force (docs/security.md).
type cgroups struct {
	memory, pids, cpu string // v1 controller groups
	kill              string // a v2 group: cgroup.kill
}

const cgroupPrefix = "quarry-sandbox-"

// findCgroups locates this process's groups and makes this sandbox's
// directory, named for this process (self) and a random suffix, in each
// hierarchy that allows it.
func findCgroups(self owner) (cgroups, error) {
	var rnd [4]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return cgroups{}, err
	}
	name := cgroupPrefix + self.String() + "-" + hex.EncodeToString(rnd[:])
	mounts, err := cgroupMounts()
	if err != nil {
		return cgroups{}, err
	}
	mine, err := ownGroups()
	if err != nil {
		return cgroups{}, err
	}
	var cg cgroups
	for _, m := range mounts {
		path, ok := mine[m.key]
		if !ok || !strings.HasPrefix(path, m.root) {
			continue
		}
		dir := filepath.Join(m.point, strings.TrimPrefix(path, m.root), name)
		if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			continue // not ours to write: that control is not in force
		}
		switch m.key {
		case "memory":
			cg.memory = dir
		case "pids":
			cg.pids = dir
		case "cpu":
			cg.cpu = dir
		case "":
			if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err == nil {
				cg.kill = dir
			} else {
				os.Remove(dir)
			}
		}
	}
	return cg, nil
}

// dirs are the sandbox's directories, one per hierarchy in use.
func (cg cgroups) dirs() []string {
	var d []string
	for _, p := range []string{cg.memory, cg.pids, cg.cpu, cg.kill} {
		if p != "" {
			d = append(d, p)
		}
	}
	return d
}

// String says which controls are in force, for the start-up log.
func (cg cgroups) String() string {
	var in []string
	if cg.memory != "" {
		in = append(in, "memory (v1)")
	}
	if cg.pids != "" {
		in = append(in, "pids (v1)")
	}
	if cg.cpu != "" {
		in = append(in, "cpu (v1)")
	}
	if cg.kill != "" {
		in = append(in, "kill (v2)")
	}
	if len(in) == 0 {
		return "none"
	}
	return strings.Join(in, ", ")
}

type cgroupMount struct {
	key         string // v1: the controller; "" for the v2 hierarchy
	point, root string
}

// cgroupMounts reads the cgroup hierarchies from /proc/self/mountinfo:
// "ID PARENT MAJ:MIN ROOT POINT OPTS [OPTIONAL…] - FSTYPE SOURCE SUPEROPTS".
func cgroupMounts() ([]cgroupMount, error) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	var ms []cgroupMount
	for _, line := range strings.Split(string(b), "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 3 {
			continue
		}
		switch g[0] {
		case "cgroup2":
			ms = append(ms, cgroupMount{key: "", point: f[4], root: f[3]})
		case "cgroup":
			for _, opt := range strings.Split(g[2], ",") {
				if opt == "memory" || opt == "pids" || opt == "cpu" {
					ms = append(ms, cgroupMount{key: opt, point: f[4], root: f[3]})
				}
			}
		}
	}
	return ms, nil
}

// ownGroups reads this process's group per controller from /proc/self/cgroup
// ("ID:CONTROLLERS:PATH"; the v2 line has no controllers, key "").
func ownGroups() (map[string]string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, err
	}
	mine := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[1] == "" {
			mine[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			mine[c] = parts[2]
		}
	}
	return mine, nil
}

// group is a workspace's control groups, one per hierarchy: its runs (one
// at a time) and the files they leave in the workspace's tmpfs are charged
// to it. A group lives as long as its workspace rather than one run, because
// a fresh v1 memory group makes the first run in it several milliseconds
// slower; a run's peak and OOM kills are read as differences.
type group struct {
	cg      cgroups
	name    string
	oomBase int64 // the group's OOM kills before the current run
}

// newGroup makes the group name in every hierarchy in use (none: a group
// that does nothing).
func (cg cgroups) newGroup(name string) (*group, error) {
	g := &group{cg: cg, name: name}
	for _, d := range cg.dirs() {
		if err := os.Mkdir(filepath.Join(d, name), 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			g.remove()
			return nil, fmt.Errorf("make cgroup: %w", err)
		}
	}
	return g, nil
}

// prepare sets the limits of the next run and resets its peak.
func (g *group) prepare(lim Limits) error {
	cg := g.cg
	var sets [][2]string
	if cg.memory != "" {
		mem := strconv.FormatInt(lim.Memory, 10)
		memsw := g.file(cg.memory, "memory.memsw.limit_in_bytes")
		if exists(memsw) { // no swap beyond the limit; memsw ≥ limit at every step
			if cur, _ := readInt(memsw); cur < lim.Memory {
				sets = append(sets, [2]string{memsw, mem})
			}
			sets = append(sets, [2]string{g.file(cg.memory, "memory.limit_in_bytes"), mem}, [2]string{memsw, mem})
		} else {
			sets = append(sets, [2]string{g.file(cg.memory, "memory.limit_in_bytes"), mem})
		}
		sets = append(sets, [2]string{g.file(cg.memory, "memory.max_usage_in_bytes"), "0"})
	}
	if cg.pids != "" {
		sets = append(sets, [2]string{g.file(cg.pids, "pids.max"), strconv.Itoa(lim.Processes)})
	}
	if cg.cpu != "" {
		sets = append(sets, [2]string{g.file(cg.cpu, "cpu.cfs_period_us"), "100000"},
			[2]string{g.file(cg.cpu, "cpu.cfs_quota_us"), "100000"}) // one CPU
	}
	for _, s := range sets {
		if err := os.WriteFile(s[0], []byte(s[1]), 0); err != nil {
			return fmt.Errorf("set cgroup limit: %w", err)
		}
	}
	g.oomBase = g.oomKills()
	return nil
}

func readInt(p string) (int64, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

func (g *group) file(dir, name string) string { return filepath.Join(dir, g.name, name) }

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// join moves the processes into every hierarchy's group.
func (g *group) join(pids ...int) error {
	for _, d := range g.cg.dirs() {
		for _, pid := range pids {
			if err := os.WriteFile(g.file(d, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
				return fmt.Errorf("join cgroup %s: %w", d, err)
			}
		}
	}
	return nil
}

// usage reads the last run's peak memory and whether the OOM killer acted
// during it.
func (g *group) usage() (peak int64, oomKilled bool) {
	if g.cg.memory == "" {
		return 0, false
	}
	peak, _ = readInt(g.file(g.cg.memory, "memory.max_usage_in_bytes"))
	return peak, g.oomKills() > g.oomBase
}

// oomKills reads the group's count of OOM kills ("oom_kill N" in
// memory.oom_control).
func (g *group) oomKills() int64 {
	if g.cg.memory == "" {
		return 0
	}
	b, err := os.ReadFile(g.file(g.cg.memory, "memory.oom_control"))
	if err != nil {
		return 0
	}
	s := bufio.NewScanner(bytes.NewReader(b))
	for s.Scan() {
		if n, ok := strings.CutPrefix(s.Text(), "oom_kill "); ok {
			v, _ := strconv.ParseInt(n, 10, 64)
			return v
		}
	}
	return 0
}

// remove kills whatever is left in the groups and removes them.
func (g *group) remove() error {
	return removeGroups(g.cg.kill, g.cg.dirs(), g.name)
}

// groupTimeout bounds the wait for a killed group to empty.
const groupTimeout = 10 * time.Second

// removeGroups empties and removes the group name in each of dirs: the v2
// group under killDir (if any) is killed at once with cgroup.kill, the
// processes of the others are SIGKILLed one by one, and a group is removed
// once the kernel has let go of its last process.
func removeGroups(killDir string, dirs []string, name string) error {
	if killDir != "" {
		_ = os.WriteFile(filepath.Join(killDir, name, "cgroup.kill"), []byte("1"), 0)
	}
	deadline := time.Now().Add(groupTimeout)
	for _, d := range dirs {
		dir := filepath.Join(d, name)
		for {
			err := syscall.Rmdir(dir)
			if err == nil || errors.Is(err, syscall.ENOENT) {
				break
			}
			if !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
				return fmt.Errorf("remove cgroup %s: %w", dir, err)
			}
			killProcs(filepath.Join(dir, "cgroup.procs"))
			time.Sleep(2 * time.Millisecond)
		}
	}
	return nil
}

// killProcs SIGKILLs every process listed in a cgroup.procs file.
func killProcs(procs string) {
	b, _ := os.ReadFile(procs)
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 1 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// close removes the sandbox's directories (after its runs ended).
func (cg cgroups) close() error {
	var errs []error
	for _, d := range cg.dirs() {
		if err := syscall.Rmdir(d); err != nil && !errors.Is(err, syscall.ENOENT) {
			errs = append(errs, fmt.Errorf("remove cgroup %s: %w", d, err))
		}
	}
	return errors.Join(errs...)
}

// reclaimCgroups removes the groups of sandboxes whose process is gone: the
// siblings of cg's directories named for a dead owner, with whatever still
// runs in them.
func (cg cgroups) reclaim() (int, error) {
	n := 0
	for _, d := range cg.dirs() {
		parent := filepath.Dir(d)
		entries, err := os.ReadDir(parent)
		if err != nil {
			return n, fmt.Errorf("list cgroups: %w", err)
		}
		for _, e := range entries {
			name, ok := strings.CutPrefix(e.Name(), cgroupPrefix)
			if !ok || !e.IsDir() {
				continue
			}
			id, _, _ := strings.Cut(name, "-")
			o, ok := parseOwnerID(id)
			if !ok || o.alive() {
				continue
			}
			stale := filepath.Join(parent, e.Name())
			killDir := ""
			if d == cg.kill {
				killDir = stale
			}
			slots, _ := os.ReadDir(stale)
			for _, s := range slots {
				if s.IsDir() {
					if err := removeGroups(killDir, []string{stale}, s.Name()); err != nil {
						return n, err
					}
				}
			}
			if err := syscall.Rmdir(stale); err != nil && !errors.Is(err, syscall.ENOENT) {
				return n, fmt.Errorf("remove stale cgroup %s: %w", stale, err)
			}
			n++
		}
	}
	return n, nil
}
