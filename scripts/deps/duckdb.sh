#!/usr/bin/env bash
# Installs DuckDB for node (npm @duckdb/node-api, pinned in
# tools/duckdb/package-lock.json), the independent Parquet reader the shard
# tests run as `node tools/duckdb/read.mjs FILE`. Idempotent: an installed
# module of the pinned version that loads is kept. Node and npm come from
# apt-get only when node is missing.
set -euo pipefail
cd "$(dirname "$0")/../../tools/duckdb"

if ! command -v node >/dev/null 2>&1; then
	echo "node not found: installing nodejs and npm with apt-get"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update
	$SUDO apt-get install -y nodejs npm
fi

want="$(node -p "require('./package.json').dependencies['@duckdb/node-api']")"
have="$(node -p "require('./node_modules/@duckdb/node-api/package.json').version" 2>/dev/null || true)"
if [[ "$have" == "$want" ]] && node --input-type=module -e "await import('@duckdb/node-api')" >/dev/null 2>&1; then
	echo "@duckdb/node-api ${want} already installed in tools/duckdb"
	exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
	echo "npm not found: install it (e.g. apt-get install npm) and run this script again" >&2
	exit 1
fi
echo "installing @duckdb/node-api ${want} into tools/duckdb/node_modules"
npm ci --no-audit --no-fund
node --input-type=module -e "await import('@duckdb/node-api')"
echo "@duckdb/node-api ${want} installed in tools/duckdb"
