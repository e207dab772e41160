"""Playwright over ``connect_over_cdp``: ``page.aria_snapshot(mode="ai")`` of the whole page
(iframes included), or what this Playwright has closest to it; interactive = lines whose role is
one of ``PW_INTERACTIVE_ROLES``."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import re
import time
from typing import Any

from adapters import CALL_TIMEOUT_S, PW_INTERACTIVE_ROLES, Sample

# An interactive aria line and its (escaped) name: ``- button "Buy 5-0" [ref=e12]``.
PW_INTERACTIVE = re.compile(rf'^\s*- (?:{PW_INTERACTIVE_ROLES})\b(?: "((?:[^"\\]|\\.)*)")?', re.M)


class PlaywrightTool:
    name = "playwright"

    def __init__(self, driver: Any, cdp_endpoint: str) -> None:
        self.driver = driver
        self.cdp_endpoint = cdp_endpoint
        self.browser: Any = None
        self.page: Any = None
        self.method = ""
        self.crashed = False  # the tab's renderer crashed (Playwright's "crash" event)

    @classmethod
    async def connect(cls, cdp_endpoint: str, page_url: str) -> PlaywrightTool:
        from playwright.async_api import async_playwright

        tool = cls(await async_playwright().start(), cdp_endpoint)
        try:
            await tool._attach(page_url)
        except BaseException:
            await tool.close()
            raise
        return tool

    async def _attach(self, page_url: str) -> None:
        self.browser = await self.driver.chromium.connect_over_cdp(self.cdp_endpoint)
        pages = [p for c in self.browser.contexts for p in c.pages if p.url == page_url]
        if not pages:
            raise RuntimeError(f"Playwright sees no page at {page_url}")
        self.page = pages[0]
        self.crashed = False
        self.page.on("crash", lambda _page: setattr(self, "crashed", True))
        if "mode" in inspect.signature(self.page.aria_snapshot).parameters:
            self.method = 'page.aria_snapshot(mode="ai")'
        elif hasattr(self.page, "_snapshot_for_ai"):
            self.method = "page._snapshot_for_ai()"
        else:
            self.method = 'page.locator("body").aria_snapshot()'

    async def prepare(self, url: str) -> None:
        """After a crash Playwright's Page stays dead even once the tab loads again: reconnect."""
        if self.crashed or self.page is None or self.page.url != url:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.browser.close(), timeout=10)
            await self._attach(url)

    async def _aria(self) -> str:
        timeout = CALL_TIMEOUT_S * 1000
        if self.method.startswith("page.aria_snapshot"):
            text: str = await self.page.aria_snapshot(mode="ai", timeout=timeout)
        elif self.method.startswith("page._snapshot_for_ai"):
            text = await self.page._snapshot_for_ai(timeout=timeout)
        else:
            text = await self.page.locator("body").aria_snapshot(timeout=timeout)
        return text

    async def snapshot(self) -> Sample:
        t0 = time.perf_counter()
        text = await self._aria()
        ms = (time.perf_counter() - t0) * 1000
        names = [re.sub(r"\\(.)", r"\1", name) for name in PW_INTERACTIVE.findall(text)]
        return Sample(ms, text, names)

    async def close(self) -> None:
        if self.browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.browser.close(), timeout=10)  # over CDP: disconnects only
        await self.driver.stop()
