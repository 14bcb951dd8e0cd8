# PaperTree: build, run and test on Debian 12 (as root, or with sudo).
#   make run     install what is missing, build the desktop app, start it
#                (under Xvfb automatically when there is no $DISPLAY)
#   make build   the desktop app (build/bin/papertree-app) and the CLI (bin/papertree)
#   make test    gofmt, go vet, go test, frontend tests, window smoke test, e2e, .deb install test
#   make e2e     end-to-end: the real app (Wails dev server) driven by chromium
#   make deps    only install what is missing (apt packages, Wails CLI, npm ci)
#   make dev     wails dev (live reload; needs a display; serves http://localhost:34115)
#   make bindings  regenerate frontend/wailsjs after changing methods bound in app/
#   make package   build/papertree_<version>_<arch>.deb (app, CLI, desktop entry, icon, Depends)
#   make package-test  check the .deb, install it (as root) and start both binaries
#   make fuzz    run every fuzz target FUZZTIME each (default 30s; not part of make test)

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build

GO        ?= go
# webkit2_41: Debian 12 ships WebKitGTK 4.1 (not 4.0); sqlite_fts5: full-text search.
TAGS      := webkit2_41 sqlite_fts5
WAILS     := $(shell $(GO) env GOPATH | cut -d: -f1)/bin/wails
VERSION   ?= 0.1.0+$(shell git rev-parse --short HEAD 2>/dev/null || echo dev)
APP       := build/bin/papertree-app
CLI       := bin/papertree
GO_TEST_TIMEOUT ?= 20m
ARGS      ?=
# wails build: -s (the frontend is built here, after npm ci), -skipbindings
# (generated just before), -m and -nosyncgomod (never rewrite go.mod/go.sum).
# No -trimpath: it would miss the build cache of go test/vet and recompile cgo.
WAILS_BUILD_FLAGS := -s -skipbindings -m -nosyncgomod

.PHONY: all deps build app frontend bindings cli run dev test fmt-check vet test-go test-frontend smoke e2e check-bindings clean package package-test fuzz

all: build

deps:
	scripts/deps.sh

build: app cli

bindings:
	scripts/deps.sh wails
	$(WAILS) generate module -tags "$(TAGS)" >/dev/null
	find frontend/wailsjs -type f -exec chmod 644 {} +

frontend: bindings
	scripts/deps.sh frontend
	cd frontend && npm run build --silent

app:
	scripts/deps.sh
	$(MAKE) --no-print-directory frontend
	$(WAILS) build $(WAILS_BUILD_FLAGS) -tags "$(TAGS)" -ldflags "-X main.version=$(VERSION)"
	@echo "built $(APP)"

cli:
	@if [ -d backend/cmd/papertree ]; then \
		$(GO) build -tags "sqlite_fts5" -ldflags "-X main.version=$(VERSION)" -o $(CLI) ./backend/cmd/papertree && echo "built $(CLI)"; \
	else echo "cli: backend/cmd/papertree not there yet, skipped"; fi

run: app
	@if [ -n "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then \
		exec ./$(APP) $(ARGS); \
	else \
		echo "run: no display, starting under Xvfb (screenshot with: DISPLAY=<shown by xvfb-run> import -window root shot.png)"; \
		exec xvfb-run -a -s "-screen 0 1280x860x24 -nolisten tcp" ./$(APP) $(ARGS); \
	fi

dev:
	scripts/deps.sh
	$(WAILS) dev -tags "$(TAGS)" -m -nosyncgomod $(if $(ARGS),-appargs "$(ARGS)")

test:
	scripts/deps.sh
	$(MAKE) --no-print-directory fmt-check vet test-go test-frontend smoke e2e package-test check-bindings

fmt-check:
	@files=$$(git ls-files -co --exclude-standard -- '*.go' ':!:third_party/**' 2>/dev/null || \
		find . -name '*.go' -not -path './frontend/*' -not -path './third_party/*'); \
	bad=$$(gofmt -l $$files); \
	if [ -n "$$bad" ]; then echo "gofmt: these files need formatting (run gofmt -w):"; echo "$$bad"; exit 1; fi; \
	echo "gofmt: ok"

vet:
	$(GO) vet -tags "$(TAGS)" ./...

test-go:
	$(GO) test -tags "sqlite_fts5" -timeout $(GO_TEST_TIMEOUT) ./...

test-frontend:
	scripts/deps.sh frontend
	cd frontend && npx --no-install tsc && npm test --silent

smoke: app cli
	scripts/smoke.sh $(APP) build/smoke/first-run.png $(wildcard $(CLI))

# The real app and Go backend behind the Wails dev server, driven by Debian's
# chromium (playwright-core) under Xvfb; screenshots in build/e2e/.
e2e:
	scripts/e2e.sh

# Bindings are committed (npm run build then works without the Wails CLI).
# `make app` regenerates them; a difference means app/ changed without them.
check-bindings:
	@if git rev-parse --git-dir >/dev/null 2>&1 && [ -n "$$(git -c core.fileMode=false status --porcelain -- frontend/wailsjs)" ]; then \
		echo "bindings: frontend/wailsjs is out of date with app/; commit the regenerated files:"; \
		git -c core.fileMode=false status --short -- frontend/wailsjs; exit 1; \
	fi; echo "bindings: up to date"

# A Debian package of the built app and CLI: sudo apt install ./build/papertree_*.deb
package: build
	scripts/package.sh $(APP) $(CLI) $(VERSION)

package-test: package
	scripts/package-test.sh

# Every Go fuzz target for FUZZTIME. A target whose code branches a lot (the
# front-matter rules) finds new coverage every few inputs, and Go minimizes each
# such input for up to a minute by default, counting none of those runs: the
# exec rate then reads 0/s for minutes although nothing hangs. Minimizing is
# capped at 3 s so the time goes to fuzzing. A failing input is written to
# the package's testdata/fuzz and reruns in go test from then on.
FUZZTIME ?= 30s
FUZZ_TARGETS := bibtex:FuzzParse pdf:FuzzParse treebuild:FuzzFrontMatter treebuild:FuzzBuild treebuild:FuzzTables
fuzz:
	for t in $(FUZZ_TARGETS); do \
		echo "fuzz $$t ($(FUZZTIME))"; \
		$(GO) test -tags "sqlite_fts5" -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 3s ./backend/$${t%%:*}/ || exit 1; \
	done

clean:
	rm -rf build/papertree_*.deb build/bin build/smoke bin frontend/dist/assets frontend/dist/index.html
