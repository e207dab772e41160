"""Pointer actions: click (any button, single/double, with modifiers) and hover.

Path: resolve the ID → DOM.scrollIntoViewIfNeeded → two animation frames (so the browser routes
input by the new layout) → DOM.getContentQuads → center of the largest visible quad → translate
to top-level coordinates through OOPIF owners → hit-test at that very point in the element's own
frame (and each owning iframe in its parent) → Input.dispatchMouseEvent on the tab's root
session: input always enters at the top-level page, and the browser routes it to the right frame
like a real mouse. A click's hit test is made right before the dispatch, in the call that arms an
interceptor stopping any event that lands on another element (click_target).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Sequence
from typing import Any, Literal

from browserx import page_js
from browserx.actions.effects import Box, at_point, outline
from browserx.actions.frames import Hop, frame_hops, offsets
from browserx.actions.geometry import Point, add_offsets, best_point
from browserx.actions.keys import modifiers_mask
from browserx.actions.links import refuse_link, refuse_link_at
from browserx.actions.resolve import OBJECT_GROUP, Target, call_on, resolve
from browserx.actions.result import ActionResult
from browserx.actions.runner import ActionContext, perform
from browserx.errors import BadRequest, BrowserxError, CdpError, CdpTimeout, NotInteractable, Occluded
from browserx.expectations import Expect
from browserx.page.page_call import page_call
from browserx.page.worlds import isolated_world
from browserx.relay.cdp_types import GetContentQuadsResult, ResolveNodeResult
from browserx.snapshot.visibility import shows_on_hover
from browserx.tabs.tab import Tab

Button = Literal["left", "right", "middle"]
BUTTON_BITS: dict[str, int] = {"left": 1, "right": 2, "middle": 4}

HIT_JS = page_js.load("browserx.actions", "pointer_hit.js")
FRAMES_JS = page_js.load("browserx.actions", "pointer_frames.js")
VISIBLE_AREA_JS = page_js.load("browserx.actions", "pointer_visible_area.js")
GUARD_JS = page_js.load("browserx.actions", "pointer_guard.js")
VERDICT_JS = page_js.load("browserx.actions", "pointer_verdict.js")
AIM_JS = page_js.load("browserx.actions", "pointer_aim.js")
AFTER_JS = page_js.load("browserx.actions", "pointer_after.js")
CLEAR_JS = page_js.load("browserx.actions", "pointer_clear.js")
FRAMES_TIMEOUT = 1.0  # seconds: a stalled renderer must not hold a click for the CDP timeout


async def _await_frames(tab: Tab, target: Target) -> None:
    def frames(session_id: str | None = None, **where: Any) -> Awaitable[Any]:
        return page_call(
            tab.session, FRAMES_JS, session_id=session_id, await_promise=True, timeout=FRAMES_TIMEOUT, **where
        )

    # Best effort: if the element vanished, the quads that follow say so properly. (A page error
    # is not that: PageScriptError.)
    with contextlib.suppress(CdpError, CdpTimeout):
        calls = [frames(this=target.object_id, session_id=target.session_id)]
        if target.session_id is not None:  # the top-level renderer places the iframe's surface
            _, ctx = await isolated_world(tab.capture, None)
            calls.append(frames(world=ctx))
        await asyncio.gather(*calls)


async def visible_area(tab: Tab, target: Target) -> dict[str, Any] | None:
    """What of the element shows (None: nothing); a page error is PageScriptError, not "hidden"."""
    value = await page_call(tab.session, VISIBLE_AREA_JS, this=target.object_id, session_id=target.session_id)
    return value if isinstance(value, dict) else None


async def _hit(tab: Tab, session_id: str | None, object_id: str, point: Point) -> dict[str, Any] | None:
    """What covers the element at ``point`` (None: nothing); a page error is PageScriptError, not
    "not covered"."""
    value = await page_call(tab.session, HIT_JS, point[0], point[1], this=object_id, session_id=session_id)
    return value if isinstance(value, dict) else None


def _occluded(target: Target, cover: dict[str, Any], point: Point) -> Occluded:
    what = cover["desc"] + (f' "{cover["text"]}"' if cover.get("text") else "")
    return Occluded(
        f"{target.sentence()} is covered by {what} at ({point[0]:.0f}, {point[1]:.0f}): a click "
        "there would hit that instead. Dismiss or close it first (take a new snapshot to find its close "
        "button), or scroll; pass force=true only if you are sure.",
        id=target.element_id,
        covered_by=cover["desc"],
        covered_by_text=cover.get("text", ""),
    )


async def _check_owners(tab: Tab, target: Target, local: Point, hops: Sequence[Hop]) -> None:
    """An overlay in a parent document may cover the whole iframe: hit-test each owner too."""
    x, y = local
    for hop in hops:
        x, y = x + hop.origin[0], y + hop.origin[1]
        _, ctx = await isolated_world(tab.capture, hop.parent_session)
        owner = await tab.session.cdp(
            "DOM.resolveNode",
            {"backendNodeId": hop.owner_backend_id, "executionContextId": ctx, "objectGroup": OBJECT_GROUP},
            session_id=hop.parent_session,
            result_type=ResolveNodeResult,
        )
        cover = await _hit(tab, hop.parent_session, owner.object.objectId, (x, y))
        if cover is not None and not cover.get("outside"):
            raise _occluded(target, cover, (x, y))


async def locate(tab: Tab, target: Target, force: bool = False) -> Point:
    """Scroll the element into view and return the top-level viewport point to act at."""
    return (await _locate(tab, target, force, force))[1]


async def locate_boxed(
    tab: Tab, target: Target, force: bool, skip_hit: bool
) -> tuple[Point, Point, Box | None]:
    """``_locate``, with the box a person sees of the element in the top-level viewport."""
    local, point, quads, visible = await _locate_quads(tab, target, force, skip_hit)
    return local, point, outline(quads, visible, (point[0] - local[0], point[1] - local[1]))


async def _scrolled_clear(tab: Tab, target: Target, cover: dict[str, Any]) -> bool:
    """Whether a fixed or sticky box over the target (a bar: ``pinned``) was scrolled out from over
    it, as a person would (pointer_clear.js); a cover no scroll clears (a modal) stays."""
    if not cover.get("pinned") or await call_on(tab, target, CLEAR_JS) is not True:
        return False
    await _await_frames(tab, target)  # input goes where the page is drawn now
    return True


def _not_there(target: Target, cover: dict[str, Any], local: Point) -> NotInteractable | Occluded:
    if cover.get("outside"):
        return NotInteractable(
            f"{target.sentence()} is outside the visible area even after scrolling.",
            id=target.element_id,
        )
    return _occluded(target, cover, local)


async def _locate(tab: Tab, target: Target, force: bool, skip_hit: bool) -> tuple[Point, Point]:
    """``locate``, also giving the point in the element's own session (``skip_hit``: the caller
    hit-tests itself, right before dispatching)."""
    local, point, _, _ = await _locate_quads(tab, target, force, skip_hit)
    return local, point


async def _locate_quads(
    tab: Tab, target: Target, force: bool, skip_hit: bool, cleared: bool = False
) -> tuple[Point, Point, list[list[float]], list[float] | None]:
    """``_locate``, with the element's quads and the visible rect its page measured (both in its
    own frame); ``cleared``: scrolled out from under a bar already."""
    sid = target.session_id
    area = await visible_area(tab, target)
    try:
        if area is None or not area.get("whole"):
            await tab.session.cdp(
                "DOM.scrollIntoViewIfNeeded", {"objectId": target.object_id}, session_id=sid
            )
            await _await_frames(tab, target)
            area = await visible_area(tab, target)
        quads = (
            await tab.session.cdp(
                "DOM.getContentQuads",
                {"objectId": target.object_id},
                session_id=sid,
                result_type=GetContentQuadsResult,
            )
        ).quads
    except CdpError as exc:
        raise NotInteractable(
            f"{target.sentence()} has no layout box ({exc.message}): it is hidden or not "
            "rendered. Take a new snapshot.",
            id=target.element_id,
        ) from exc
    local = None
    visible = None
    if area is not None:
        rect = visible = area["rect"]
        local = None if area.get("inner") else best_point(quads, visible=rect)
        if local is None:
            local = ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)
    if local is None:
        raise NotInteractable(
            f"{target.sentence()} has no visible area (hidden, zero-size or clipped away). "
            "Take a new snapshot; it may need to be revealed first (open its menu/section).",
            id=target.element_id,
        )
    hops = await frame_hops(tab, sid) if sid else []
    if not force:
        cover = None if skip_hit else await _hit(tab, sid, target.object_id, local)
        if cover is not None:
            if not cleared and await _scrolled_clear(tab, target, cover):
                return await _locate_quads(tab, target, force, skip_hit, cleared=True)
            raise _not_there(target, cover, local)
        await _check_owners(tab, target, local, hops)
    return local, add_offsets(local, offsets(hops)), [list(q) for q in quads], visible


async def mouse_move(tab: Tab, point: Point, modifiers: int = 0) -> None:
    await tab.session.cdp(
        "Input.dispatchMouseEvent",
        {"type": "mouseMoved", "x": point[0], "y": point[1], "modifiers": modifiers, "button": "none"},
    )


async def mouse_click(
    tab: Tab, point: Point, button: str = "left", count: int = 1, modifiers: int = 0
) -> None:
    x, y = point
    bit = BUTTON_BITS[button]
    events: list[dict[str, Any]] = [
        {"type": "mouseMoved", "x": x, "y": y, "modifiers": modifiers, "button": "none"}
    ]
    # A double click is two press/release pairs with clickCount 1 then 2, like a real mouse.
    for n in range(1, count + 1):
        common = {"x": x, "y": y, "button": button, "clickCount": n, "modifiers": modifiers}
        events += [
            {"type": "mousePressed", "buttons": bit, **common},
            {"type": "mouseReleased", "buttons": 0, **common},
        ]
    # Sent one behind the other without waiting for each answer: the browser dispatches them in
    # order, as separate input events, and the move alone waits for the next frame (~16 ms).
    await asyncio.gather(*(tab.session.cdp("Input.dispatchMouseEvent", event) for event in events))


async def click_target(
    ctx: ActionContext,
    target: Target,
    button: str = "left",
    count: int = 1,
    modifiers: int = 0,
    force: bool = False,
    settle: bool = True,
) -> Point:
    """Click the target, checked at dispatch time: the hit test runs in the same page call that
    arms an interceptor (pointer_guard.js) stopping any press, release or click that lands on
    another element. A layout shift (the point no longer on the target, or an event stopped
    before any reached it) re-computes the point once; a second one fails, nothing clicked.
    Without ``settle`` the page's reaction is counted at once, not waited for (the caller waits
    for what it needs: a list's option)."""
    tab = ctx.tab
    for attempt in (1, 2):
        if attempt == 1 and not force and target.session_id is None and not _shows_on_hover(tab, target):
            aimed = await _aim(ctx, target)
            if isinstance(aimed, str):
                continue  # something else at the point: once more, the long way
            if aimed is not None:
                point, box = aimed
                await at_point(tab, point, box, click=True)
                await mouse_click(tab, point, button, count, modifiers)
                if await _after(ctx, target, point, settle) == "again":
                    continue
                ctx.result.point = (round(point[0], 1), round(point[1], 1))
                return point
        local, point, box = await locate_boxed(tab, target, force, skip_hit=True)
        await refuse_link_at(tab, target, point)  # a link outside the URL allowlist: no click at all
        if attempt == 1 and _shows_on_hover(tab, target):
            # Transparent until its row is hovered (a grid's row actions): a person moves the
            # mouse there first and sees it appear; so do we, before the hit test.
            await mouse_move(tab, point, modifiers)
        if not force:
            cover = await call_on(tab, target, GUARD_JS, local[0], local[1])
            if isinstance(cover, dict) and await _scrolled_clear(tab, target, cover):
                local, point, box = await locate_boxed(tab, target, force, skip_hit=True)
                await refuse_link_at(tab, target, point)
                cover = await call_on(tab, target, GUARD_JS, local[0], local[1])
            if isinstance(cover, dict):
                if attempt == 1:
                    continue  # moved since it was located: once more from the new layout
                raise _not_there(target, cover, local)
        await at_point(tab, point, box, click=True)
        await mouse_click(tab, point, button, count, modifiers)
        if not force:
            verdict = await _verdict(tab, target)
            stopped = verdict.get("bad") if verdict else None
            if isinstance(stopped, dict):
                if attempt == 1 and verdict is not None and not verdict.get("seen"):
                    continue  # nothing reached the target: safe to try again
                raise _intercepted(target, stopped, point)
        ctx.result.point = (round(point[0], 1), round(point[1], 1))
        return point
    raise AssertionError("unreachable")  # the second attempt returns or raises


