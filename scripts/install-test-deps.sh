#!/usr/bin/env bash
# Installs everything the test suite needs on a brand-new machine (Debian,
# run as root). Idempotent and quick when everything is present, so `make test`
# runs it every time.
set -euo pipefail
cd "$(dirname "$0")/.."

need_go_modules() { go mod download; }

need_go_modules
for dep in scripts/deps/*.sh; do
	[ -e "$dep" ] || continue
	bash "$dep"
done
