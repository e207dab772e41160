"""Scrolling: the page, a scroll container, or an element into view. Reports positions before
and after and how far is left in each direction — after a short settle, so an infinite list
that loaded more items shows it is not at its end. A container out of view (a carousel below the
fold of the main it scrolls in) is brought into view before it is scrolled."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from browserx import page_js
from browserx.actions.effects import on_target
from browserx.actions.resolve import Target, resolve
from browserx.actions.result import ActionResult, ScrollInfo
from browserx.actions.runner import ActionContext, perform
from browserx.errors import BadRequest
from browserx.expectations import Expect
from browserx.page.page_call import page_call
from browserx.page.worlds import isolated_world
from browserx.tabs.tab import Tab

Direction = Literal["down", "up", "left", "right"]
PAGE_FRACTION = 0.9  # a "page" keeps a little overlap, like PageDown
INFINITE_SETTLE_S = 0.25

SCROLL_JS = page_js.load("browserx.actions", "scroll.js")
PAGE_POS_JS = page_js.load("browserx.actions", "scroll_page_pos.js")
RECT_JS = page_js.load("browserx.actions", "scroll_rect.js")


async def _run(
    tab: Tab, target: Target | None, direction: str, amount: float, measure: bool
) -> dict[str, Any]:
    args = (direction, amount, measure, PAGE_FRACTION)
    if target is not None:
        value = await page_call(
            tab.session, SCROLL_JS, *args, this=target.object_id, session_id=target.session_id
        )
    else:
        _, ctx = await isolated_world(tab.capture, None)
        value = await page_call(tab.session, SCROLL_JS, *args, world=ctx)
    if not isinstance(value, dict):  # (a page error is PageScriptError)
        raise BadRequest("scrolling failed in the page")
    return value


async def _page_pos(tab: Tab) -> tuple[float, float]:
    _, ctx = await isolated_world(tab.capture, None)
    x, y = await page_call(tab.session, PAGE_POS_JS, world=ctx) or (0, 0)
    return (float(x), float(y))


def parse_amount(amount: str | float | int) -> float:
    """ "page" → -1 (the JS side sizes it); a number of pixels otherwise."""
    if isinstance(amount, str):
        if amount.strip().lower() == "page":
            return -1.0
        try:
            amount = float(amount)
        except ValueError:
            raise BadRequest(f"amount must be 'page' or a number of pixels, not {amount!r}") from None
    if amount <= 0:
        raise BadRequest("amount must be positive; use direction for up/left")
    return float(amount)


async def scroll(
    tab: Tab,
    element_id: int | None = None,
    direction: Direction = "down",
    amount: str | float = "page",
    to_id: int | None = None,
    *,
    expect: Expect | None = None,
) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        if direction not in ("down", "up", "left", "right"):
            raise BadRequest("direction must be down, up, left or right")
        if to_id is not None:
            await _into_view(ctx, to_id)
            return
        px = parse_amount(amount)
        target = None
        if element_id is not None:
            target = await resolve(tab, element_id)
            await ctx.adopt(target)
        first = await _run(tab, target, direction, px, False)
        if target is not None:  # the container scrolled (brought into view first if it was not)
            on_target(tab, target.object_id, target.session_id, target.context_id)

        async def measure() -> None:
            await asyncio.sleep(INFINITE_SETTLE_S)  # lazy lists append on scroll events
            final = await _run(tab, target, direction, px, True)
            ctx.result.changes.scroll = ScrollInfo(
                before=tuple(first["before"]), after=tuple(final["after"]),
                remaining=final["remaining"], target=first["label"],
            )  # fmt: skip
            ctx.result.changes.scroll_changed = first["before"] != final["after"]

        ctx.after_settle.append(measure)

    return await perform(tab, "scroll", element_id if to_id is None else to_id, body, expect)


async def _into_view(ctx: ActionContext, to_id: int) -> None:
    tab = ctx.tab
    target = await resolve(tab, to_id)
    await ctx.adopt(target)
    before = await _page_pos(tab)

    async def rect() -> Any:
        return await page_call(tab.session, RECT_JS, this=target.object_id, session_id=target.session_id)

    r0 = await rect()
    # The DOM domain scrolls every ancestor scroller, across frames too.
    await tab.session.cdp(
        "DOM.scrollIntoViewIfNeeded", {"objectId": target.object_id}, session_id=target.session_id
    )
    on_target(tab, target.object_id, target.session_id, target.context_id)
    r1 = await rect()
    after = await _page_pos(tab)
    page = await _run(tab, None, "down", 1, True)
    ctx.result.changes.scroll_changed = r0 != r1
    ctx.result.changes.scroll = ScrollInfo(
        before=before, after=after, remaining=page["remaining"], target="page"
    )
