"""The end-to-end harness: local fixture servers on two sites, and Selenium-launched Chromium
with the real extension loaded and the real host registered in a throwaway profile.

Fixture pages may contain ``__ORIGIN__`` and ``__XORIGIN__``; they are replaced with the page's own
origin (http://127.0.0.1:P) and a cross-site origin (http://localhost:Q), so a page can embed a
real out-of-process iframe.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from browserx.install import apply, default_plan
from browserx.launch import browser_flags, find_browser
from browserx.runtime import HostRecord, wait_for_new_host

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


@dataclass
class Browser:
    driver: webdriver.Chrome
    host: HostRecord
    runtime_dir: Path
    profile: Path


@contextlib.contextmanager
def browser_with_extension(headless: bool = True, timeout: float = 30.0) -> Iterator[Browser]:
    """Chromium via the system chromedriver, with our extension and host; BROWSERX_RUNTIME_DIR is
    set in this process's environment so the host (a grandchild) and our clients agree."""
    root = Path(tempfile.mkdtemp(prefix="browserx-e2e-"))
    runtime = root / "run"
    profile = root / "profile"
    old_env = os.environ.get("BROWSERX_RUNTIME_DIR")
    os.environ["BROWSERX_RUNTIME_DIR"] = str(runtime)
    apply(default_plan(None, profile))
    options = webdriver.ChromeOptions()
    options.binary_location = find_browser()
    for flag in browser_flags(profile, headless):
        options.add_argument(flag)
    # chromedriver would otherwise pass --disable-extensions and block our unpacked extension.
    options.add_experimental_option("excludeSwitches", ["disable-extensions", "enable-automation"])
    if os.environ.get("BROWSERX_E2E_NO_BFCACHE"):
        options.add_argument("--disable-features=BackForwardCache")
    started = time.time()
    # Chromium's own log (renderer crashes, CHECK failures) lands next to the host logs.
    options.add_argument("--enable-logging=stderr")
    service = Service(shutil.which("chromedriver") or "chromedriver", log_output=str(root / "chromium.log"))
    driver = webdriver.Chrome(options=options, service=service)
    try:
        host = wait_for_new_host(started, timeout)
        if host is None:
            raise RuntimeError(f"no browserx host connected within {timeout} s (runtime dir {runtime})")
        yield Browser(driver, host, runtime, profile)
    finally:
        driver.quit()
        if old_env is None:
            os.environ.pop("BROWSERX_RUNTIME_DIR", None)
        else:
            os.environ["BROWSERX_RUNTIME_DIR"] = old_env
        # Keep the host logs of the last run for post-mortems.
        keep = Path(tempfile.gettempdir()) / "browserx-e2e-last-logs"
        shutil.rmtree(keep, ignore_errors=True)
        keep.mkdir(parents=True, exist_ok=True)
        for log in [*runtime.glob("host-*.log"), root / "chromium.log"]:
            if log.exists():
                shutil.copy(log, keep / log.name)
        shutil.rmtree(root, ignore_errors=True)
