#!/bin/sh
# The real web apps of the end-to-end corpus (tests/e2e/apps/corpus.py): the PyPI ones into their
# own venv .venv-apps (the lock tests/e2e/apps/requirements.txt: versions and hashes), the npm ones into
# tests/e2e/apps/node_modules (`npm ci` from the committed package-lock.json, no install scripts).
# Idempotent and quick when done: each half is redone only when its pinned list changed.
set -eu
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
APPS=tests/e2e/apps
VENV=.venv-apps

digest() { cat "$@" | sha256sum | cut -d' ' -f1; }

want=$(digest requirements/pip.txt "$APPS/requirements.txt")
if [ "$(cat "$VENV/.installed" 2>/dev/null)" != "$want" ]; then
  [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --require-hashes -r requirements/pip.txt
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --require-hashes -r "$APPS/requirements.txt"
  echo "$want" > "$VENV/.installed"
fi

want=$(digest "$APPS/package.json" "$APPS/package-lock.json")
if [ "$(cat "$APPS/node_modules/.installed" 2>/dev/null)" != "$want" ]; then
  (cd "$APPS" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
  echo "$want" > "$APPS/node_modules/.installed"
fi

# The oracle corpus (tests/e2e/apps/oracle.py): UI libraries from npm into oracle/node_modules, the
# Python data apps into their own venv .venv-oracle (the lock oracle/requirements.txt).
ORACLE=$APPS/oracle
OVENV=.venv-oracle
want=$(digest requirements/pip.txt "$ORACLE/requirements.txt")
if [ "$(cat "$OVENV/.installed" 2>/dev/null)" != "$want" ]; then
  [ -x "$OVENV/bin/python" ] || "$PYTHON" -m venv "$OVENV"
  "$OVENV/bin/python" -m pip install -q --disable-pip-version-check --require-hashes -r requirements/pip.txt
  "$OVENV/bin/python" -m pip install -q --disable-pip-version-check --require-hashes -r "$ORACLE/requirements.txt"
  echo "$want" > "$OVENV/.installed"
fi
want=$(digest "$ORACLE/package.json" "$ORACLE/package-lock.json")
if [ "$(cat "$ORACLE/node_modules/.installed" 2>/dev/null)" != "$want" ]; then
  (cd "$ORACLE" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
  echo "$want" > "$ORACLE/node_modules/.installed"
fi
