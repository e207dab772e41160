"""Page-level actions: navigate, back, forward, reload, and waiting for text to appear or go.
They wait for the new document to commit (Page.frameNavigated) and then to finish loading
(document.readyState, which also covers back/forward-cache restores that fire no load event)."""

from __future__ import annotations

import asyncio
import re
import time

from browserx import page_js
from browserx.actions.result import ActionResult
from browserx.actions.runner import ActionContext, perform
from browserx.errors import (
    PAGE_CALL_ERRORS,
    ActionTimeout,
    BadRequest,
    NavigationFailed,
)
from browserx.expectations import Expect
from browserx.page.page_call import page_eval
from browserx.relay.cdp_types import GetNavigationHistoryResult, NavigateResult
from browserx.snapshot.redaction import redact_url
from browserx.tabs.tab import Tab

_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:(?!\d)", re.I)  # a scheme, not a host's port
POLL_S = 0.1
DEFAULT_TIMEOUT_S = 30.0
READY_STATE_JS = page_js.page_world("browserx.actions", "navigation_ready.js")


def normalise_url(url: str) -> str:
    url = url.strip()
    if not url:
        raise BadRequest("url must not be empty")
    if not _SCHEME.match(url):
        url = "https://" + url  # "example.com" (or "localhost:8000") means the web site
    return url


async def _ready(tab: Tab, deadline: float) -> bool:
    while True:
        try:
            if await page_eval(tab.session, READY_STATE_JS, timeout=5) == "complete":
                return True
        except PAGE_CALL_ERRORS:
            pass  # the context may be swapping right now (a page error is PageScriptError)
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(POLL_S)


async def _await_load(ctx: ActionContext, what: str, timeout: float, same_document: bool = False) -> None:
    deadline = time.monotonic() + timeout
    ctx.settle = False  # this action does its own waiting
    if not await ctx.watch.wait("committed", max(0.0, deadline - time.monotonic())):
        raise ActionTimeout(
            f"{what} did not start a new page within {timeout:g} s. The site may be slow or blocked; take a "
            "snapshot to see where the tab is.",
        )
    if not same_document:
        await _ready(ctx.tab, deadline)  # a page still loading is not a failure: it committed


async def navigate(
    tab: Tab, url: str, timeout: float = DEFAULT_TIMEOUT_S, *, expect: Expect | None = None
) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        target = normalise_url(url)
        reply = await tab.session.cdp(
            "Page.navigate", {"url": target}, timeout=timeout, result_type=NavigateResult
        )
        shown = redact_url(target)  # what the result may say of it
        if reply.errorText:
            raise NavigationFailed(
                f"Navigating to {shown} failed: {reply.errorText}. Check the URL or the network.",
                url=shown,
            )
        await _await_load(ctx, f"Navigating to {shown}", timeout, same_document=not reply.loaderId)

    return await perform(tab, "navigate", None, body, expect)


async def current_url(tab: Tab) -> str:
    """The tab's address, read where a dialog does not block (the navigation history); "" while a
    navigation leaves no page to ask."""
    try:
        history = await tab.session.cdp("Page.getNavigationHistory", result_type=GetNavigationHistoryResult)
    except PAGE_CALL_ERRORS:
        return ""
    entries = history.entries
    return entries[history.currentIndex].url if 0 <= history.currentIndex < len(entries) else ""


async def _history(tab: Tab, step: int, timeout: float, expect: Expect | None) -> ActionResult:
    name = "back" if step < 0 else "forward"

    async def body(ctx: ActionContext) -> None:
        history = await tab.session.cdp("Page.getNavigationHistory", result_type=GetNavigationHistoryResult)
        index = history.currentIndex + step
        entries = history.entries
        if not 0 <= index < len(entries):
            raise NavigationFailed(
                f"There is no {'previous' if step < 0 else 'next'} page in this tab's history.",
                direction=name,
            )
        # A page restored from the back/forward cache makes no request the network rules could
        # refuse: the entry's address is checked as a navigation's target is.
        if tab.check_destination is not None:
            await tab.check_destination(entries[index].url)
        await tab.session.cdp("Page.navigateToHistoryEntry", {"entryId": entries[index].id})
        await _await_load(ctx, f"Going {name}", timeout)

    return await perform(tab, name, None, body, expect)


async def back(tab: Tab, timeout: float = DEFAULT_TIMEOUT_S, *, expect: Expect | None = None) -> ActionResult:
    return await _history(tab, -1, timeout, expect)


async def forward(
    tab: Tab, timeout: float = DEFAULT_TIMEOUT_S, *, expect: Expect | None = None
) -> ActionResult:
    return await _history(tab, 1, timeout, expect)


async def reload(
    tab: Tab,
    ignore_cache: bool = False,
    timeout: float = DEFAULT_TIMEOUT_S,
    *,
    expect: Expect | None = None,
) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        await tab.session.cdp("Page.reload", {"ignoreCache": ignore_cache})
        await _await_load(ctx, "Reloading", timeout)

    return await perform(tab, "reload", None, body, expect)


WAIT_JS = page_js.page_world("browserx.actions", "navigation_wait.js")  # a function of the two texts


async def wait_for(
    tab: Tab,
    text: str | None = None,
    gone: str | None = None,
    timeout: float = 10.0,
    *,
    expect: Expect | None = None,
) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        if text is None and gone is None:
            raise BadRequest("wait needs text (to appear) and/or gone (to disappear)")
        ctx.settle = False
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = await page_eval(tab.session, WAIT_JS, text, gone)  # in the page's own world
                if isinstance(value, list) and all(value):
                    return
            except PAGE_CALL_ERRORS:  # (a closed tab, a crashed page: nothing left to wait on)
                pass  # navigating: try again on the next document (a page error: PageScriptError)
            if time.monotonic() > deadline:
                parts = []
                if text is not None:
                    parts.append(f"text {text!r} to appear")
                if gone is not None:
                    parts.append(f"text {gone!r} to disappear")
                raise ActionTimeout(
                    f"Waited {timeout:g} s for {' and '.join(parts)}; it did not happen. Take a snapshot to "
                    "see the page as it is."
                )
            await asyncio.sleep(POLL_S)

    return await perform(tab, "wait", None, body, expect)
