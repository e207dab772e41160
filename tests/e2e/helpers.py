"""Helpers the end-to-end test modules share (fixtures live in conftest.py): opening a page in the
Selenium tab, the CLI as a process, a page's controls and their IDs, page-side JavaScript, and
waiting for a tab's iframe sessions."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from typing import Any

from browserx import Client
from tests.e2e.harness import Browser

# The snapshot fixture pages checked by both test_snapshot.py and test_ax_oracle.py.
SNAPSHOT_PAGES = [
    "snap-controls.html",
    "snap-js.html",
    "snap-shadow.html",
    "snap-frames.html",
    "snap-layout.html",
    "snap-hidden.html",
    "snap-rerender.html",
    "snap-values.html",
]


def open_page(browser: Browser, bx: Client, url: str) -> int:
    """Navigate the Selenium tab to ``url`` and return its browserx tab id."""
    browser.driver.get(url)
    for tab in bx.tabs():
        if tab["url"] == browser.driver.current_url:
            return int(tab["tab"])
    raise AssertionError(f"tab with {url} not listed: {bx.tabs()}")


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The `browserx` CLI as a separate process, with this process's environment (runtime dir)."""
    return subprocess.run(
        [sys.executable, "-m", "browserx.interfaces.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ.copy(),
    )


def controls(bx: Client, tab: int) -> dict[str, dict[str, Any]]:
    """name → json-view node (with its id) of every control of a fresh snapshot."""
    out: dict[str, dict[str, Any]] = {}

    def walk(node: dict[str, Any]) -> None:
        if "id" in node and node.get("name"):
            out.setdefault(node["name"], node)
        for child in node.get("children", []):
            walk(child)

    walk(bx.snapshot(tab=tab, format="json")["json"]["page"]["body"])
    return out


def id_of(bx: Client, tab: int, name: str) -> int:
    """The ID of the control named ``name`` in a fresh snapshot (fails if there is none)."""
    found = controls(bx, tab)
    assert name in found, f"{name!r} not in snapshot: {sorted(found)}"
    return int(found[name]["id"])


def js(browser: Browser, expr: str) -> Any:
    """The value of a JavaScript expression in the Selenium tab's page."""
    return browser.driver.execute_script(f"return {expr}")


def wait_sessions(bx: Client, tab: int, n: int) -> None:
    """Wait (10 s at most) until the tab has at least ``n`` iframe sessions."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if len([s for s in bx.targets(tab) if s["type"] == "iframe"]) >= n:
            return
        time.sleep(0.1)
    raise AssertionError(f"expected {n} iframe sessions: {bx.targets(tab)}")


class ExtensionTab:
    """A second tab of Selenium's window for one of the extension's own pages (popup, options):
    every method works there and leaves Selenium on the web page's tab, which open_page drives."""

    def __init__(self, browser: Browser) -> None:
        self.driver = browser.driver
        self.web = self.driver.current_window_handle
        self.driver.switch_to.new_window("tab")
        self.ext = self.driver.current_window_handle
        self.driver.switch_to.window(self.web)

    @contextlib.contextmanager
    def inside(self) -> Iterator[None]:
        self.driver.switch_to.window(self.ext)
        try:
            yield
        finally:
            self.driver.switch_to.window(self.web)

    def close(self) -> None:
        self.driver.switch_to.window(self.ext)
        self.driver.close()
        self.driver.switch_to.window(self.web)

    def chrome(self, script: str, *args: Any) -> Any:
        """An async function body using chrome.* (``a`` its arguments), run in the extension page;
        a rejection comes back as ``"error: …"``."""
        with self.inside():
            return self.driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                f"(async (...a) => {{ {script} }})(...Array.from(arguments).slice(0, -1))"
                ".then(done, (e) => done('error: ' + e));",
                *args,
            )


@contextlib.contextmanager
def tab_of_its_own(browser: Browser, bx: Client, url: str, load_s: float = 10.0) -> Iterator[int]:
    """``url`` opened by the page in a new tab Selenium never drives (its browserx tab id, once
    it loaded, within ``load_s``); the tabs opened meanwhile are closed afterwards, and Selenium is
    back on its own."""
    driver = browser.driver
    if not driver.current_url.startswith("http"):
        # A browser's first tab, never navigated, held window.open's script for minutes (the
        # first navigation of a browser with declarativeNetRequest comes late: docs/DESIGN.md).
        driver.get(urllib.parse.urljoin(url, "/hello.html"))
    main, known = driver.current_window_handle, set(driver.window_handles)
    driver.execute_script("window.open(arguments[0])", url)
    deadline, tabs = time.monotonic() + load_s, []
    while time.monotonic() < deadline and not tabs:
        tabs = [t for t in bx.tabs() if t["url"] == url and t.get("status") == "complete"]
        time.sleep(0.1)
    assert tabs, f"{url} did not load in a tab of its own: {bx.tabs()}"
    try:
        yield int(tabs[0]["tab"])
    finally:
        for handle in set(driver.window_handles) - known:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(main)
