"""`git log --oneline` reads as a changelog: every commit since the rule was adopted has a subject
line of at most 72 characters (the detail goes in the body)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SINCE = "eb7e26e"  # the last commit before subjects were held to 72 characters
LIMIT = 72


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_every_commit_subject_since_the_rule_fits_on_one_short_line() -> None:
    if shutil.which("git") is None or _git("rev-parse", "HEAD").returncode != 0:
        pytest.skip("not a git checkout")
    # A shallow clone may not hold SINCE: then the commits it holds.
    known = _git("cat-file", "-e", f"{SINCE}^{{commit}}").returncode == 0
    subjects = _git("log", "--format=%s", f"{SINCE}..HEAD" if known else "HEAD").stdout.splitlines()
    long = [s for s in subjects if len(s) > LIMIT]
    assert subjects and long == [], long
