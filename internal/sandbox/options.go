package sandbox

import (
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// Defaults applied by New to zero fields of Options and Limits.
const (
	DefaultUIDBase        = 61000
	DefaultCPU            = 10 * time.Second
	DefaultWall           = 10 * time.Second
	DefaultMemory         = 1 << 30  // 1 GiB for the whole process tree of a run (cgroup)
	DefaultAddressSpace   = 1 << 30  // 1 GiB of virtual memory per process
	DefaultFileSize       = 16 << 20 // 16 MiB per written file
	DefaultProcesses      = 64       // processes and threads of a run
	DefaultOutputBytes    = 64 << 10 // kept per stream; the rest is drained and dropped
	DefaultTmpBytes       = 64 << 20 // size of the sandbox's private /tmp (tmpfs, counts as RAM)
	DefaultWorkspaceBytes = 64 << 20 // size of a workspace (tmpfs, counts as RAM while written)
	DefaultWorkspaceFiles = 4096     // files and directories in a workspace
	DefaultLockPath       = "/run/quarry-sandbox-uids.lock"
)

// Options configure a Sandbox. The zero value is usable: New fills every
// zero field with the default documented on it.
type Options struct {
	// BaseDir holds the work dirs of workspaces. Default
	// $TMPDIR/quarry-sandbox. It and its parents must be searchable by the
	// slot uids (mode o+x). No sandbox sees it: a run sees only its own
	// workspace, at /work.
	BaseDir string
	// Slots bounds concurrent runs; each slot runs as its own host uid
	// (UIDBase+slot), because RLIMIT_NPROC counts every process of a uid
	// on the host. Default runtime.NumCPU().
	Slots int
	// UIDBase is the host uid (and gid) of slot 0. Default 61000. The uids
	// UIDBase … UIDBase+Slots-1 must belong to no one else: New kills every
	// process they run that no live sandbox of this host owns.
	UIDBase int
	// Limits are the default limits of a run; a Cmd may override them.
	Limits Limits
	// WorkspaceBytes and WorkspaceFiles bound a workspace: each is a tmpfs
	// of that size and inode count mounted on its work dir (default 64 MiB,
	// 4096). Where this process cannot mount (no CAP_SYS_ADMIN) workspaces
	// are plain directories, bounded only by Limits.FileSize per file, and
	// New logs so.
	WorkspaceBytes int64
	WorkspaceFiles int64
	// ReadOnly lists extra host paths the sandbox sees read-only, at the
	// same place (an interpreter outside /usr, say /opt/venv). The default
	// root holds only /usr (read-only, /usr/local left out) and the links
	// /bin, /sbin, /lib, /lib64 into it; see docs/security.md.
	ReadOnly []string
	// LockPath is the file whose byte ranges lock uid ranges between the
	// sandboxes of one host (default /run/quarry-sandbox-uids.lock): a
	// range locked by a live process is refused, an unlocked range's
	// leftover processes are killed.
	LockPath string
	// Logger receives start-up notes (the limits in force, leftovers
	// reclaimed, stale work dirs swept). Default: discard.
	Logger *slog.Logger
}

// Limits bound one run. Zero fields take the Sandbox's value, whose zero
// fields take the package defaults.
type Limits struct {
	// CPU is RLIMIT_CPU per process (default 10 s); past it the kernel kills
	// the process, which the Result reports as CPULimited. Where a cpu
	// cgroup is in force the whole run also gets at most one CPU, so its
	// processes together use at most Wall of CPU time.
	CPU time.Duration
	// Wall is the wall-clock timeout of the whole run (default 10 s); past it
	// the whole process tree is killed and the Result reports TimedOut.
	Wall time.Duration
	// Memory bounds the memory of the run's whole process tree (its tmpfs
	// /tmp included) in bytes (default 1 GiB), where a memory cgroup is in
	// force; past it the kernel's OOM killer ends a process of the run and
	// the Result reports MemoryLimited.
	Memory int64
	// AddressSpace is RLIMIT_AS in bytes per process (default 1 GiB).
	AddressSpace int64
	// FileSize is RLIMIT_FSIZE in bytes (default 16 MiB): the largest file a
	// process may write.
	FileSize int64
	// Processes bounds the run's processes and threads (default 64): the
	// pids cgroup of the run where one is in force, and RLIMIT_NPROC of the
	// slot's uid, which only this run uses, in every case.
	Processes int
	// OutputBytes is how much of stdout and of stderr is kept, each
	// (default 64 KiB). Output past it is read and dropped so the child never
	// blocks, and the Result says Truncated.
	OutputBytes int
	// TmpBytes is the size of the private /tmp tmpfs (default 64 MiB).
	TmpBytes int64
}

func (l Limits) orElse(d Limits) Limits {
	if l.CPU <= 0 {
		l.CPU = d.CPU
	}
	if l.Wall <= 0 {
		l.Wall = d.Wall
	}
	if l.Memory <= 0 {
		l.Memory = d.Memory
	}
	if l.AddressSpace <= 0 {
		l.AddressSpace = d.AddressSpace
	}
	if l.FileSize <= 0 {
		l.FileSize = d.FileSize
	}
	if l.Processes <= 0 {
		l.Processes = d.Processes
	}
	if l.OutputBytes <= 0 {
		l.OutputBytes = d.OutputBytes
	}
	if l.TmpBytes <= 0 {
		l.TmpBytes = d.TmpBytes
	}
	return l
}

var defaultLimits = Limits{
	CPU:          DefaultCPU,
	Wall:         DefaultWall,
	Memory:       DefaultMemory,
	AddressSpace: DefaultAddressSpace,
	FileSize:     DefaultFileSize,
	Processes:    DefaultProcesses,
	OutputBytes:  DefaultOutputBytes,
	TmpBytes:     DefaultTmpBytes,
}

func (o Options) withDefaults() Options {
	if o.BaseDir == "" {
		o.BaseDir = filepath.Join(os.TempDir(), "quarry-sandbox")
	}
	o.BaseDir = filepath.Clean(o.BaseDir)
	if o.Slots <= 0 {
		o.Slots = runtime.NumCPU()
	}
	if o.UIDBase <= 0 {
		o.UIDBase = DefaultUIDBase
	}
	o.Limits = o.Limits.orElse(defaultLimits)
	if o.WorkspaceBytes <= 0 {
		o.WorkspaceBytes = DefaultWorkspaceBytes
	}
	if o.WorkspaceFiles <= 0 {
		o.WorkspaceFiles = DefaultWorkspaceFiles
	}
	if o.LockPath == "" {
		o.LockPath = DefaultLockPath
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}
