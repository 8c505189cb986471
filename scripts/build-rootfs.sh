#!/usr/bin/env bash
# Builds the Debian root filesystem the terminal env (envs/terminal) runs its
# tasks in: `debootstrap --variant=minbase bookworm` from Debian's mirror plus
# the few packages the shipped tasks need, never a downloaded image.
#
# What goes in (suite, variant, packages, the recipe version of the steps
# below) is envs/terminal/rootfs.conf. The result is cached outside the clone,
# keyed by a hash of that file: $QUARRY_ROOTFS_CACHE/rootfs-<hash> (default
# cache dir /var/cache/quarry), the path envs/terminal looks for. It is
# built in a temporary dir beside it and renamed into
# place, so a reader sees a complete root or none. Prints the root's path on
# stdout (the last line); progress goes to stderr.
#
# Usage: scripts/build-rootfs.sh [--print-path]
#   --print-path  print the path the root has (or would have) and exit.
# Needs root and debootstrap (apt-get install debootstrap); a build takes a few
# minutes (docs/envs.md, "Terminal", has the measured time).
set -euo pipefail

CONF="$(dirname "$0")/../envs/terminal/rootfs.conf"
MIRROR="${QUARRY_ROOTFS_MIRROR:-http://deb.debian.org/debian}"
CACHE="${QUARRY_ROOTFS_CACHE:-/var/cache/quarry}"
# rootfs.conf says what the root holds; its hash is the cache key (the mirror
# is not part of it: any mirror of the suite serves the same packages).
conf_value() { awk -v k="$1" '$1 == k { print $2 }' "$CONF"; }
RECIPE="$(conf_value recipe)"
SUITE="$(conf_value suite)"
VARIANT="$(conf_value variant)"
mapfile -t PACKAGES < <(conf_value package)
key="$(sha256sum "$CONF" | cut -c1-12)"
dest="$CACHE/rootfs-$key"

if [[ "${1:-}" == "--print-path" ]]; then
	echo "$dest"
	exit 0
fi

if [[ -f "$dest/.quarry-rootfs" ]]; then
	echo "rootfs already built at $dest" >&2
	echo "$dest"
	exit 0
fi

if [[ "$(id -u)" -ne 0 ]]; then
	echo "build-rootfs: debootstrap needs root (run as root or with sudo)" >&2
	exit 1
fi
if ! command -v debootstrap >/dev/null 2>&1; then
	echo "installing debootstrap with apt-get" >&2
	apt-get update >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap >&2
fi

mkdir -p "$CACHE"
tmp="$(mktemp -d "$CACHE/.rootfs-$key.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
echo "building rootfs $dest with debootstrap --variant=$VARIANT $SUITE (${PACKAGES[*]})" >&2
include="$(IFS=,; echo "${PACKAGES[*]}")"
debootstrap --variant="$VARIANT" --include="$include" "$SUITE" "$tmp" "$MIRROR" >&2

# Trim what a sandboxed shell never uses: package caches and lists, docs,
# man pages and locales (C.UTF-8 is built into glibc).
rm -rf "$tmp"/var/cache/apt/archives/*.deb "$tmp"/var/lib/apt/lists/* \
	"$tmp"/usr/share/doc/* "$tmp"/usr/share/man/* "$tmp"/usr/share/info/* "$tmp"/usr/share/locale/*
# Mount points: the root is bound read-only, so every directory the sandbox
# binds a writable dir on (internal/sandbox RootFS.Writable, plus /tests for
# envs/terminal) or mounts over
# must exist in it: /app (the task's working dir, as Terminal-Bench and
# Harbor images have it), /home/agent (HOME), /tmp, /logs (Harbor's verifier
# writes /logs/verifier/reward.txt), /tests (the tests, bound only while they
# run).
mkdir -p "$tmp/app" "$tmp/home/agent" "$tmp/tmp" "$tmp/logs" "$tmp/tests" "$tmp/proc" "$tmp/dev"
chmod 1777 "$tmp/tmp"
# The agent runs as uid 1000 inside (bwrap maps the slot's host uid to it);
# give it a passwd entry so bash, git and python find a name and a home.
# /etc/hosts names loopback for the tasks that run services.
echo "agent:x:1000:1000:agent:/home/agent:/bin/bash" >>"$tmp/etc/passwd"
echo "agent:x:1000:" >>"$tmp/etc/group"
printf '127.0.0.1\tlocalhost sandbox\n::1\tlocalhost\n' >"$tmp/etc/hosts"
# git refuses repositories owned by another uid (files the host wrote show as
# the unmapped "nobody"); the sandbox is the trust boundary, so trust every
# directory. Commits get a fixed identity.
printf '[safe]\n\tdirectory = *\n[user]\n\tname = agent\n\temail = agent@sandbox\n[init]\n\tdefaultBranch = main\n' >"$tmp/etc/gitconfig"
{
	echo "key=$key suite=$SUITE mirror=$MIRROR variant=$VARIANT recipe=$RECIPE"
	echo "packages=${PACKAGES[*]}"
	echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ) seconds=$((SECONDS - start))"
} >"$tmp/.quarry-rootfs"
chmod 0755 "$tmp"
# Another build may have finished meanwhile: keep the first, drop ours.
if ! mv -T "$tmp" "$dest" 2>/dev/null; then
	[[ -f "$dest/.quarry-rootfs" ]] || { echo "build-rootfs: cannot move the root into $dest" >&2; exit 1; }
fi
trap - EXIT
rm -rf "$tmp"
echo "rootfs built at $dest in $((SECONDS - start)) s ($(du -sh "$dest" | cut -f1))" >&2
echo "$dest"
