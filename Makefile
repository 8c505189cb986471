# The README's test command is `make test`; .ci/run calls it after installing
# what the tests need (scripts/install-test-deps.sh).
SHELL := /bin/bash
GO ?= go
GOBIN_DIR := $(shell $(GO) env GOPATH)/bin

# Packages with concurrency of their own run under the race detector (16 s
# with a warm build cache, about 1.5 CPU-minutes more for a cold race build on
# 2 cores; see docs/operations.md); every other package runs once without it.
RACE_PKGS := ./workflows/... ./activities/... ./internal/inference/... ./tools/toolset/... ./internal/sandbox/... ./internal/online/... ./internal/turnlog/... ./internal/metrics/...

.PHONY: test vet workflowcheck race test-rest test-python deps bench fuzz cluster-test bench-cluster

test: deps vet workflowcheck race test-rest test-python cluster-test

vet:
	$(GO) vet ./...

# Static check of workflow determinism (installed by scripts/deps/workflowcheck.sh).
workflowcheck:
	$(GOBIN_DIR)/workflowcheck ./workflows/...

race:
	$(GO) test -race -count=1 $(RACE_PKGS)

# Every package not in RACE_PKGS, once.
test-rest:
	$(GO) test -count=1 -timeout 25m $$($(GO) list ./... | grep -vxF -f <($(GO) list $(RACE_PKGS)))

# The Python client (clients/python): Debian's python3, standard library only.
test-python:
	cd clients/python && python3 -m unittest discover

deps:
	bash scripts/install-test-deps.sh

# A real Temporal cluster started by scripts/cluster/cluster.sh (PostgreSQL,
# frontend, history, matching and worker as separate processes, versitygw),
# three worker processes and submit; see deploy/README.md, "Run Temporal
# without Docker". 2-4 minutes with a warm build cache; a cold build adds
# about 6 CPU-minutes (BENCHMARKS.md, "Cluster"). The cluster's folder is
# torn down on every exit of the test process, a timeout included.
cluster-test:
	$(GO) vet -tags cluster ./internal/clustertest/
	cd deploy/temporal && $(GO) vet ./... && test -z "$$(gofmt -l .)"
	@d=$$(mktemp -d "$${TMPDIR:-/tmp}/quarry-cluster-XXXXXX"); \
	trap 'bash scripts/cluster/cluster.sh down "$$d" >/dev/null 2>&1; rm -rf "$$d"' EXIT; \
	mkdir "$$d/bin" && $(GO) build -o "$$d/bin/" ./cmd/worker ./cmd/submit && \
	bash scripts/cluster/build.sh "$$d/bin/temporal-cluster" && \
	QUARRY_CLUSTER_DIR="$$d" QUARRY_CLUSTER_BIN="$$d/bin" $(GO) test -tags cluster -count=1 -timeout 8m -v ./internal/clustertest/

# Throughput and CPU split on the real cluster with 1, 2 and 3 workers
# (BENCHMARKS.md, "Cluster").
bench-cluster:
	$(GO) run ./bench/cluster

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./envs/...

# Each target runs alone (go test -fuzz takes one target at a time). New inputs
# are minimised for at most 100 runs, so the time goes to fuzzing.
FUZZTIME ?= 60s
FUZZFLAGS ?= -fuzzminimizetime 100x
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzStep -fuzztime 30s ./envs/catalog
	$(GO) test -run '^$$' -fuzz '^FuzzParseAction$$' -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./envs/terminal
	$(GO) test -run '^$$' -fuzz '^FuzzJSONL$$' -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./envs/dataset
	$(GO) test -run '^$$' -fuzz '^FuzzJSONLIndex$$' -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./envs/dataset
	$(GO) test -run '^$$' -fuzz '^FuzzParquet$$' -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./envs/dataset
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./internal/prompt
	$(GO) test -run '^$$' -fuzz '^FuzzParseAction$$' -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./envs/retail
