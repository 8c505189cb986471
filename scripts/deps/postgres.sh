#!/usr/bin/env bash
# Installs PostgreSQL from Debian's packages when initdb is missing; the
# cluster test (make cluster-test) runs Temporal on it. Only the binaries are
# needed: scripts/cluster/cluster.sh runs its own server in a private data
# folder on loopback, so the packaged service is neither configured nor used.
set -euo pipefail

if command -v initdb >/dev/null 2>&1 || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
	echo "PostgreSQL already installed"
	exit 0
fi
echo "initdb not found: installing postgresql with apt-get"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update
# If apt starts the packaged cluster (port 5432), it is left alone: the test
# picks free ports.
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends postgresql
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || { echo "postgresql installed but initdb not found" >&2; exit 1; }
echo "PostgreSQL installed: $(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
