"""Record real capture payloads for the unit tests: serve the fixture pages, start headless
Chromium with the extension and a host that saves every capture (BROWSERX_RECORD_DIR: the host
reads it once at start and wraps capture with page/recording.py), take a snapshot of each
page, and copy the recordings to tests/snapshot/recordings/.

    .venv/bin/python scripts/record_payloads.py snap-controls.html snap-hidden.html ...
    .venv/bin/python scripts/record_payloads.py --out DIR PAGE ...   # elsewhere (scripts/view_hashes.py)
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.harness import fixture_servers  # noqa: E402

OUT = ROOT / "tests" / "snapshot" / "recordings"


def main(pages: list[str], out: Path = OUT) -> int:
    record = Path(tempfile.mkdtemp(prefix="browserx-record-"))
    os.environ["BROWSERX_RECORD_DIR"] = str(record)
    os.environ["BROWSERX_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="browserx-record-run-")
    from browserx import Client
    from browserx.setup.launch import launch

    out.mkdir(parents=True, exist_ok=True)
    with fixture_servers() as servers:
        for page in pages:
            # One fresh browser per page keeps recordings independent of each other.
            launched = launch(url=servers.url(page), headless=True)
            try:
                time.sleep(2)  # let frames load and auto-attach
                with Client(launched.host.socket) as bx:
                    bx.snapshot()
                recorded = sorted(record.glob("*.json"), key=lambda p: p.stat().st_mtime)
                target = out / (Path(page.split("?")[0]).stem + ".json")
                shutil.copy(recorded[-1], target)
                print(f"{page} → {target} ({target.stat().st_size} bytes)")
            finally:
                os.killpg(launched.browser_pid, signal.SIGTERM)
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--out"]:
        sys.exit(main(args[2:], Path(args[1])))
    sys.exit(main(args or ["hello.html", "oopif.html"]))
