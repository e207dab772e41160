"""`make test` leaves nothing in /tmp: what the end-to-end suite keeps for a look afterwards (the
last browser's logs, the corpus reports and views) goes under the checkout's ignored
``.pytest_cache/browserx-e2e/`` (tests/e2e/harness.py), and no test writes a fixed /tmp path."""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

from tests.e2e.harness import ARTIFACTS, artifact

ROOT = Path(__file__).resolve().parents[1]


def test_e2e_artifacts_go_to_an_ignored_folder_of_the_checkout() -> None:
    path = artifact("last-logs")
    assert path.parent == ARTIFACTS and ARTIFACTS.is_relative_to(ROOT)
    if not ROOT.is_relative_to(Path(tempfile.gettempdir())):  # a checkout cloned into /tmp keeps them there
        assert not ARTIFACTS.is_relative_to(Path(tempfile.gettempdir()))
    ignored = subprocess.run(["git", "check-ignore", "-q", str(path)], cwd=ROOT, check=False)
    assert ignored.returncode == 0, f"{path} is not git-ignored"


def test_no_test_writes_to_a_fixed_path_in_tmp() -> None:
    fixed = re.compile(r"""Path\(\s*["']/tmp/|gettempdir\(\)\s*\)\s*/""")
    offenders = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if "node_modules" not in path.parts and fixed.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
