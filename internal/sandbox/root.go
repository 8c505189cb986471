package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The sandbox's root is an empty tmpfs (bwrap's default) holding only what
// is listed here; nothing else of the host exists inside.
//
// /usr is bound whole, read-only: on a merged-/usr Debian it holds the
// interpreter, every shared library it loads, the standard library and
// Debian's Python packages, and by the FHS it holds no host state (no job
// output, sockets or databases). /usr/local, where operators do put things,
// is left out. /bin, /sbin, /lib… are recreated as the host has them:
// links into /usr, or read-only binds on a host without merged /usr.
const usrDir = "/usr"

// usrLinks are the top-level entries a dynamically linked Debian binary
// needs besides /usr (the ELF interpreter is /lib64/ld-linux-x86-64.so.2).
var usrLinks = []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

// rootArgs returns the bwrap arguments that build the read-only part of the
// root: /usr without /usr/local, the links into it, and extra read-only
// paths. /dev, /proc, /tmp and /work are added per run.
func rootArgs(extra []string) ([]string, error) {
	args := []string{"--ro-bind", usrDir, usrDir}
	if fi, err := os.Stat("/usr/local"); err == nil && fi.IsDir() {
		args = append(args, "--tmpfs", "/usr/local")
	}
	for _, p := range usrLinks {
		fi, err := os.Lstat(p)
		switch {
		case os.IsNotExist(err):
			continue
		case err != nil:
			return nil, err
		case fi.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return nil, err
			}
			args = append(args, "--symlink", target, p)
		case fi.IsDir():
			args = append(args, "--ro-bind", p, p)
		}
	}
	for _, p := range extra {
		p = filepath.Clean(p)
		if !filepath.IsAbs(p) || p == "/" {
			return nil, fmt.Errorf("read-only path %q: want an absolute path below /", p)
		}
		for _, own := range []string{"/proc", "/dev", "/tmp", WorkPath} {
			if p == own || strings.HasPrefix(p, own+"/") {
				return nil, fmt.Errorf("read-only path %q: %s is the sandbox's own", p, own)
			}
		}
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("read-only path: %w", err)
		}
		args = append(args, "--ro-bind", p, p)
	}
	return args, nil
}
