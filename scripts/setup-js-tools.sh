#!/bin/sh
# The JavaScript tools (tsc, eslint, esbuild: pinned in tools/js/package.json and package-lock.json)
# into tools/js/node_modules, `npm ci` without install scripts. Idempotent and quick when done:
# redone only when the pinned list changed. Node and npm come from scripts/setup-system.sh.
set -eu
cd "$(dirname "$0")/../tools/js"
want=$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)
if [ "$(cat node_modules/.installed 2>/dev/null)" != "$want" ]; then
  npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
  echo "$want" > node_modules/.installed
fi
