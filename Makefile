# browserx — see README.md. Everything runs from the project's own venv (.venv).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BX := $(VENV)/bin/browserx

.PHONY: setup system venv native install-host uninstall-host demo corpus test test-unit test-e2e test-latest lock lock-upgrade fuzz soak lint js-tools page-library bench bench-venv bench-corpus bench-oracle bench-forms bench-tools bench-pacing bench-small bench-screenshot clean

setup: system venv native

system:
	sh scripts/setup-system.sh

# What the venv, the corpora and the bench run on is locked: exact versions with their hashes
# (requirements/dev.txt from pyproject.toml's ranges and requirements/build.in, pip's own in
# requirements/pip.txt; the *.in files beside
# the corpora's and the bench's requirements.txt), compiled by `make lock`. pyproject.toml keeps the
# ranges a `pip install browserx` accepts; `make test-latest` runs the unit suite on the newest of them.
LOCK := requirements/dev.txt

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml requirements/pip.txt $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --require-hashes -r requirements/pip.txt
	$(PY) -m pip install -q --require-hashes -r $(LOCK)
	$(PY) -m pip install -q --no-deps --no-build-isolation -e .
	touch $@

# The snapshot and view passes compiled with mypyc (scripts/build_native.py), rebuilt when a source
# changes; until then the host imports every one of them from source (host/browserx/_native.py).
native: $(VENV)/.native

