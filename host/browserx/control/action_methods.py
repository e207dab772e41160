"""The action tools' implementations (click, type, key, ...): each runs under the tab's lock and
returns an ActionResult; a failed action raises its BrowserxError (the server renders it)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from browserx import actions
from browserx.actions.result import ActionResult
from browserx.control.policy import allowed_url, refuse_opted_out
from browserx.control.schemas import NavigateParams, TabParams
from browserx.errors import PageOffLimits
from browserx.settings import HostSettings
from browserx.tabs.registry import TabRegistry
from browserx.tabs.tab import Tab

Handler = Callable[[Any], Awaitable[Any]]


def action_handlers(registry: TabRegistry, settings: HostSettings) -> dict[str, Handler]:
    """The implementations of the action tools (control/tools.py declares them), by tool name."""

    def action(run: Callable[[Tab, Any], Awaitable[ActionResult]], reads_page: bool = True) -> Handler:
        async def handler(p: TabParams) -> dict[str, Any]:
            if isinstance(p, NavigateParams):  # before the tab is touched; Chrome gets the checked URL
                p = p.model_copy(update={"url": allowed_url(p.url, settings.allow_file_urls)})
            tab = await registry.resolve(p.tab)
            if isinstance(p, NavigateParams):
                await leave_off_limits_page(registry, tab, p.url, p.timeout)
            async with tab.lock:
                if reads_page:  # an opted-out page refuses before any of its IDs is looked up
                    await refuse_opted_out(tab)
                result = await run(tab, p)
            result.raise_for_error()
            out = result.model_dump(mode="json")
            out["tab"] = tab.tab_id
            return out

        return handler

    return {
        "click": action(
            lambda s, p: actions.click(s, p.id, p.button, p.count, p.modifiers, p.force, expect=p.expect)
        ),
        "type": action(
            lambda s, p: actions.type_text(
                s,
                p.id,
                p.text,
                p.clear,
                p.submit,
                p.per_char,
                p.include_values,
                expect=p.expect,
                delay_ms=p.delay_ms,
                blur=p.blur,
            )
        ),
        "key": action(lambda s, p: actions.key(s, p.key, p.modifiers, p.id, p.repeat, expect=p.expect)),
        "scroll": action(
            lambda s, p: actions.scroll(s, p.id, p.direction, p.amount, p.to_id, expect=p.expect)
        ),
        "select": action(lambda s, p: actions.select(s, p.id, p.value, p.include_values, expect=p.expect)),
        "check": action(lambda s, p: actions.check(s, p.id, p.checked, expect=p.expect)),
        "hover": action(lambda s, p: actions.hover(s, p.id, p.force, expect=p.expect)),
        "click_at": action(
            lambda s, p: actions.click_at(s, p.x, p.y, p.button, p.count, p.modifiers, expect=p.expect)
        ),
        "hover_at": action(lambda s, p: actions.hover_at(s, p.x, p.y, expect=p.expect)),
        # Leaving a page reads nothing of it: allowed on opted-out pages too.
        "navigate": action(
            lambda s, p: actions.navigate(s, p.url, p.timeout, expect=p.expect), reads_page=False
        ),
        "back": action(lambda s, p: actions.back(s, p.timeout, expect=p.expect), reads_page=False),
        "forward": action(lambda s, p: actions.forward(s, p.timeout, expect=p.expect), reads_page=False),
        "reload": action(
            lambda s, p: actions.reload(s, p.ignore_cache, p.timeout, expect=p.expect), reads_page=False
        ),
        "wait": action(lambda s, p: actions.wait_for(s, p.text, p.gone, p.timeout, expect=p.expect)),
    }


async def leave_off_limits_page(registry: TabRegistry, tab: Tab, url: str, timeout: float) -> None:
    """A tab on a page chrome.debugger may not attach to (a new tab's chrome://newtab, settings)
    is navigated through the tabs API instead, and waited for until it can be attached to; the
    navigation that follows then finds the page already there."""
    try:
        await tab.session.ensure_attached()
        return
    except PageOffLimits:
        if not url.lower().startswith(("http:", "https:")):
            raise
    await registry.conn.request("navigateTab", tabId=tab.tab_id, url=url)
    deadline = time.monotonic() + timeout
    while True:
        await asyncio.sleep(0.1)
        try:
            await tab.session.ensure_attached()
            return
        except PageOffLimits:
            if time.monotonic() > deadline:
                raise
