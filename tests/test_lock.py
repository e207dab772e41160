"""The locks say what every install runs on (`make lock`): they must answer what asks for them.

A range changed in pyproject.toml, or an app added to a corpus's requirements.in, without `make lock`
leaves the lock behind: `make test` would still pass on the old pins while a new user's
`pip install browserx` resolves something else. These tests fail first.
"""

from __future__ import annotations

import os
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from scripts.test_latest import drift, locked_versions

ROOT = Path(__file__).resolve().parent.parent
LOCKS = {
    "requirements/pip.txt": ["requirements/pip.in"],
    "requirements/dev.txt": ["requirements/build.in"],
    "tests/e2e/apps/requirements.txt": ["tests/e2e/apps/requirements.in"],
    "tests/e2e/apps/oracle/requirements.txt": ["tests/e2e/apps/oracle/requirements.in"],
    "bench/requirements.txt": ["bench/requirements.in"],
}


def _inputs(lock: str) -> list[Requirement]:
    reqs = []
    if lock == "requirements/dev.txt":
        project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
        reqs += [Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["test"]]
    for source in LOCKS[lock]:
        for line in (ROOT / source).read_text(encoding="utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                reqs.append(Requirement(line))
    return reqs


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_input_is_locked_at_a_version_it_allows(lock: str) -> None:
    pins = locked_versions(ROOT / lock)
    for req in _inputs(lock):
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is asked for but not in {lock}: run `make lock`"
        assert req.specifier.contains(pins[name], prereleases=True), (
            f"{lock} pins {name}=={pins[name]}, outside {req}: run `make lock`"
        )


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_pin_is_exact_and_hashed(lock: str) -> None:
    """pip --require-hashes refuses a lock with a loose or unhashed line; say so before an install does."""
    text = (ROOT / lock).read_text(encoding="utf-8")
    blocks = [b for b in text.split("\n") if b and b[0] not in " #"]
    assert blocks, f"{lock} pins nothing"
    for line in blocks:
        assert "==" in line, f"{lock}: {line!r} is not an exact pin"
    assert text.count("==") <= text.count("--hash=sha256:"), f"{lock}: a pin without a hash"


@pytest.mark.skipif(
    os.environ.get("BROWSERX_OFF_LOCK") == "1", reason="make test-latest runs off the lock on purpose"
)
def test_the_venv_runs_on_the_lock() -> None:
    """What this suite runs on is what the lock says (make venv installs from it)."""

    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}
    moved = [
        line for line in drift(locked_versions(ROOT / "requirements/dev.txt"), installed) if "moved" in line
    ]
    assert not moved, "the venv is off the lock (make venv, or make test-latest's venv?):\n" + "\n".join(
        moved
    )


def test_drift_names_what_moved_what_is_new_and_what_is_gone() -> None:
    lines = drift(
        {"msgspec": "0.22.0", "pytest": "9.2.0", "gone-pkg": "1.0"},
        {"msgspec": "0.23.0", "pytest": "9.2.0", "new-pkg": "2.0"},
    )
    assert lines == [
        "  gone   gone-pkg 1.0 (locked, not installed)",
        "  moved  msgspec 0.22.0 -> 0.23.0",
        "  new    new-pkg 2.0 (not in the lock)",
    ]
