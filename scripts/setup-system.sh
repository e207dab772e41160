#!/bin/sh
# System packages the tests and demo need: Debian's Chromium and its ChromeDriver.
set -eu
# And a C compiler for `make native` (mypyc); without one the host runs as plain Python.
PKGS=""
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1 || ! command -v cc >/dev/null 2>&1; then
  PKGS="chromium chromium-driver gcc"
fi
# And Node's npm for the end-to-end corpus's npm packages (scripts/setup-corpus.sh).
NODE=""
command -v npm >/dev/null 2>&1 || NODE="nodejs npm"
if [ -z "$PKGS$NODE" ]; then
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
if [ -n "$PKGS" ]; then
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $PKGS
fi
if [ -n "$NODE" ]; then
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $NODE
fi
