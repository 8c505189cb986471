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

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzStep -fuzztime 30s ./envs/catalog
