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
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

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


def compiled_modules(package: Path = PACKAGE, manifest: Path = MANIFEST) -> dict[str, Path]:
    """Modules the last build compiled, with their sources (empty if nothing was built)."""
    try:
        listed = json.loads(manifest.read_text())["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    root = package.parent
    return {name: root / (name.replace(".", "/") + ".py") for name in listed}


def up_to_date(package: Path = PACKAGE, manifest: Path = MANIFEST) -> bool:
    """Whether every compiled module still matches its source, for this interpreter."""
    try:
        recorded = json.loads(manifest.read_text())
        modules: dict[str, str] = recorded["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    if recorded.get("python") != sys.implementation.cache_tag:
        return False
    # The shared library the compiled modules link to must be importable (it sits beside the package).
    library = recorded.get("library")
    if (
        not isinstance(library, str)
        or importlib.machinery.PathFinder.find_spec(library, [str(package.parent)]) is None
    ):
        return False
    for name, digest in modules.items():
        source = package.parent / (name.replace(".", "/") + ".py")
        try:
            if hashlib.sha256(source.read_bytes()).hexdigest() != digest:
                return False
        except OSError:
            return False
    return True


def _install() -> bool:
    """Route compiled modules to their sources unless the build is current; True if compiled
    code will run."""
    modules = compiled_modules()
    if not modules:
        return False
    if os.environ.get("BROWSERX_PURE") != "1" and up_to_date():
        return True
    sys.meta_path.insert(0, _Sources(modules))
    return False


ACTIVE = _install()
