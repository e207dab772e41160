"""corpus.py's driving: the ``Session`` on the one shared tab (Playwright's Page runs the corpus'
steps and its snapshot, a browserx client takes browserx's) and ``measure``: a page opened by its
steps, one warm-up snapshot per tool, the runs interleaved, then each tool's view scored
(corpus_scoring.py)."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

from adapters.browserx import BrowserxConnection, time_split
from corpus_scoring import (
    Control,
    PageResult,
    browserx_controls,
    browserx_fits,
    duplicate_ids,
    explain_browserx,
    explain_playwright,
    match,
    playwright_controls,
    playwright_fits,
)
from harness import Browser, short_error
from tests.e2e.apps.corpus import Page, run_steps

from browserx import BrowserxError, Client
from browserx.views.tokens import count_tokens

OPEN_ATTEMPTS = 2
# browserx's time per snapshot (adapters.browserx.time_split of its stats): capture (page → host),
# build (host CPU), view (render, budget), stability (waiting for a quiet DOM first); rest = socket,
# relay, token count.
SPLIT = ("capture_ms", "build_ms", "view_ms", "stability_ms", "rest_ms")

# Every element, open shadow roots included (same-origin iframes are not descended into).
COUNT_ELEMENTS = """
let n = 0;
const walk = (root) => { for (const el of root.querySelectorAll('*')) { n++; if (el.shadowRoot) walk(el.shadowRoot); } };
walk(document);
return n;"""


class Session:
    """The shared tab: Playwright's Page (steps, checks, its snapshot and actions) and a browserx
    client (its snapshot and actions), both on the one Chromium."""

    def __init__(self, browser: Browser, dump: Path | None) -> None:
        from playwright.sync_api import sync_playwright

        self.dump = dump
        self.driver = sync_playwright().start()
        try:
            self.pw_browser = self.driver.chromium.connect_over_cdp(browser.cdp_endpoint)
            self.page = self._page()
        except BaseException:
            self.driver.stop()
            raise
        self.conn = BrowserxConnection(timeout=60)
        self.tab: int | None = None
        self.bx_elements: int | None = None  # browserx's own element count (last snapshot's stats)

    def _page(self) -> Any:
        pages = [p for c in self.pw_browser.contexts for p in c.pages]
        if not pages:
            raise RuntimeError("Playwright sees no page")
        page = pages[0]
        page.on("dialog", lambda dialog: dialog.accept())  # beforeunload prompts: leave
        return page

    @property
    def bx(self) -> Client:
        """The browserx client (``conn.reset()`` replaces it after a failed call)."""
        return self.conn.client

    # corpus.Driver
    def goto(self, url: str) -> None:
        self.page.goto(url, wait_until="load", timeout=60_000)

    def run(self, body: str) -> Any:
        return self.page.evaluate(f"() => {{\n{body}\n}}")

    def open(self, page: Page, base: str) -> None:
        for attempt in range(OPEN_ATTEMPTS):
            try:
                if self.page.is_closed():
                    self.page = self._page()
                run_steps(self, base, page.opening())
                break
            except Exception:
                if attempt + 1 == OPEN_ATTEMPTS:
                    raise
        self.tab = self.find_tab()

    def close_page(self, page: Page, base: str) -> None:
        with contextlib.suppress(Exception):
            run_steps(self, base, page.teardown)

    def find_tab(self) -> int:
        tabs = self.bx.tabs()
        for tab in tabs:
            if tab["url"] == self.page.url:
                return int(tab["tab"])
        if len(tabs) == 1:
            return int(tabs[0]["tab"])
        raise RuntimeError(f"browserx lists no tab at {self.page.url}: {tabs}")

    # -- snapshots
    def bx_snapshot(self, **options: Any) -> dict[str, Any]:
        try:
            result: dict[str, Any] = self.bx.snapshot(tab=self.tab, **options)
            return result
        except BrowserxError:
            raise
        except Exception:
            self.conn.reset()
            raise

    def bx_text(self, **options: Any) -> str:
        return str(self.bx_snapshot(**options)["text"])

    def bx_controls(self, **options: Any) -> tuple[str, list[Control], dict[str, Any]]:
        text = self.bx_text(**options)
        view = self.bx.snapshot(tab=self.tab, format="json", **options)["json"]
        return text, browserx_controls(text, view), view

    def pw_text(self) -> str:
        return str(self.page.aria_snapshot(mode="ai", timeout=60_000))

    def timed(self, tool: str) -> tuple[float, str, dict[str, float]]:
        """One snapshot, timed around the call; for browserx also where the time went (its stats)."""
        if tool == "playwright":
            t0 = time.perf_counter()
            text = self.pw_text()
            return (time.perf_counter() - t0) * 1000, text, {}
        t0 = time.perf_counter()
        result = self.bx_snapshot(stats=True)
        ms = (time.perf_counter() - t0) * 1000
        stats = result["stats"]
        self.bx_elements = int(stats.get("elements") or 0) or None
        return ms, str(result["text"]), time_split(stats, ms)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.bx.close()
        with contextlib.suppress(Exception):
            self.pw_browser.close()  # over CDP: disconnects only
        with contextlib.suppress(Exception):
            self.driver.stop()


# -- measuring a page ------------------------------------------------------------------------------


def measure(s: Session, page: Page, base: str, res: PageResult, runs: int) -> None:
    s.open(page, base)
    res.url = s.page.url
    res.elements = int(s.run(COUNT_ELEMENTS))
    order = ("browserx", "playwright")
    for tool in order:  # warm-up, once each
        try:
            res.tools[tool].warmup_ms = s.timed(tool)[0]
        except Exception as exc:
            res.tools[tool].error = f"warm-up failed: {short_error(exc)}"
    for _ in range(runs):  # interleaved: browserx, playwright, browserx, ...
        for tool in order:
            result = res.tools[tool]
            if result.error:
                continue
            try:
                ms, text, split = s.timed(tool)
            except Exception as exc:
                result.error = short_error(exc)
                continue
            result.runs_ms.append(ms)
            result.text = text
            if split:
                result.splits.append(split)

    res.bx_elements = s.bx_elements
    bx, pw = res.tools["browserx"], res.tools["playwright"]
    if bx.text:
        bx.tokens = count_tokens(bx.text)
        view = s.bx.snapshot(tab=s.tab, format="json")["json"]
        controls = browserx_controls(bx.text, view)
        res.ids = sum(1 for c in controls if c.line)
        res.dups = duplicate_ids(bx.text, view)
        matched = match(page.expect, controls, browserx_fits)
        bx.found = len(matched)
        missing = [e for i, e in enumerate(page.expect) if i not in matched]
        full = s.bx_controls(max_tokens=0)[1] if missing else None
        bx.missing = [(e, explain_browserx(e, bx.text, controls, full)) for e in missing]
    if pw.text:
        pw.tokens = count_tokens(pw.text)
        controls = playwright_controls(pw.text)
        matched = match(page.expect, controls, playwright_fits)
        pw.found = len(matched)
        pw.missing = [
            (e, explain_playwright(e, controls)) for i, e in enumerate(page.expect) if i not in matched
        ]
    if bx.missing and pw.text:  # what Playwright lists for browserx's misses
        controls = playwright_controls(pw.text)
        for expect, why in bx.missing:
            hit = next((c for c in controls if playwright_fits(expect, c)), None)
            why.append(f"Playwright: `{hit.line}`" if hit else "Playwright misses it too")
    if s.dump:
        s.dump.mkdir(parents=True, exist_ok=True)
        for tool, result in res.tools.items():
            (s.dump / f"{page.app}-{page.name}.{tool}.txt").write_text(result.text, encoding="utf-8")
    s.close_page(page, base)
