# streamlab — `make help` lists the targets.

SHELL    := bash
GO       ?= go
BIN      ?= bin/streamlab
PKGS     ?= ./...
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT   ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS  ?= -X main.version=$(VERSION) -X main.commit=$(COMMIT)

# Arguments for `make run`, e.g. make run ARGS='lab passthrough'.
ARGS     ?=
# Benchmarks to run (a -bench regexp), e.g. make bench BENCH=Pipeline/clicks.
BENCH    ?= .
# Repetitions of each benchmark; use 10 or more for benchstat.
COUNT    ?= 1
# Cases per guarantee in `make soak` (three guarantees).
SOAK     ?= 3334
# How long each fuzz target runs.
FUZZTIME ?= 20s
# Packages whose golden files `make golden` rewrites.
GOLDEN   ?= ./tui/...

.DEFAULT_GOAL := help

.PHONY: help build run test test-race bench bench-serve lint fmt golden tidy-check vulncheck fuzz cover clean soak release conformance

help: ## List the targets
	@echo "usage: make TARGET [VAR=value ...]"
	@echo
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  %-11s %s\n", $$1, $$2}'

build: ## Build bin/streamlab with the version and commit stamped in
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) .

run: ## Open the terminal lab (go run .); pass arguments with ARGS='...'
	$(GO) run -ldflags '$(LDFLAGS)' . $(ARGS)

test: ## Vet, then run every test with the race detector (what CI runs)
	$(GO) vet $(PKGS)
	$(GO) test -race -count=1 -timeout 25m $(PKGS)

conformance: ## Run the lab's scenarios on real Flink 2.3.0 (and Spark) too; print the table, refresh conformance/TABLE.md and the README's copy (needs Java 17, Maven, Python 3.11; installs into .conformance/)
	bash conformance/run

test-race: ## Run the tests with the race detector at GOMAXPROCS=1 and 2
	GOMAXPROCS=1 $(GO) test -race -count=1 $(PKGS)
	GOMAXPROCS=2 $(GO) test -race -count=1 $(PKGS)

bench: ## Run the benchmarks (BENCH=regexp, COUNT=n) with allocations, then bench-serve
	$(GO) test -run='^$$' -bench='$(BENCH)' -skip='^BenchmarkClassroom$$' -benchmem -count=$(COUNT) $(PKGS)
	$(MAKE) bench-serve

# Students in `make bench-serve` (a list: 10,100), and its half-second rounds.
SESSIONS ?= 100
ROUNDS   ?= 60

bench-serve: ## Serve a class of SESSIONS (100) on 127.0.0.1, with and without two hostile students; print CPU, RSS and key-to-frame latency
	CLASSROOM_SESSIONS=$(SESSIONS) $(GO) test -run='^$$' -bench='^BenchmarkClassroom$$' -benchtime=$(ROUNDS)x -count=$(COUNT) -timeout 30m ./classroom/

lint: ## Vet, fail on unformatted files, run staticcheck (pinned, fetched by go run), and compile for Windows and macOS as make release does
	$(GO) vet $(PKGS)
	GOOS=windows $(GO) build -o /dev/null $(PKGS)
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null $(PKGS)
	@unformatted="$$(gofmt -l .)"; \
	if [ -n "$$unformatted" ]; then \
		echo "these files need gofmt (run make fmt):"; echo "$$unformatted"; exit 1; \
	fi
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $(PKGS)

fmt: ## Format every Go file in place
	gofmt -w .

golden: ## Rewrite the terminal lab's golden files, the exported programs' and the README's generated sections
	$(GO) test $(GOLDEN) -update
	$(GO) test ./engine/export -run Golden -update
	UPDATE_README=1 $(GO) test ./engine/lab -run README
	$(GO) test ./tui/ -run README -update

# govulncheck and the Go vulnerability database it reads, both pinned: the
# database is golang.org/x/vulndb's OSV files, fetched from the module proxy.
GOVULNCHECK ?= v1.10.0
VULNDB ?= v0.0.0-20261105234957-e22db6528018

