package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// RootFS makes a workspace whose runs see a whole root filesystem (a
// Debian tree built by scripts/build-rootfs.sh) as /, read-only, instead of
// the host's /usr allow-list; a few directories of it are writable and
// persist across the workspace's runs: an episode's shell state.
//
// bubblewrap 0.8 (Debian bookworm's) has no overlay mounts, so there is no
// copy-on-write of the whole tree: each writable path is a directory of the
// workspace bound over the root's (empty) directory of that name. Files
// elsewhere in the root belong to the host's root user, which is not mapped
// into the sandbox, so they stay read-only even to a run that maps itself
// to uid 0.
type RootFS struct {
	// Dir is the root filesystem on the host. It must hold every path of
	// Writable and Hidden as a directory (bwrap cannot create mount points
	// in a read-only root).
	Dir string
	// Writable are the absolute paths inside the root backed by the
	// workspace, created empty; the first is the runs' working directory.
	// Default DefaultRootWritable.
	Writable []string
	// Home is HOME inside (default the second writable path, or the first).
	Home string
	// UID and GID are the ids the runs have inside (bwrap maps the slot's
	// host uid to them), so files and `id` look the same whichever slot
	// ran. Default 1000.
	UID, GID int
}

// DefaultRootWritable are the writable paths of a RootFS workspace:
// Terminal-Bench's and Harbor's working dir, the agent's home, /tmp and
// Harbor's verifier log dir.
var DefaultRootWritable = []string{"/app", "/home/agent", "/tmp", "/logs"}

func (r RootFS) withDefaults() RootFS {
	if len(r.Writable) == 0 {
		r.Writable = slices.Clone(DefaultRootWritable)
	}
	if r.Home == "" {
		r.Home = r.Writable[min(1, len(r.Writable)-1)]
	}
	if r.UID <= 0 {
		r.UID = 1000
	}
	if r.GID <= 0 {
		r.GID = 1000
	}
	return r
}

func (r RootFS) check() error {
	if !filepath.IsAbs(r.Dir) {
		return fmt.Errorf("root filesystem %q: want an absolute path", r.Dir)
	}
	if fi, err := os.Stat(filepath.Join(r.Dir, "bin", "sh")); err != nil || fi.IsDir() {
		return fmt.Errorf("root filesystem %s has no /bin/sh (build it with scripts/build-rootfs.sh)", r.Dir)
	}
	for _, p := range r.Writable {
		if !filepath.IsAbs(p) || filepath.Clean(p) != p || p == "/" {
			return fmt.Errorf("writable path %q: want a clean absolute path below /", p)
		}
		for _, own := range []string{"/proc", "/dev"} {
			if p == own || strings.HasPrefix(p, own+"/") {
				return fmt.Errorf("writable path %q: %s is the sandbox's own", p, own)
			}
		}
		if fi, err := os.Stat(filepath.Join(r.Dir, p)); err != nil || !fi.IsDir() {
			return fmt.Errorf("root filesystem %s has no directory %s to bind the workspace on", r.Dir, p)
		}
	}
	return nil
}

// NewRootWorkspace creates a workspace whose runs see root as / (see
// RootFS). Its writable paths live in the workspace's work dir (a tmpfs of
// Options.WorkspaceBytes and WorkspaceFiles where the host allows mounts),
// so together they are bounded like any workspace.
func (s *Sandbox) NewRootWorkspace(ctx context.Context, root RootFS) (*Workspace, error) {
	root = root.withDefaults()
	if err := root.check(); err != nil {
		return nil, fmt.Errorf("sandbox: new workspace: %w", err)
	}
	w, err := s.NewWorkspace(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range root.Writable {
		if err := os.MkdirAll(w.rootPath(p), 0o755); err != nil {
			w.Close()
			return nil, fmt.Errorf("sandbox: new workspace: %w", err)
		}
	}
	w.root = &root
	return w, nil
}

// rootPath is where writable path p (inside) lives in the work dir.
func (w *Workspace) rootPath(p string) string {
	return filepath.Join(w.dir, "root", filepath.FromSlash(p))
}

// HostPath returns where path p inside a RootFS workspace's sandbox lives on
// the host, when p is in one of its writable paths: the host writes task
// files and reads results there between runs. ok is false otherwise, and for
// a workspace without a RootFS.
func (w *Workspace) HostPath(p string) (string, bool) {
	if w.root == nil || !filepath.IsAbs(p) {
		return "", false
	}
	p = filepath.Clean(p)
	for _, wp := range w.root.Writable {
		if p == wp || strings.HasPrefix(p, wp+"/") {
			return w.rootPath(p), true
		}
	}
	return "", false
}

// rootCommandLine is commandLine for a RootFS workspace: the root read-only
// at /, the writable paths bound from the work dir, its own /dev and /proc,
// the first writable path as the working directory, and the run mapped to
// the root's uid and gid.
func (s *Sandbox) rootCommandLine(w *Workspace, lim Limits, command []string) []string {
	r := w.root
	args := s.launcher(lim)
	args = append(args,
		"--uid", strconv.Itoa(r.UID), "--gid", strconv.Itoa(r.GID),
		"--ro-bind", r.Dir, "/",
		"--dev", "/dev",
		"--proc", "/proc",
	)
	for _, p := range r.Writable {
		args = append(args, "--bind", w.rootPath(p), p)
	}
	args = append(args, "--chdir", r.Writable[0], "--", "/bin/sh", "-c", startShell, "sh")
	return append(args, command...)
}
