package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// lockUIDs takes a POSIX record lock on the bytes [UIDBase, UIDBase+Slots)
// of the lock file: overlapping ranges of two live processes conflict, a
// dead process's lock is gone with it, and a second Sandbox of the same
// process gets the lock again (record locks belong to the process).
func lockUIDs(path string, base, n int) error {
	fd, err := lockFiles.open(path)
	if err != nil {
		return fmt.Errorf("uid lock: %w", err)
	}
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: int64(base), Len: int64(n)}
	if err := syscall.FcntlFlock(uintptr(fd), syscall.F_SETLK, &lk); err != nil {
		if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) {
			holder := lk
			_ = syscall.FcntlFlock(uintptr(fd), syscall.F_GETLK, &holder)
			return fmt.Errorf("the slot uids %d…%d are in use by the sandbox of process %d (another worker on this host: give each its own uid range, --sandbox-uid-base): %w",
				base, base+n-1, holder.Pid, ErrUnavailable)
		}
		return fmt.Errorf("uid lock %s: %w", path, err)
	}
	return nil
}

// lockFiles holds this process's descriptor of each lock file, opened once
// and never closed. This is process-wide state because the kernel's is:
// record locks belong to the process, and closing any descriptor of the
// file — a second one, after a failed attempt — would drop every lock the
// process holds on it.
var lockFiles = &lockFileSet{fds: map[string]int{}}

type lockFileSet struct {
	mu  sync.Mutex
	fds map[string]int
}

func (l *lockFileSet) open(path string) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if fd, ok := l.fds[path]; ok {
		return fd, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	fd, err := syscall.Open(path, syscall.O_RDWR|syscall.O_CREAT|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return 0, err
	}
	l.fds[path] = fd
	return fd, nil
}

// reclaimTimeout bounds the wait for killed leftovers to exit.
const reclaimTimeout = 10 * time.Second

// reclaim kills the processes left running as the slot uids by a sandbox
// whose process died (an orphaned bwrap, say) and removes its cgroups. This
// process holds the uids' lock, so no live process of another sandbox owns
// them; a process that descends from this one belongs to another Sandbox
// of this process, and then the uids are refused instead.
func (s *Sandbox) reclaim(ctx context.Context) error {
	if n, err := s.cg.reclaim(); err != nil {
		return fmt.Errorf("sandbox: reclaim cgroups: %w", err)
	} else if n > 0 {
		s.opts.Logger.InfoContext(ctx, "removed the cgroups of a dead sandbox", "count", n)
	}
	lo, hi := s.opts.UIDBase, s.opts.UIDBase+s.opts.Slots
	deadline := time.Now().Add(reclaimTimeout)
	killed := 0
	for {
		left, ours, err := leftovers(lo, hi, s.self.pid)
		if err != nil {
			return err
		}
		if ours > 0 {
			return fmt.Errorf("sandbox: %d processes of this process already run as the slot uids %d…%d (another Sandbox with the same UIDBase?): %w",
				ours, lo, hi-1, ErrUnavailable)
		}
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("sandbox: %d leftover processes of the slot uids %d…%d survive SIGKILL: %w", len(left), lo, hi-1, ErrUnavailable)
		}
		for _, pid := range left {
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				killed++
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	if killed > 0 {
		s.opts.Logger.WarnContext(ctx, "killed leftover sandbox processes of a dead worker", "uids", fmt.Sprintf("%d…%d", lo, hi-1), "signals", killed)
	}
	return nil
}

// leftovers lists the live (non-zombie) processes whose real uid is in
// [lo, hi) and that do not descend from self, and counts those that do.
func leftovers(lo, hi, self int) (left []int, ours int, err error) {
	names, err := procNames()
	if err != nil {
		return nil, 0, err
	}
	buf := make([]byte, 4096)
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		uid, ok := statusUID("/proc/"+name+"/status", buf)
		if !ok || uid < lo || uid >= hi || zombie(buf) {
			continue
		}
		if descends(pid, self) {
			ours++
		} else {
			left = append(left, pid)
		}
	}
	return left, ours, nil
}

func procNames() ([]string, error) {
	dir, err := os.Open("/proc")
	if err != nil {
		return nil, fmt.Errorf("sandbox: list processes: %w", err)
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("sandbox: list processes: %w", err)
	}
	return names, nil
}

// descends reports whether pid's chain of parents reaches ancestor.
func descends(pid, ancestor int) bool {
	for range 64 { // deeper chains do not occur; a loop in a racy read ends here
		if pid == ancestor {
			return true
		}
		if pid <= 1 {
			return false
		}
		ppid, ok := parentPID(pid)
		if !ok {
			return false
		}
		pid = ppid
	}
	return false
}

// parentPID reads field 4 of /proc/PID/stat.
func parentPID(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}
