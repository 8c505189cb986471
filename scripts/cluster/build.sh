#!/usr/bin/env bash
# Builds temporal-cluster — the Temporal server v1.32.0 and its SQL schema
# tool, from the module in deploy/temporal — into $(go env GOPATH)/bin (or
# $1). Incremental: with a warm build cache it only links (~20 s); a cold
# build on 2 cores takes a few minutes (see BENCHMARKS.md, "Cluster").
set -euo pipefail
cd "$(dirname "$0")/../../deploy/temporal"
out="${1:-$(go env GOPATH)/bin/temporal-cluster}"
mkdir -p "$(dirname "$out")"
go build -o "$out.tmp" .
mv "$out.tmp" "$out"
echo "temporal-cluster $("$out" version) built at $out"