async def _aim(ctx: ActionContext, target: Target) -> tuple[Point, Box | None] | str | None:
    """The fast way to a click in the top document: one call measures the target, picks the
    point, checks its link and arms the interceptor (pointer_aim.js). The point and the box to
    outline; "again" when something else is at the point now; None when the target must be
    scrolled into view first (the long way does that)."""
    tab = ctx.tab
    aim = await call_on(tab, target, AIM_JS)
    if not isinstance(aim, dict) or aim.get("scroll"):
        return None
    try:
        asked = await refuse_link(tab, aim.get("link"))  # a link it may not follow: no click at all
    except BrowserxError:
        _disarm(tab, target)
        raise
    if asked:  # the person answered a question meanwhile: aim again, from what the page shows now
        _disarm(tab, target)
        return "again"
    if isinstance(aim.get("cover"), dict):
        return "again"
    x, y = aim["point"]
    left, top, right, bottom = aim["area"]["rect"]
    box = (left, top, right - left, bottom - top) if right - left >= 1 and bottom - top >= 1 else None
    return (float(x), float(y)), box


async def _after(ctx: ActionContext, target: Target, point: Point, settle: bool = True) -> str | None:
    """The interceptor's verdict and, when the click reached its target, the page's reaction
    settled and counted, in one call (pointer_after.js). "again" when nothing reached the target
    (safe to try once more); raises when an event landed on another element."""
    try:
        verdict = await call_on(ctx.tab, target, AFTER_JS, settle)
    except (CdpError, CdpTimeout):
        return None  # navigated away or removed by the click: nothing left to report
    if not isinstance(verdict, dict):
        return None
    stopped = verdict.get("bad")
    if isinstance(stopped, dict):
        if not verdict.get("seen"):
            return "again"
        raise _intercepted(target, stopped, point)
    ctx.counter.settled_in(None, verdict)
    return None


