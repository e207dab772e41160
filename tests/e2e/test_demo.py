"""`make demo` is the first impression: its script runs every step (snapshot, click, delta) or
fails, and the sample output of docs/TOOLS.md ("The `text` view") is the real one."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _docs_sample() -> list[str]:
    text = (ROOT / "docs" / "TOOLS.md").read_text(encoding="utf-8")
    block = text.split("Real output for `demo/shop.html` (`make demo`):", 1)[1].split("```", 2)[1]
    return block.strip("\n").splitlines()


def test_the_demo_runs_every_step_and_the_docs_show_its_real_output() -> None:
    # As a user runs it: not in this session's runtime dir (the demo makes and removes its own).
    env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSERX_")}
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "demo.py")],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "$ browserx click " in out.stdout and "success=True" in out.stdout, out.stdout
    assert re.search(r"removed: \[\d+\]", out.stdout), out.stdout  # the delta saw the banner go
    view = out.stdout.split("$ browserx snapshot\n", 1)[1].split("\n(", 1)[0].splitlines()
    port = re.compile(r"127\.0\.0\.1:\d+")
    assert [port.sub("127.0.0.1:PORT", line) for line in view] == [
        port.sub("127.0.0.1:PORT", line) for line in _docs_sample()
    ], "docs/TOOLS.md's sample output differs from the demo's real output:\n" + "\n".join(view)
