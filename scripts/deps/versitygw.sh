#!/usr/bin/env bash
# Installs versitygw, the S3 server the blob store tests run against
# (internal/s3test), into $(go env GOPATH)/bin. Idempotent: an existing binary
# built from the pinned version is kept. A cold build takes about 3 minutes.
set -euo pipefail

VERSION="${VERSITYGW_VERSION:-v1.8.0}"
MODULE="github.com/versity/versitygw"
BIN="$(go env GOPATH)/bin/versitygw"

# The build info embedded by `go install` names the module version, so the
# check works even though a plain `go install` sets no -ldflags version.
if [[ -x "$BIN" ]] && go version -m "$BIN" 2>/dev/null | grep -Eq "^[[:space:]]+mod[[:space:]]+${MODULE}[[:space:]]+${VERSION}([[:space:]]|\$)"; then
	echo "versitygw ${VERSION} already installed at ${BIN}"
	exit 0
fi

echo "installing versitygw ${VERSION} into ${BIN} (about 3 minutes)"
go install "${MODULE}/cmd/versitygw@${VERSION}"
go version -m "$BIN" | grep -E "^[[:space:]]+mod[[:space:]]+${MODULE}" >/dev/null
echo "versitygw ${VERSION} installed at ${BIN}"