vulncheck: ## Fail when the code calls a vulnerable function (govulncheck, pinned database); standard-library ones listed in .ci/stdlib-vulns are accepted with their reason
	@set -e; db=$$(cd "$${TMPDIR:-/tmp}" && GOFLAGS= $(GO) mod download -json golang.org/x/vulndb@$(VULNDB) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	test -d "$$db/data/osv" || { echo "vulncheck: golang.org/x/vulndb@$(VULNDB) has no data/osv"; exit 1; }; \
	out=$$(mktemp); trap 'rm -f "$$out"' EXIT; \
	$(GO) run golang.org/x/vuln/cmd/govulncheck@$(GOVULNCHECK) -format json -db "file://$$db/data/osv" $(PKGS) > "$$out"; \
	python3 .ci/vulncheck .ci/stdlib-vulns < "$$out"

tidy-check: ## Fail when go.mod or go.sum are not tidy
	$(GO) mod tidy
	git diff --exit-code -- go.mod go.sum

soak: ## Run the guarantee property tests over SOAK generated cases per guarantee (about 10 000 in all)
	@start=$$(date +%s); \
	$(GO) test -count=1 -run '^TestGuaranteesUnderFailures$$' -timeout 0 ./engine/ -rapid.checks=$(SOAK) -v | grep -E '^ *(--- |ok|FAIL|PASS)|\[rapid\] (OK|failed)' ; \
	status=$${PIPESTATUS[0]}; \
	echo "soak: asked for $(SOAK) generated cases per guarantee; rapid's lines above say how many passed; $$(( $$(date +%s) - start )) s"; \
	exit $$status

fuzz: ## Run each fuzz target for FUZZTIME (default 20s)
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
		list=$$($(GO) test -list '^Fuzz' $$pkg) || { echo "$$list"; exit 1; }; \
		for target in $$(echo "$$list" | grep '^Fuzz'); do \
			echo "== $$pkg $$target ($(FUZZTIME))"; \
			$(GO) test -run='^$$' -fuzz="^$$target\$$" -fuzztime=$(FUZZTIME) $$pkg; \
		done; \
	done

cover: ## Run the tests with coverage and print the total
	$(GO) test -count=1 -coverprofile=coverage.out $(PKGS)
	$(GO) tool cover -func=coverage.out | tail -n 1

clean: ## Remove built binaries, release archives and coverage files
	rm -rf bin dist coverage.out coverage.html

# Platforms `make release` builds for (GOOS/GOARCH).
PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

release: ## Cross-build dist/streamlab-VERSION-OS-ARCH for every platform, with SHA256SUMS
	@set -e; rm -rf dist; mkdir -p dist; \
	for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; ext=; [ "$$os" = windows ] && ext=.exe; \
		out=dist/streamlab-$(VERSION)-$$os-$$arch$$ext; \
		echo "== $$out"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS) -s -w' -o $$out .; \
	done; \
	cd dist && sha256sum streamlab-* > SHA256SUMS && cat SHA256SUMS

.PHONY: golden-answers
golden-answers: ## Rewrite the pinned answer keys of the built-in exercises and the lessons' answers
	$(GO) test ./exercises -run AnswerKeysArePinned -update
	$(GO) test ./lessons -run AnswersArePinned -update

# Mutation testing: the pinned gremlins, how many mutants run at once, and
# what each scope leaves out (a regexp of paths relative to the package).
GREMLINS        ?= $(GO) run github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0
MUTATE_WORKERS  ?= 2
MUTATE_ENGINE   ?= -E '(lab|jobspec|table|filter|script|internal|bus|report|deps|restart)/' -E '(^|/)(active_standby|bus|chain|concurrent|config|dedup|deps|deterministic|driver|gap|node|passive_standby|passwords|playhead|record|report|restart|runtime|scheme|sink|snapshot|recovery|source)\.go$$'
MUTATE_LESSONS  ?= -E '(^|/)(lessons|load|meta|progress|session|verify)\.go$$'

.PHONY: mutate
mutate: ## Mutation testing (gremlins): the engine's window, checkpoint, upstream-backup and ledger code, exercises/grade, lessons' checks; about 40 minutes on 2 cores; prints each package's score
	@set -o pipefail; start=$$(date +%s); : > mutate.out; \
	for scope in "./exercises/grade" "./lessons $(MUTATE_LESSONS)" "./engine $(MUTATE_ENGINE)"; do \
		set -- $$scope; pkg=$$1; shift; \
		echo "== $$pkg"; \
		eval GOFLAGS=-short $(GREMLINS) unleash --workers $(MUTATE_WORKERS) --timeout-coefficient 5 "$$@" $$pkg 2>&1 | \
			tee -a mutate.out | grep -E '^ *(LIVED|TIMED OUT)|Killed:|Test efficacy|Mutator coverage' ; \
	done; \
	echo "mutate: $$(( $$(date +%s) - start )) s; every mutant's status is in mutate.out"

.PHONY: planted
planted: ## Plant, one at a time in a copy of the tree, the bugs the tests once missed; each must fail its tests
	bash .ci/planted
