# The README's test command is `make test`; .ci/run calls it after installing
# what the tests need (scripts/install-test-deps.sh).
GO ?= go

.PHONY: test vet deps bench fuzz

test: deps vet
	$(GO) test -count=1 ./...

vet:
	$(GO) vet ./...

deps:
	bash scripts/install-test-deps.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./envs/...

# Each target runs alone (go test -fuzz takes one target at a time). New inputs
# are minimised for at most 100 runs, so the time goes to fuzzing.
FUZZTIME ?= 60s
FUZZFLAGS ?= -fuzzminimizetime 100x
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzStep -fuzztime 30s ./envs/catalog
	$(GO) test -run '^$$' -fuzz '^FuzzJSONL$$' -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./envs/dataset
	$(GO) test -run '^$$' -fuzz '^FuzzJSONLIndex$$' -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./envs/dataset
	$(GO) test -run '^$$' -fuzz '^FuzzParquet$$' -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./envs/dataset
