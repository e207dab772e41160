"""One page of a bench script's own, served and opened in one headless Chromium, with Playwright
connected to that browser over CDP and a browserx client: both drive the same tab of the same page
(bench/forms.py, bench/pacing.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from harness import running_browser, serve_pages, workdir

from browserx import Client


@dataclass
class OnePage:
    url: str
    page: Any  # Playwright's Page on the tab
    bx: Client
    tab: int  # browserx's id of the same tab


@contextlib.contextmanager
def one_page(prefix: str, name: str, html: str) -> Iterator[OnePage]:
    """``html`` served as ``name`` and loaded in the browser's first tab."""
    from playwright.sync_api import sync_playwright

    with (
        workdir(prefix) as work,
        serve_pages(work, ()) as (origin, _),
        running_browser(work) as browser,
    ):
        (work / "pages" / name).write_text(html, encoding="utf-8")
        url = f"{origin}/{name}"
        driver = sync_playwright().start()
        try:
            page = driver.chromium.connect_over_cdp(browser.cdp_endpoint).contexts[0].pages[0]
            page.goto(url)
            with Client() as bx:
                tab = next(t["tab"] for t in bx.tabs() if t["url"] == url)
                yield OnePage(url, page, bx, tab)
        finally:
            driver.stop()
