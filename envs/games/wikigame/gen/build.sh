#!/usr/bin/env bash
# Rebuilds ../graph.tsv.gz from WordNet 3.0's nouns; see ../PROVENANCE.md.
# Needs root (or wordnet-base already installed) and the Go toolchain.
set -euo pipefail
cd "$(dirname "$0")"
if ! dpkg -s wordnet-base >/dev/null 2>&1; then
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends wordnet-base
fi
dpkg-query -W -f='${Package} ${Version}\n' wordnet-base
go run build.go -wordnet /usr/share/wordnet -out ../graph.tsv.gz
sha256sum ../graph.tsv.gz
