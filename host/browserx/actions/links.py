"""The pages an action would open, checked by the URL allowlist (url_policy.check_link) and the
person's site rules (Tab.check_destination) before any input is sent: a click lands on a link (the
element hit at the click's point, or the target's own link ancestor) or a form's submit button, or
Enter is pressed on a link or in a form it sends. Read in browserx's isolated world, one call each;
a document that cannot answer (gone) is no link (the click's own checks say what is wrong with it);
a page error is PageScriptError, and nothing is clicked or pressed."""

from __future__ import annotations

from typing import Any

from browserx import page_js
from browserx.actions.frames import frame_hops, offsets
from browserx.actions.geometry import Point
from browserx.actions.resolve import Target
from browserx.errors import PAGE_CALL_ERRORS
from browserx.page.page_call import page_call
from browserx.page.worlds import isolated_world
from browserx.tabs.tab import Tab
from browserx.url_policy import check_link

AT_POINT_JS = page_js.load("browserx.actions", "links_at_point.js")
FOCUSED_JS = page_js.load("browserx.actions", "links_focused.js")


async def refuse_link(tab: Tab, value: Any) -> bool:
    """Refuse what a link snippet answered ({href, download, page} or null) when the URL
    allowlist forbids following it, or the person's site rules keep browserx off its site
    (``Tab.check_destination``: site_blocked). True when the person was asked and allowed it: the
    page may have changed while they answered, so the caller looks again."""
    if isinstance(value, dict) and isinstance(value.get("href"), str):
        page = value.get("page")
        check_link(value["href"], page if isinstance(page, str) else None, bool(value.get("download")))
        if tab.check_destination is not None:
            return await tab.check_destination(value["href"])
    return False


async def refuse_link_at(tab: Tab, target: Target, point: Point) -> bool:
    """Refuse the click at ``point`` (top-level viewport) when it would follow a link it may not;
    True when the person was asked first (refuse_link)."""
    x, y = point
    if target.session_id is not None:  # the function reads its own session's viewport
        for dx, dy in offsets(await frame_hops(tab, target.session_id)):
            x, y = x - dx, y - dy
    try:
        value = await page_call(
            tab.session, AT_POINT_JS, x, y, this=target.object_id, session_id=target.session_id
        )
    except PAGE_CALL_ERRORS:
        return False
    return await refuse_link(tab, value)


async def refuse_link_focused(tab: Tab, target: Target | None) -> None:
    """Refuse Enter when it would open a page the allowlist or the site rules forbid: the target's
    own link (when the key goes to an element), else what has the focus — a link, or a form that
    Enter sends (a submit button, or a one-line field of the form). Where the person was asked,
    what has the focus then is checked again."""
    for _ in range(2):
        try:
            if target is not None:
                own = await page_call(
                    tab.session, AT_POINT_JS, -1e9, -1e9,  # no point: the target's own link
                    this=target.object_id, session_id=target.session_id,
                )  # fmt: skip
                if own is not None:
                    if not await refuse_link(tab, own):
                        return
                    continue
            _, ctx = await isolated_world(tab.capture, None)
            focused = await page_call(tab.session, FOCUSED_JS, world=ctx)
        except PAGE_CALL_ERRORS:
            return
        if not await refuse_link(tab, focused):
            return
