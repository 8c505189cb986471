#!/usr/bin/env bash
# Rebuilds ../words.tsv.gz from Debian's word list and WordNet; see ../PROVENANCE.md.
# Needs root (or the two packages already installed) and the Go toolchain.
set -euo pipefail
cd "$(dirname "$0")"
if ! dpkg -s wamerican wordnet-base >/dev/null 2>&1; then
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends wamerican wordnet-base
fi
dpkg-query -W -f='${Package} ${Version}\n' wamerican wordnet-base
go run build.go -dict /usr/share/dict/american-english -wordnet /usr/share/wordnet -out ../words.tsv.gz
sha256sum ../words.tsv.gz
