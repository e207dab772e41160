"""The demo: serve the bundled page, start headless Chromium with the browserx extension and host,
take a snapshot through the control socket, print the text view, and clean everything up."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> int:
    # A runtime dir of its own (removed at the end), unless the caller chose one (kept).
    own_runtime = None
    if not os.environ.get("BROWSERX_RUNTIME_DIR"):
        own_runtime = os.environ["BROWSERX_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="browserx-demo-run-")
    from browserx import Client
    from browserx.setup.launch import launch
    from browserx.views.text import parse_controls

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(ROOT / "demo")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/shop.html"
    launched = launch(url=url, headless=True)
    try:
        with Client(launched.host.socket) as bx:
            print(f"$ browserx tabs   (host pid {launched.host.pid}, socket {launched.host.socket})")
            for tab in bx.tabs():
                print(f"  {tab['tab']}  {tab['title']}  {tab['url']}")
            result = bx.snapshot(stats=True)
            print("\n$ browserx snapshot")
            print(result["text"])
            stats = result["stats"]
            print(
                f"({stats['interactive']} interactive elements, {stats['tokens']} tokens, "
                f"capture {stats['capture_ms']:.0f} ms + build {stats['build_ms']:.0f} ms)"
            )
            # The cookie banner's Accept button, read back from the view as an agent would.
            accept = next(
                (
                    i
                    for i, (role, name) in parse_controls(result["text"]).items()
                    if (role, name) == ("button", "Accept")
                ),
                None,
            )
            if accept is None:
                print("demo failed: the view lists no button Accept", file=sys.stderr)
                return 1
            clicked = bx.click(accept)
            print(
                f"\n$ browserx click {accept}   → success={clicked['success']}, "
                f"{clicked['changes']['dom_mutations']} DOM mutations, {clicked['duration_ms']:.0f} ms"
            )
            delta = bx.snapshot(since_last=True)["text"]
            print("\n$ browserx snapshot --since-last")
            print(delta)
            if not clicked["success"] or f"[{accept}]" not in delta:
                print("demo failed: the click did not change the view", file=sys.stderr)
                return 1
    finally:
        os.killpg(launched.browser_pid, signal.SIGTERM)
        server.shutdown()
        shutil.rmtree(launched.user_data_dir, ignore_errors=True)
        if own_runtime is not None:
            shutil.rmtree(own_runtime, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
