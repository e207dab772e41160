"""Local fixture servers on two sites, shared by the end-to-end tests and the benchmark (no
Selenium here). Pages may contain ``__ORIGIN__`` and ``__XORIGIN__``; they are replaced with the
page's own origin (http://127.0.0.1:P) and a cross-site origin (http://localhost:Q), so a page can
embed a real out-of-process iframe."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"


class _FixtureHandler(SimpleHTTPRequestHandler):
    origins: ClassVar[dict[str, str]] = {}

    def log_message(self, format: str, *args: object) -> None:  # keep test output clean
        pass

    def do_GET(self) -> None:
        path = self.translate_path(self.path.split("?", 1)[0])
        if path.endswith(".html") and os.path.isfile(path):
            text = Path(path).read_text(encoding="utf-8")
            for key, value in self.origins.items():
                text = text.replace(key, value)
            body = text.encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()


@dataclass
class Servers:
    origin: str  # http://127.0.0.1:P
    xorigin: str  # http://localhost:Q, a different site

    def url(self, page: str) -> str:
        return f"{self.origin}/{page}"


@contextlib.contextmanager
def fixture_servers(pages: Path = PAGES) -> Iterator[Servers]:
    handler = type("Handler", (_FixtureHandler,), {"origins": {}})
    servers = [
        ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(pages))) for _ in range(2)
    ]
    origin = f"http://127.0.0.1:{servers[0].server_address[1]}"
    xorigin = f"http://localhost:{servers[1].server_address[1]}"
    handler.origins.update({"__ORIGIN__": origin, "__XORIGIN__": xorigin})
    threads = [threading.Thread(target=s.serve_forever, daemon=True) for s in servers]
    for t in threads:
        t.start()
    try:
        yield Servers(origin, xorigin)
    finally:
        for s in servers:
            s.shutdown()
            s.server_close()
