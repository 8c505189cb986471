#!/usr/bin/env bash
# Installs everything the test suite needs on a brand-new machine (Debian,
# root or sudo). Idempotent: already-present tools are kept.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "install-test-deps: go $(go env GOVERSION)"
go mod download
