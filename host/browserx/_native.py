"""Compiled hot modules: used only while they match their sources, and all together.

`make native` (scripts/build_native.py) compiles the snapshot and view passes with mypyc in place
and records each source's hash in native.json. Python would import a compiled module before its
.py even after the .py was edited, and compiled modules call each other directly rather than
through the import system, so mixing old and new code is silent. Hence: if any compiled
module's source changed since the build, or BROWSERX_PURE=1, every one of them is imported from
its source. Imported by browserx/__init__.py before anything else.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from browserx.environment import environment

PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "native.json"


class _Sources(importlib.abc.MetaPathFinder):
    """Imports the listed modules from their .py files, skipping any compiled twin."""

    def __init__(self, modules: dict[str, Path]) -> None:
        self.modules = modules

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = self.modules.get(fullname)
        return importlib.util.spec_from_file_location(fullname, source) if source else None


def source_hash(path: Path) -> str:
    """What the manifest records of a compiled module's source (scripts/build_native.py too)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _read(manifest: Path) -> dict[str, Any] | None:
    try:
        recorded = json.loads(manifest.read_text())
    except (OSError, ValueError):
        return None
    return recorded if isinstance(recorded, dict) and isinstance(recorded.get("modules"), dict) else None


def _source_of(name: str, package: Path) -> Path:
    return package.parent / (name.replace(".", "/") + ".py")


def compiled_modules(package: Path = PACKAGE, manifest: Path = MANIFEST) -> dict[str, Path]:
    """Modules the last build compiled, with their sources (empty if nothing was built)."""
    recorded = _read(manifest)
    return {name: _source_of(name, package) for name in recorded["modules"]} if recorded else {}


def up_to_date(package: Path = PACKAGE, manifest: Path = MANIFEST) -> bool:
    """Whether every compiled module still matches its source, for this interpreter."""
    recorded = _read(manifest)
    if recorded is None or recorded.get("python") != sys.implementation.cache_tag:
        return False
    # The shared library the compiled modules link to must be importable (it sits beside the package).
    library = recorded.get("library")
    if (
        not isinstance(library, str)
        or importlib.machinery.PathFinder.find_spec(library, [str(package.parent)]) is None
    ):
        return False
    try:
        return all(
            source_hash(_source_of(name, package)) == digest for name, digest in recorded["modules"].items()
        )
    except OSError:
        return False


def _install() -> bool:
    """Route compiled modules to their sources unless the build is current; True if compiled
    code will run."""
    modules = compiled_modules()
    if not modules:
        return False
    if not environment().pure and up_to_date():
        return True
    sys.meta_path.insert(0, _Sources(modules))
    return False


ACTIVE = _install()
