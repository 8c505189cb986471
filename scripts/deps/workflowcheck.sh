#!/usr/bin/env bash
# Installs workflowcheck, Temporal's static checker of workflow determinism
# (go.temporal.io/sdk/contrib/tools/workflowcheck), into $(go env GOPATH)/bin
# from the Go module proxy. `make test` runs it over ./workflows/...
# Idempotent: an existing binary built from the pinned version is kept.
set -euo pipefail

VERSION="${WORKFLOWCHECK_VERSION:-v0.6.0}"
MODULE="go.temporal.io/sdk/contrib/tools/workflowcheck"
BIN="$(go env GOPATH)/bin/workflowcheck"

if [[ -x "$BIN" ]] && go version -m "$BIN" 2>/dev/null | grep -Eq "^[[:space:]]+mod[[:space:]]+${MODULE}[[:space:]]+${VERSION}([[:space:]]|\$)"; then
	echo "workflowcheck ${VERSION} already installed at ${BIN}"
	exit 0
fi

echo "installing workflowcheck ${VERSION} into ${BIN}"
go install "${MODULE}@${VERSION}"
go version -m "$BIN" | grep -E "^[[:space:]]+mod[[:space:]]+${MODULE}" >/dev/null
echo "workflowcheck ${VERSION} installed at ${BIN}"
