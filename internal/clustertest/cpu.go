//go:build linux

package clustertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTick is USER_HZ, the unit of /proc's CPU times: 100 on every Linux
// architecture Go supports.
const clockTick = 10 * time.Millisecond

// procStat is what TreeCPU needs of /proc/PID/stat.
type procStat struct {
	ppid int
	cpu  time.Duration // utime + stime + cutime + cstime
}

func readStat(pid int) (procStat, error) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return procStat{}, err
	}
	// The command name (field 2) may hold spaces; the fields after it are
	// numbers: state ppid … utime(14) stime(15) cutime(16) cstime(17).
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 15 {
		return procStat{}, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	ppid, _ := strconv.Atoi(f[1])
	var ticks int64
	for _, v := range f[11:15] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return procStat{}, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	return procStat{ppid: ppid, cpu: time.Duration(ticks) * clockTick}, nil
}

// TreeCPU returns the CPU time used so far by each process tree rooted at
// the given pids: the roots, their live descendants, and the descendants
// already reaped (counted in their parents' cutime/cstime). PostgreSQL's
// backends, for instance, are children of the postmaster.
func TreeCPU(roots ...int) (map[int]time.Duration, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	stats := map[int]procStat{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := readStat(pid); err == nil { // a process may exit meanwhile
			stats[pid] = st
		}
	}
	rootOf := func(pid int) (int, bool) {
		for range 64 {
			for _, r := range roots {
				if pid == r {
					return r, true
				}
			}
			st, ok := stats[pid]
			if !ok || st.ppid <= 1 {
				return 0, false
			}
			pid = st.ppid
		}
		return 0, false
	}
	out := make(map[int]time.Duration, len(roots))
	for _, r := range roots {
		if _, ok := stats[r]; !ok {
			return nil, fmt.Errorf("process %d is not running", r)
		}
		out[r] = 0
	}
	for pid, st := range stats {
		if r, ok := rootOf(pid); ok {
			out[r] += st.cpu
		}
	}
	return out, nil
}

// MachineCPU returns the busy CPU time of the whole machine so far (all
// cores; /proc/stat minus idle and iowait).
func MachineCPU() (time.Duration, error) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return 0, fmt.Errorf("/proc/stat: unexpected first line %q", line)
	}
	var busy int64
	for i, v := range f[1:8] { // user nice system idle iowait irq softirq
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/stat: %w", err)
		}
		if i != 3 && i != 4 {
			busy += n
		}
	}
	return time.Duration(busy) * clockTick, nil
}
