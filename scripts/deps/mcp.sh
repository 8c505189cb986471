#!/usr/bin/env bash
# Installs the reference MCP server the tools/mcp tests run with node
# (npm @modelcontextprotocol/server-everything, pinned in
# tools/mcp/testdata/npm/package-lock.json). Idempotent: an installed server
# of the pinned version is kept. Node and npm come from apt-get only when
# node is missing.
set -euo pipefail
cd "$(dirname "$0")/../../tools/mcp/testdata/npm"

if ! command -v node >/dev/null 2>&1; then
	echo "node not found: installing nodejs and npm with apt-get"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update
	$SUDO apt-get install -y nodejs npm
fi

pkg=@modelcontextprotocol/server-everything
want="$(node -p "require('./package.json').dependencies['$pkg']")"
have="$(node -p "require('./node_modules/$pkg/package.json').version" 2>/dev/null || true)"
if [[ "$have" == "$want" ]] && [[ -f "node_modules/$pkg/dist/index.js" ]]; then
	echo "$pkg ${want} already installed in tools/mcp/testdata/npm"
	exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
	echo "npm not found: install it (e.g. apt-get install npm) and run this script again" >&2
	exit 1
fi
echo "installing $pkg ${want} into tools/mcp/testdata/npm/node_modules"
npm ci --no-audit --no-fund
test -f "node_modules/$pkg/dist/index.js"
echo "$pkg ${want} installed in tools/mcp/testdata/npm"
