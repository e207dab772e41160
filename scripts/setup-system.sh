#!/bin/sh
# System packages the tests and demo need: Debian's Chromium and its ChromeDriver.
set -eu
# And a C compiler for `make native` (mypyc); without one the host runs as plain Python.
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 && command -v cc >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver gcc
