#!/usr/bin/env bash
# Builds the Debian root filesystem the terminal env's tests run tasks in
# (scripts/build-rootfs.sh: debootstrap from Debian's packages, cached in
# /var/cache/quarry/rootfs-<hash of envs/terminal/rootfs.conf>). Quick when the
# root is already built; a cold build takes one to two minutes. Then it runs
# python3 in the root under bubblewrap to prove the root works here.
set -euo pipefail
cd "$(dirname "$0")/../.."

root="$(bash scripts/build-rootfs.sh | tail -n 1)"
if ! out="$(bwrap --unshare-all --ro-bind "$root" / --dev /dev --proc /proc /usr/bin/python3 -c 'print(1+1)' 2>&1)" || [ "$out" != "2" ]; then
	echo "the root at $root does not run python3 under bwrap: ${out}" >&2
	exit 1
fi
echo "terminal rootfs ready at $root"