def _disarm(tab: Tab, target: Target) -> None:
    tab.session.fire_and_forget(call_on(tab, target, VERDICT_JS))


def _shows_on_hover(tab: Tab, target: Target) -> bool:
    """Whether the snapshot the ID comes from saw the target hidden until hovered."""
    snap = tab.snapshot
    node = snap.by_id.get(target.element_id) if snap is not None else None
    return node is not None and node.ref == target.ref and shows_on_hover(node)


async def _verdict(tab: Tab, target: Target) -> dict[str, Any] | None:
    # The click may have navigated or removed the element: then nothing is left to report.
    try:
        value = await call_on(tab, target, VERDICT_JS)
    except (CdpError, CdpTimeout):
        return None
    return value if isinstance(value, dict) else None


def _intercepted(target: Target, stopped: dict[str, Any], point: Point) -> Occluded:
    what = str(stopped.get("desc", "")) + (f' "{stopped["text"]}"' if stopped.get("text") else "")
    return Occluded(
        f"The page moved {what} under the pointer at ({point[0]:.0f}, {point[1]:.0f}) as "
        f"{target.describe()} was being clicked; browserx stopped that click, so nothing was clicked. "
        "Take a new snapshot and act on what it shows.",
        id=target.element_id,
        covered_by=stopped.get("desc", ""),
        covered_by_text=stopped.get("text", ""),
        intercepted=True,
    )


