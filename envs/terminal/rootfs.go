package terminal

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// rootfsConf says what the root filesystem holds; scripts/build-rootfs.sh
// builds it and caches it under the same key.
//
//go:embed rootfs.conf
var rootfsConf []byte

// Where the root filesystem is looked for.
const (
	// EnvRootFS names an explicit root directory (any Debian tree).
	EnvRootFS = "QUARRY_ROOTFS"
	// EnvRootFSCache is the cache dir build-rootfs.sh writes to.
	EnvRootFSCache = "QUARRY_ROOTFS_CACHE"
	// DefaultRootFSCache is its default.
	DefaultRootFSCache = "/var/cache/quarry"
)

// RootFSKey is the cache key of the root filesystem this build of Quarry
// expects: the first 12 hex digits of rootfs.conf's SHA-256, as
// build-rootfs.sh computes it. Env versions include it.
func RootFSKey() string {
	sum := sha256.Sum256(rootfsConf)
	return hex.EncodeToString(sum[:])[:12]
}

// RootFSDir returns the root filesystem to run tasks in: $QUARRY_ROOTFS if
// set, else rootfs-<RootFSKey> in $QUARRY_ROOTFS_CACHE (default
// /var/cache/quarry). It fails when that root has not been built.
func RootFSDir() (string, error) {
	if dir := os.Getenv(EnvRootFS); dir != "" {
		return dir, nil
	}
	cache := os.Getenv(EnvRootFSCache)
	if cache == "" {
		cache = DefaultRootFSCache
	}
	dir := filepath.Join(cache, "rootfs-"+RootFSKey())
	if _, err := os.Stat(filepath.Join(dir, ".quarry-rootfs")); err != nil {
		return "", fmt.Errorf("terminal: no root filesystem at %s: build it with scripts/build-rootfs.sh (run as root)", dir)
	}
	return dir, nil
}
