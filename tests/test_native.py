"""The compiled build of the hot modules (scripts/build_native.py) and the guard that uses it only
while it matches the sources (host/browserx/_native.py).

BROWSERX_REQUIRE_NATIVE=1 (set by .ci/run) says a compiled build must be in use: without one, the
comparison of compiled and source output fails instead of skipping (it would compare the source
with itself); it runs the compiled build even when BROWSERX_PURE=1 is set for the rest of the run."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from browserx import _native

RECORDINGS = Path(__file__).parent / "snapshot" / "recordings"
REQUIRED = os.environ.get("BROWSERX_REQUIRE_NATIVE") == "1"

# Renders every recording in every format and budget path, then prints a digest of all of it and
# which build ran.
RENDER_ALL = """
import hashlib, json, sys
from pathlib import Path
import browserx._native as native
import browserx.snapshot.merge as merge
from browserx.page.recording import load_recording
from browserx.snapshot.ids import IdAllocator
from browserx.snapshot.pipeline import finish, prepare
from browserx.views.build import build_view
from browserx.views.events import EventSummary
from browserx.views.options import ViewOptions

digest = hashlib.sha256()
none = EventSummary((), False, False, 0.0)
for path in sorted(Path(sys.argv[1]).glob("*.json")):
    snap = finish(prepare(load_recording(path)), IdAllocator(), {}, tab_id=1, include_values=False)
    for opts in (ViewOptions(), ViewOptions(format="json"), ViewOptions(format="semantic"),
                 ViewOptions(max_tokens=120), ViewOptions(viewport_only=True, boxes=True), ViewOptions(max_depth=3)):
        view = build_view(snap, opts, events=none)
        digest.update(json.dumps([path.name, view.payload, view.tokens], sort_keys=True, default=str).encode())
print(json.dumps({"digest": digest.hexdigest(), "compiled": native.ACTIVE, "merge": merge.__file__}))
"""


def _render_all(**env: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", RENDER_ALL, str(RECORDINGS)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    result: dict[str, object] = json.loads(out.stdout)
    return result


def _not_in_use() -> tuple[str, bool]:
    """Why no compiled build runs here, and whether that is an error even without
    BROWSERX_REQUIRE_NATIVE (a build is there but not used: the guard or the build broke)."""
    if os.environ.get("BROWSERX_PURE") == "1":
        return "BROWSERX_PURE=1 turns the compiled build off", False
    if _native.MANIFEST.exists():
        return "the compiled build is stale or unusable: run `make native`", True
    return "there is no compiled build (`make native` makes one where a C compiler is)", False


def test_compiled_and_source_builds_render_every_recording_the_same() -> None:
    # The build this environment runs; the compiled one when it is required, even in a run that
    # imports everything else from source (`make test COVERAGE=1` sets BROWSERX_PURE=1).
    compiled = _render_all(**({"BROWSERX_PURE": "0"} if REQUIRED else {}))
    if compiled["compiled"] is not True or str(compiled["merge"]).endswith(".py"):
        why, broken = _not_in_use()
        if REQUIRED:
            pytest.fail(f"BROWSERX_REQUIRE_NATIVE=1 but no compiled build is in use: {why}")
        assert not broken, why
        pytest.skip(f"nothing compiled to compare with the source: {why}")
    source = _render_all(BROWSERX_PURE="1")
    assert source["compiled"] is False
    assert str(source["merge"]).endswith("merge.py")
    assert compiled["digest"] == source["digest"]


def _fake_build(root: Path, source_text: str = "X = 1\n") -> Path:
    package = root / "browserx"
    package.mkdir(parents=True)
    (package / "hot.py").write_text(source_text)
    (root / "browserx_native__mypyc.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    manifest = package / "native.json"
    manifest.write_text(
        json.dumps(
            {
                "python": sys.implementation.cache_tag,
                "library": "browserx_native__mypyc",
                "modules": {"browserx.hot": hashlib.sha256(source_text.encode()).hexdigest()},
            }
        )
    )
    return manifest


def test_a_build_is_current_only_while_every_source_matches(tmp_path: Path) -> None:
    manifest = _fake_build(tmp_path)
    package = manifest.parent
    assert _native.compiled_modules(package, manifest) == {"browserx.hot": package / "hot.py"}
    assert _native.up_to_date(package, manifest)
    (package / "hot.py").write_text("X = 2\n")
    assert not _native.up_to_date(package, manifest)


def test_a_build_for_another_python_or_without_its_library_is_not_used(tmp_path: Path) -> None:
    manifest = _fake_build(tmp_path)
    package = manifest.parent
    recorded = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**recorded, "python": "cpython-30"}))
    assert not _native.up_to_date(package, manifest)
    manifest.write_text(json.dumps(recorded))
    next(tmp_path.glob("browserx_native__mypyc*")).unlink()
    assert not _native.up_to_date(package, manifest)


def test_no_or_broken_manifest_means_plain_python(tmp_path: Path) -> None:
    assert _native.compiled_modules(tmp_path, tmp_path / "native.json") == {}
    (tmp_path / "native.json").write_text("{not json")
    assert _native.compiled_modules(tmp_path, tmp_path / "native.json") == {}
    assert not _native.up_to_date(tmp_path, tmp_path / "native.json")