def held_keys(button: str, modifiers: Sequence[str]) -> int:
    """The modifiers' bit mask for a click with ``button`` (checked: a bad one is a bad request)."""
    if button not in BUTTON_BITS:
        raise BadRequest(f"unknown mouse button {button!r}; use left, right or middle")
    return modifiers_mask(list(modifiers))


async def click(
    tab: Tab,
    element_id: int,
    button: Button = "left",
    count: int = 1,
    modifiers: Sequence[str] = (),
    force: bool = False,
    *,
    expect: Expect | None = None,
) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        mask = held_keys(button, modifiers)
        target = await resolve(tab, element_id)
        await ctx.adopt(target)
        await click_target(ctx, target, button, max(1, min(count, 3)), mask, force)

    return await perform(tab, "click", element_id, body, expect, resolves_first=True)


async def hover(
    tab: Tab, element_id: int, force: bool = False, *, expect: Expect | None = None
) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        target = await resolve(tab, element_id)
        await ctx.adopt(target)
        _, point, box = await locate_boxed(tab, target, force, force)
        await at_point(tab, point, box)
        await mouse_move(tab, point)
        ctx.result.point = (round(point[0], 1), round(point[1], 1))

    return await perform(tab, "hover", element_id, body, expect, resolves_first=True)


__all__ = [
    "click",
    "click_target",
    "held_keys",
    "hover",
    "locate",
    "locate_boxed",
    "mouse_click",
    "mouse_move",
    "visible_area",
]
