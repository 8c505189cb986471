#!/usr/bin/env bash
# Installs the reference MCP servers the tools/mcp tests run with node
# (npm @modelcontextprotocol/server-everything and server-memory, pinned in
# tools/mcp/testdata/npm/package-lock.json). Idempotent: servers of the
# pinned versions are kept. Node and npm come from apt-get only when node is
# missing. The tests run the servers as nobody when they run as root, so
# the install is left world-readable.
set -euo pipefail
cd "$(dirname "$0")/../../tools/mcp/testdata/npm"

if ! command -v node >/dev/null 2>&1; then
	echo "node not found: installing nodejs and npm with apt-get"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update
	$SUDO apt-get install -y nodejs npm
fi

# setpriv (util-linux, essential on Debian) gives stdio servers no_new_privs.
if ! command -v setpriv >/dev/null 2>&1; then
	echo "setpriv not found: installing util-linux with apt-get"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update
	$SUDO apt-get install -y util-linux
fi

pkgs=(@modelcontextprotocol/server-everything @modelcontextprotocol/server-memory)
installed=1
for pkg in "${pkgs[@]}"; do
	want="$(node -p "require('./package.json').dependencies['$pkg']")"
	have="$(node -p "require('./node_modules/$pkg/package.json').version" 2>/dev/null || true)"
	if [[ "$have" != "$want" ]] || [[ ! -f "node_modules/$pkg/dist/index.js" ]]; then
		installed=0
	fi
done
if [[ $installed == 1 ]]; then
	echo "${pkgs[*]} already installed in tools/mcp/testdata/npm"
	exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
	echo "npm not found: install it (e.g. apt-get install npm) and run this script again" >&2
	exit 1
fi
echo "installing ${pkgs[*]} into tools/mcp/testdata/npm/node_modules"
(umask 022 && npm ci --no-audit --no-fund)
for pkg in "${pkgs[@]}"; do
	test -f "node_modules/$pkg/dist/index.js"
done
echo "${pkgs[*]} installed in tools/mcp/testdata/npm"
