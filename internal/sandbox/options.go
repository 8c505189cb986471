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
	DefaultUIDBase      = 61000
	DefaultCPU          = 10 * time.Second
	DefaultWall         = 10 * time.Second
	DefaultAddressSpace = 1 << 30  // 1 GiB of virtual memory per process
	DefaultFileSize     = 16 << 20 // 16 MiB per written file
	DefaultProcesses    = 64       // processes and threads of the slot's uid
	DefaultOutputBytes  = 64 << 10 // kept per stream; the rest is drained and dropped
	DefaultTmpBytes     = 64 << 20 // size of the sandbox's private /tmp (tmpfs, counts as RAM)
)

// Options configure a Sandbox. The zero value is usable: New fills every
// zero field with the default documented on it.
type Options struct {
	// BaseDir holds the work dirs of workspaces. Default
	// $TMPDIR/quarry-sandbox. It and its parents must be searchable by the
	// slot uids (mode o+x). It is hidden inside every sandbox, so one
	// workspace cannot see another. Disk use inside a work dir is not
	// quota'd: put BaseDir on a size-limited filesystem for a hard bound.
	BaseDir string
	// Slots bounds concurrent runs; each slot runs as its own host uid
	// (UIDBase+slot), because RLIMIT_NPROC counts every process of a uid
	// on the host. Default runtime.NumCPU().
	Slots int
	// UIDBase is the host uid (and gid) of slot 0. Default 61000. The uids
	// UIDBase … UIDBase+Slots-1 must belong to no one else.
	UIDBase int
	// Limits are the default limits of a run; a Cmd may override them.
	Limits Limits
	// Hide lists host directories replaced by an empty tmpfs inside the
	// sandbox, on top of the read-only root. Default /root, /home, /run and
	// /var/tmp; BaseDir is always added, and /tmp is always a fresh tmpfs.
	Hide []string
	// Logger receives start-up notes (stale work dirs swept). Default: discard.
	Logger *slog.Logger
}

// Limits bound one run. Zero fields take the Sandbox's value, whose zero
// fields take the package defaults.
type Limits struct {
	// CPU is RLIMIT_CPU per process (default 10 s); past it the kernel kills
	// the process, which the Result reports as CPULimited.
	CPU time.Duration
	// Wall is the wall-clock timeout of the whole run (default 10 s); past it
	// the whole process tree is killed and the Result reports TimedOut.
	Wall time.Duration
	// AddressSpace is RLIMIT_AS in bytes per process (default 1 GiB).
	AddressSpace int64
	// FileSize is RLIMIT_FSIZE in bytes (default 16 MiB): the largest file a
	// process may write.
	FileSize int64
	// Processes is RLIMIT_NPROC (default 64): processes and threads of the
	// slot's uid, which only this run uses.
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
	if o.Hide == nil {
		o.Hide = []string{"/root", "/home", "/run", "/var/tmp"}
	}
	o.Hide = append(append([]string(nil), o.Hide...), o.BaseDir)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}