$(VENV)/.native: $(VENV)/.installed scripts/build_native.py $(wildcard host/browserx/snapshot/*.py host/browserx/views/*.py)
	$(PY) scripts/build_native.py
	touch $@

install-host: venv native
	$(BX) install-host

uninstall-host: venv
	$(BX) uninstall-host

demo: setup
	$(PY) scripts/demo.py

# The real web apps of the end-to-end corpus (tests/e2e/apps): .venv-apps and npm packages; the oracle
# corpus's UI libraries (tests/e2e/apps/oracle: npm) and Python data apps (.venv-oracle).
corpus:
	PYTHON=$(PYTHON) sh scripts/setup-corpus.sh

# COVERAGE=1 (what .ci/run runs): the same suite once, under coverage, in two parts: the unit tests with
# every module imported from source (BROWSERX_PURE=1: compiled code is invisible to coverage;
# tests/test_native.py still runs the compiled build when BROWSERX_REQUIRE_NATIVE=1), then the end-to-end
# tests on the compiled build (the hosts Chromium starts measured too: pyproject.toml [tool.coverage]).
# Then host/ by package (scripts/coverage_report.py), failing under COVERAGE_FLOOR percent.
COVERAGE_FLOOR ?= 85
COVERAGE_DATA := $(CURDIR)/.coverage
# The suite runs in JOBS pytest-xdist workers, a test file to a worker (--dist loadfile: a file's
# module fixtures are built once), each end-to-end worker with a browser of its own; the slowest
# tests are listed at the end. JOBS=1 runs it in one process.
JOBS ?= 2
PYTEST_ARGS := -q -n $(JOBS) --dist loadfile --durations=15

test: setup corpus
ifeq ($(COVERAGE),1)
	rm -f $(COVERAGE_DATA) $(COVERAGE_DATA).*
	BROWSERX_PURE=1 COVERAGE_FILE=$(COVERAGE_DATA) $(PY) -m coverage run -m pytest $(PYTEST_ARGS) -m "not e2e"; unit=$$?; \
	COVERAGE_FILE=$(COVERAGE_DATA) $(PY) -m coverage run -m pytest $(PYTEST_ARGS) -m e2e; e2e=$$?; \
	COVERAGE_FILE=$(COVERAGE_DATA) $(PY) -m coverage combine -q && \
	$(PY) scripts/coverage_report.py --data-file $(COVERAGE_DATA) --fail-under $(COVERAGE_FLOOR) && \
	test $$unit = 0 && test $$e2e = 0
else
	$(PY) -m pytest $(PYTEST_ARGS)
endif

test-unit: venv native
	$(PY) -m pytest $(PYTEST_ARGS) -m "not e2e"

test-e2e: setup corpus
	$(PY) -m pytest $(PYTEST_ARGS) -m e2e

# The unit suite on the newest versions pyproject.toml allows (not the lock), in a venv of its own, from
# source: a release that breaks browserx is found here. scripts/test_latest.py says which packages
# moved from the lock, before the suite and again beside its verdict.
LATEST_VENV := .venv-latest

test-latest:
	rm -rf $(LATEST_VENV)
	$(PYTHON) -m venv $(LATEST_VENV)
	$(LATEST_VENV)/bin/python -m pip install -q --upgrade pip setuptools
	$(LATEST_VENV)/bin/python -m pip install -q --upgrade --upgrade-strategy eager -e '.[test]'
	$(LATEST_VENV)/bin/python scripts/test_latest.py --lock requirements/pip.txt --lock $(LOCK) -- -q -m "not e2e"

# Every lock compiled again from its inputs (uv, pinned here, in a venv of its own): after a range in
# pyproject.toml or a *.in file changed, `make lock` moves only what the change needs; `make lock-upgrade`
# moves everything to the newest versions the inputs allow. `git diff` shows what moved. The npm trees
# are locked by their package-lock.json (npm ci): their package.json pins each direct dependency;
# `npm install --package-lock-only` there after a change.
UV_VERSION := 0.13.9
LOCK_VENV := .venv-lock
UV := $(LOCK_VENV)/bin/uv
COMPILE = $(UV) pip compile --quiet $(LOCK_UPGRADE) --universal --python-version 3.11.5 --generate-hashes --no-strip-extras \
	--custom-compile-command 'make lock'

lock-upgrade: LOCK_UPGRADE := --upgrade
lock-upgrade: lock

lock:
	test -x $(UV) || ($(PYTHON) -m venv $(LOCK_VENV) && $(LOCK_VENV)/bin/python -m pip install -q uv==$(UV_VERSION))
	$(COMPILE) requirements/pip.in -o requirements/pip.txt
	$(COMPILE) pyproject.toml requirements/build.in --extra test -o $(LOCK)
	$(COMPILE) tests/e2e/apps/requirements.in -o tests/e2e/apps/requirements.txt
	$(COMPILE) tests/e2e/apps/oracle/requirements.in -o tests/e2e/apps/oracle/requirements.txt
	$(COMPILE) bench/requirements.in -o bench/requirements.txt

# Property-based fuzzing (tests/fuzz, hypothesis, derandomized) of the framing, the control socket,
# the relay and the host process. `make test` runs it at a CI-sized budget; `make fuzz` runs the full
# profile (>= 100,000 cases) and prints cases, crashes, hangs and memory at the end.
fuzz: venv
	BROWSERX_FUZZ=full $(PY) -m pytest -q tests/fuzz

# 1,000 observe-act cycles on the fixture pages with the real browser, extension and host; fails when
# an action errs or the host's RSS drifts more than 10 % (scripts/soak.py).
soak: setup
	$(PY) scripts/soak.py $(SOAK_ARGS)

# Not part of `make test`: compares browserx with browser-use and Playwright on one shared Chromium
# and writes docs/BENCHMARKS.md (~10 min). The comparison packages go into .venv only here.
# The comparison tools (browser-use, Playwright) pin their own dependency versions, so they get
# a venv of their own; the browserx host keeps running from .venv.
BENCH_VENV := .venv-bench

bench-venv: setup
	test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install -q --require-hashes -r requirements/pip.txt
	$(BENCH_VENV)/bin/python -m pip install -q --require-hashes -r bench/requirements.txt
	# browser-use pins an older mcp than browserx's MCP server needs, and the bench never serves MCP:
	# browserx goes in without its dependencies (those the bench uses are in its lock).
	$(BENCH_VENV)/bin/python -m pip install -q --no-deps --no-build-isolation -e .

bench: bench-venv corpus
	$(BENCH_VENV)/bin/python bench/run.py $(BENCH_ARGS)
	$(BENCH_VENV)/bin/python bench/corpus.py $(CORPUS_ARGS)
	$(BENCH_VENV)/bin/python bench/oracle_corpus.py $(ORACLE_ARGS)

# browserx vs Playwright on the real apps of tests/e2e/apps/corpus.py (found controls, tokens,
# snapshot latency, actions) on one shared Chromium; writes docs/CORPUS.md (~2-3 min). An app that
# fails to start is reported as such.
bench-corpus: bench-venv corpus
	$(BENCH_VENV)/bin/python bench/corpus.py $(CORPUS_ARGS)
	$(BENCH_VENV)/bin/python bench/oracle_corpus.py $(ORACLE_ARGS)

# browserx vs Playwright on the oracle corpus (tests/e2e/apps/oracle.py), Chrome's accessibility tree
# as the oracle; writes the oracle section of docs/CORPUS.md (~2 min).
bench-oracle: bench-venv corpus
	$(BENCH_VENV)/bin/python bench/oracle_corpus.py $(ORACLE_ARGS)

# A ten-field form: browserx fill (one call) vs ten single calls vs Playwright's fill/select/check on the
# same page of one Chromium, at an agent's pace; printed to stdout (~2 min).
bench-forms: bench-venv
	$(BENCH_VENV)/bin/python bench/forms.py $(FORMS_ARGS)

# drag, upload, a dialog answered, a download and the console read: browserx vs Playwright on the same
# page of one Chromium, at an agent's pace; printed to stdout (~4 min).
bench-tools: bench-venv
	$(BENCH_VENV)/bin/python bench/tools.py $(TOOLS_ARGS)

# A snapshot, then click, type, select and check, cold and warm, browserx vs Playwright on the same page
# of one Chromium, a random 1-3 s of thinking between calls (an agent's pace); printed to stdout (~20 min
# for 30 rounds; PACING_ARGS="--runs 5 --think 1-1" for a look).
bench-pacing: bench-venv
	$(BENCH_VENV)/bin/python bench/pacing.py $(PACING_ARGS)

# Small pages (the MiniWoB++ task pages, PyPI's miniwob, served locally): browserx's snapshot vs
# Playwright's ariaSnapshot on the same tab of one Chromium, interleaved, 0.2-0.5 s of thinking before
# each call; per-page medians and the median of medians, printed to stdout (~15 min for 33 pages and
# 30 rounds; SMALL_ARGS="--every 13 --runs 10" for a look, --stats for browserx's own breakdown).
bench-small: bench-venv
	$(BENCH_VENV)/bin/python bench/small_pages.py $(SMALL_ARGS)

# Screenshot latency (viewport and full page, PNG and JPEG, of the 20k generated page) and the size of
# the hybrid view (semantic JSON + JPEG) on a few fixture pages, printed to stdout (~1 min).
bench-screenshot: setup
	$(PY) bench/screenshot.py $(SHOT_ARGS)

# tsc, eslint and esbuild, pinned in tools/js/package.json, into tools/js/node_modules (redone when the
# pins change).
js-tools:
	sh scripts/setup-js-tools.sh

# The page library, host/browserx/page/library.gen.js: every page module bundled (tools/js/build.mjs).
# Run it after changing a module; `make lint` fails while the committed bundle is stale.
page-library: js-tools
	node tools/js/build.mjs

# The JavaScript too: tsc over its JSDoc types (tools/js/check.mjs: the extension, and the page
# library's modules against host/browserx/page_api.d.ts and snippets.d.ts; the bundle is fresh), eslint
# (tools/js/eslint.config.mjs), and the unit tests of the collector's pure parts under node (tools/js/test).
lint: venv js-tools
	$(VENV)/bin/ruff check host tests scripts bench
	$(VENV)/bin/ruff format --check host tests scripts bench
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	node tools/js/check.mjs
	tools/js/node_modules/.bin/eslint --config tools/js/eslint.config.mjs host/browserx tools/js
	node --test --test-reporter=dot tools/js/test/*.test.mjs

clean:
	test ! -x $(PY) || $(PY) scripts/build_native.py --clean
	rm -rf $(VENV) $(BENCH_VENV) $(LATEST_VENV) $(LOCK_VENV) .pytest_cache .mypy_cache .ruff_cache .coverage .coverage.*
