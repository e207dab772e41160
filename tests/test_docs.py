"""docs/SECURITY.md says which test proves each promise: every test it names must exist, so a
renamed or deleted test cannot leave a promise proved by nothing."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# `tests/a/b.py::name`, `tests/a/b.py`, and `::name` (a test of the file named last).
_REF = re.compile(r"(tests/[\w/]+\.py)(?:::(\w+))?|`::(\w+)")


def named_tests(text: str) -> list[tuple[str, str | None]]:
    refs: list[tuple[str, str | None]] = []
    last: str | None = None
    for match in _REF.finditer(text):
        if match.group(1):
            last = match.group(1)
            refs.append((last, match.group(2)))
        elif last is not None:
            refs.append((last, match.group(3)))
    return refs


def test_every_test_security_md_names_exists() -> None:
    refs = named_tests((ROOT / "docs" / "SECURITY.md").read_text(encoding="utf-8"))
    assert len(refs) > 40
    missing = []
    for path, name in refs:
        source = ROOT / path
        if not source.is_file():
            missing.append(path)
        elif name is not None and not re.search(rf"^(?:async )?def {name}\(", source.read_text(), re.M):
            missing.append(f"{path}::{name}")
    assert missing == []


def test_a_missing_test_is_found() -> None:
    refs = named_tests("`tests/test_docs.py::no_such_test`, `::test_a_missing_test_is_found`")
    assert refs == [
        ("tests/test_docs.py", "no_such_test"),
        ("tests/test_docs.py", "test_a_missing_test_is_found"),
    ]
