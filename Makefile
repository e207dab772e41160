# browserx — see README.md. Everything runs from the project's own venv (.venv).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BX := $(VENV)/bin/browserx

.PHONY: setup system venv native install-host uninstall-host demo test test-unit test-e2e lint bench clean

setup: system venv native

system:
	sh scripts/setup-system.sh

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
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

test: setup
	$(PY) -m pytest -q

test-unit: venv native
	$(PY) -m pytest -q -m "not e2e"

test-e2e: setup
	$(PY) -m pytest -q -m e2e

# Not part of `make test`: compares browserx with browser-use and Playwright on one shared Chromium
# and writes docs/BENCHMARKS.md (~10 min). The comparison packages go into .venv only here.
# The comparison tools (browser-use, Playwright) pin their own dependency versions, so they get
# a venv of their own; the browserx host keeps running from .venv.
BENCH_VENV := .venv-bench

bench: setup
	test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install -q -e . -r bench/requirements.txt
	$(BENCH_VENV)/bin/python bench/run.py $(BENCH_ARGS)

lint: venv
	$(VENV)/bin/ruff check host tests scripts
	$(VENV)/bin/ruff format --check host tests scripts
	$(VENV)/bin/mypy

clean:
	test ! -x $(PY) || $(PY) scripts/build_native.py --clean
	rm -rf $(VENV) $(BENCH_VENV) .pytest_cache .mypy_cache .ruff_cache
