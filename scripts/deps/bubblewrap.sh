#!/usr/bin/env bash
# Installs what internal/sandbox and tools/python run: bubblewrap (bwrap),
# util-linux's prlimit, and Debian's python3 (the sandboxed interpreter is
# /usr/bin/python3; a pyenv or venv python on PATH is not usable inside the
# sandbox). Idempotent: apt-get runs only when something is missing. Then it
# starts a trivial sandbox to prove user namespaces work on this machine.
set -euo pipefail

missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v prlimit >/dev/null 2>&1 || missing+=(util-linux)
[ -x /usr/bin/python3 ] || missing+=(python3)

if [ "${#missing[@]}" -gt 0 ]; then
	echo "installing with apt-get: ${missing[*]}"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
else
	echo "bubblewrap, prlimit and /usr/bin/python3 already installed"
fi

if ! out="$(bwrap --unshare-all --ro-bind / / --dev /dev --proc /proc true 2>&1)"; then
	echo "bwrap is installed but cannot start a sandbox: ${out}" >&2
	echo "user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces>0)" >&2
	exit 1
fi
if ! out="$(bwrap --unshare-all --ro-bind / / --dev /dev --proc /proc /usr/bin/python3 -c 'print(1+1)' 2>&1)" || [ "$out" != "2" ]; then
	echo "bwrap works but /usr/bin/python3 does not run inside it: ${out}" >&2
	exit 1
fi
echo "bubblewrap $(bwrap --version | awk '{print $2}') works (sandboxed /usr/bin/python3 ran)"
