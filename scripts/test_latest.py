"""The unit suite on the newest allowed versions, and which packages moved from the lock (`make test-latest`).

Run with the Python of a venv that holds browserx and its test extra at the newest versions
pyproject.toml allows. Prints every package whose installed version differs from the lock (and those
the lock does not know), runs pytest with the arguments after ``--`` (every module from source:
BROWSERX_PURE=1, the compiled build belongs to .venv), then prints the verdict beside what moved, so
a new release that breaks browserx is named in the same screen as the failure.

Usage: python scripts/test_latest.py --lock requirements/pip.txt --lock requirements/dev.txt -- -q -m "not e2e"
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def locked_versions(lock: Path) -> dict[str, str]:
    """Name → version of every pin in a compiled lock whose marker holds on this interpreter."""
    pins: dict[str, str] = {}
    for line in lock.read_text(encoding="utf-8").splitlines():
        if not line or line[0] in " #-":  # hashes, comments and options are not pins
            continue
        try:
            req = Requirement(line.rstrip(" \\"))
        except InvalidRequirement:
            continue
        if req.marker is not None and not req.marker.evaluate():
            continue
        (spec,) = req.specifier
        pins[canonicalize_name(req.name)] = spec.version
    return pins


def installed_versions() -> dict[str, str]:
    return {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}


def drift(locked: dict[str, str], installed: dict[str, str]) -> list[str]:
    """One line per package that is not at its locked version: moved, new, or gone."""
    lines = []
    for name in sorted(locked.keys() | installed.keys()):
        if name == "browserx":
            continue
        old, new = locked.get(name), installed.get(name)
        if old == new:
            continue
        if old is None:
            lines.append(f"  new    {name} {new} (not in the lock)")
        elif new is None:
            lines.append(f"  gone   {name} {old} (locked, not installed)")
        else:
            lines.append(f"  moved  {name} {old} -> {new}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lock", type=Path, action="append", required=True, help="a lock (again for more)")
    parser.add_argument("pytest_args", nargs="*")
    args = parser.parse_args()
    locked = {name: version for lock in args.lock for name, version in locked_versions(lock).items()}
    moved = drift(locked, installed_versions())
    report = "\n".join(moved) if moved else "  nothing: every package is at its locked version"
    print(f"Packages off the lock ({', '.join(map(str, args.lock))}):\n{report}\n", flush=True)
    env = {**os.environ, "BROWSERX_PURE": "1", "BROWSERX_OFF_LOCK": "1"}
    code = subprocess.call([sys.executable, "-m", "pytest", *args.pytest_args], cwd=ROOT, env=env)
    verdict = "passed" if code == 0 else f"FAILED (pytest exit {code})"
    print(f"\nThe unit suite {verdict} on the newest allowed versions; off the lock:\n{report}")
    return code


if __name__ == "__main__":
    sys.exit(main())
