"""Compile the host's hot modules with mypyc, in place (`make native`).

The snapshot and view passes run Python code over every node of a page; compiled, the same code
takes about a third less time. The sources stay the truth: host/browserx/_native.py loads the
compiled modules only while every source still hashes as it did here (manifest: native.json
beside them), so an edit never runs stale code. If this machine cannot compile (no C compiler
or Python headers), the host runs the same modules as plain Python.

Usage: python scripts/build_native.py [--clean]
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

HOST = Path(__file__).resolve().parent.parent / "host"
PACKAGE = HOST / "browserx"
MANIFEST = PACKAGE / "native.json"
GROUP = "browserx_native"  # the shared library every compiled module links to: browserx_native__mypyc

# The passes over every node (snapshot build, views). Pure functions over plain data: no
# monkeypatching, no msgspec Structs (mypyc cannot compile their metaclass), and no nested
# functions: compiled, a closure and its environment reference each other, a cycle that would
# keep a snapshot alive (tests/test_heap.py catches one). views/build.py has closures and runs once
# per view, so it stays plain Python.
MODULES = [
    "snapshot/model.py",
    "snapshot/merge.py",
    "snapshot/visibility.py",
    "snapshot/classify.py",
    "snapshot/role_tables.py",
    "snapshot/elements.py",
    "snapshot/roles.py",
    "snapshot/states.py",
    "snapshot/name_context.py",
    "snapshot/flat_tree.py",
    "snapshot/accname.py",
    "snapshot/label_hunt.py",
    "snapshot/stand_ins.py",
    "snapshot/context.py",
    "snapshot/ids.py",
    "snapshot/snapshot.py",
    "snapshot/pipeline.py",
    "views/viewport.py",
    "views/outline.py",
    "views/units.py",
    "views/budget.py",
    "views/text.py",
    "views/events.py",
    "views/html_writer.py",
    "views/html_common.py",
    "views/html_skeleton.py",
    "views/html_full.py",
    "views/html.py",
]


def clean() -> None:
    MANIFEST.unlink(missing_ok=True)
    for built in [*PACKAGE.rglob("*.so"), *PACKAGE.rglob("*.pyd"), *HOST.glob(f"{GROUP}__mypyc*")]:
        built.unlink()


def can_compile() -> str | None:
    """Why this machine cannot compile, or None."""
    if sys.implementation.name != "cpython":
        return f"mypyc needs CPython, not {sys.implementation.name}"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "Python's C headers are missing (Debian: apt-get install python3-dev)"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}; Debian: apt-get install gcc)"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed (it comes with mypy: pip install mypy)"
    return None


def build() -> int:
    clean()
    reason = can_compile()
    if reason:
        print(f"build_native: not compiling, the host runs as plain Python: {reason}")
        return 0
    from mypyc.build import mypycify
    from setuptools import setup

    from browserx._native import source_hash

    os.chdir(HOST)
    # mypy's cache goes with the project's other caches (`make clean`), not into the package tree.
    os.environ.setdefault("MYPY_CACHE_DIR", str(HOST.parent / ".mypy_cache" / "native"))
    sources = [f"browserx/{m}" for m in MODULES]
    with tempfile.TemporaryDirectory(prefix="browserx-native-") as work:
        setup(
            name="browserx-native",
            ext_modules=mypycify(sources, opt_level="3", group_name=GROUP, target_dir=work),
            script_args=["-q", "build_ext", "--inplace", "--build-temp", work, "--build-lib", work],
        )
    manifest = {
        "python": sys.implementation.cache_tag,
        "library": f"{GROUP}__mypyc",
        "modules": {
            "browserx." + m.removesuffix(".py").replace("/", "."): source_hash(PACKAGE / m) for m in MODULES
        },
    }
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"build_native: compiled {len(MODULES)} modules with mypyc")
    return 0


if __name__ == "__main__":
    if "--clean" in sys.argv[1:]:
        clean()
        sys.exit(0)
    sys.exit(build())
