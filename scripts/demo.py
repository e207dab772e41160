"""The demo: serve the bundled page, start headless Chromium with the browserx extension and host,
take a snapshot through the control socket, print the text view, and clean everything up."""

from __future__ import annotations

import os
import re
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
    os.environ.setdefault("BROWSERX_RUNTIME_DIR", tempfile.mkdtemp(prefix="browserx-demo-run-"))
    from browserx import Client
    from browserx.launch import launch

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(ROOT / "demo")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/shop.html"
    launched = launch(url=url, headless=True)
    try:
        with Client(launched.host.socket) as bx:
            print(f"$ browserx tabs   (host pid {launched.host.pid}, socket {launched.host.socket})")
            for tab in bx.tabs():
                print(f"  {tab['tabId']}  {tab['title']}  {tab['url']}")
            result = bx.snapshot(stats=True)
            print("\n$ browserx snapshot")
            print(result["text"])
            stats = result["stats"]
            print(
                f"({stats['interactive']} interactive elements, {stats['tokens']} tokens, "
                f"capture {stats['capture_ms']:.0f} ms + build {stats['build_ms']:.0f} ms)"
            )
            accept = re.search(r'\[(\d+)\] button "Accept"', result["text"])
            if accept:
                element_id = int(accept.group(1))
                clicked = bx.click(element_id)
                print(
                    f"\n$ browserx click {element_id}   → success={clicked['success']}, "
                    f"{clicked['changes']['dom_mutations']} DOM mutations, {clicked['duration_ms']:.0f} ms"
                )
                print("\n$ browserx snapshot --since-last")
                print(bx.snapshot(since_last=True)["text"])
    finally:
        os.killpg(launched.browser_pid, signal.SIGTERM)
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
