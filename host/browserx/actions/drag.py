"""Drag and drop: an element onto another, or onto a point of the viewport, as a person's mouse
does it. Pointer-based libraries (SortableJS's fallback, dnd-kit, react-beautiful-dnd, jQuery UI)
see a press, a first move past every drag threshold they use (10 px), moves along the way and a
release; an element the page lets the browser drag (``draggable``) gets HTML5 drag events.

The HTML5 drag is intercepted (``Input.setInterceptDrags``), as Playwright does in Chromium: a
real one would start the operating system's drag loop, which waits for a real mouse. Whether the
page began one is read from the page (its ``dragstart``, not cancelled) right after the first
move, so a pointer-only drag waits for no event; then the browser's drag data is carried to the
drop point with ``Input.dispatchDragEvent`` (dragenter, dragover..., drop).

Both ends are looked up by ID like every action's target (opted-out elements and pages refused);
the drop point's element is named in the result, and the dragged element's place is read before
and after, so the result says what the drop changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from typing import Any

import msgspec

from browserx import page_js
from browserx.actions.at_point import element_at
from browserx.actions.effects import at_point
from browserx.actions.geometry import Point
from browserx.actions.pointer import locate, locate_boxed, mouse_move, visible_area
from browserx.actions.resolve import Target, call_on, resolve
from browserx.actions.result import ActionResult, DragOutcome
from browserx.actions.runner import ActionContext, perform
from browserx.errors import BadRequest, BrowserxError, NotInteractable
from browserx.expectations import Expect
from browserx.relay.awaited import first_event
from browserx.relay.cdp_types import DragIntercepted
from browserx.relay.protocol import decode_raw
from browserx.snapshot.model import NodeRef
from browserx.tabs.tab import Tab

PLACE_JS = page_js.load("browserx.actions", "drag_place.js")
ARM_JS = page_js.load("browserx.actions", "drag_arm.js")
STARTED_JS = page_js.load("browserx.actions", "drag_started.js")
INTERCEPTED = "Input.dragIntercepted"

NUDGE_PX = 10.0  # the first move: past the drag thresholds libraries use (react-beautiful-dnd 5, dnd-kit 8)
STEPS = 8  # moves from there to the drop point, each waiting for a frame (~16 ms)
# Held at the drop point before the release: SortableJS's fallback checks where the pointer is
# every 50 ms, and libraries that animate follow the pointer in animation frames.
HOLD_S = 0.1
INTERCEPT_WAIT_S = 2.0  # for Chrome's word of an HTML5 drag the page began
MOVED_PX = 2.0  # a shift on screen smaller than this is no move


async def drag(
    tab: Tab,
    element_id: int,
    to_id: int | None = None,
    x: float | None = None,
    y: float | None = None,
    force: bool = False,
    *,
    expect: Expect | None = None,
) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        if (to_id is None) == (x is None or y is None):
            raise BadRequest("Give where to drop: `to_id` (an element ID), or both `x` and `y` (a point).")
        if to_id == element_id:
            raise BadRequest(f"Element {element_id} cannot be dropped on itself: give another `to_id`.")
        source = await resolve(tab, element_id)
        await ctx.adopt(source)
        if to_id is not None:
            dest = await resolve(tab, to_id)
            await ctx.watch_session(dest.session_id)
            await locate(tab, dest, force)  # into view first; the source is brought into view last
            _, start, box = await locate_boxed(tab, source, force, force)
            _, end, dest_box = await locate_boxed(tab, dest, force, force)  # where it is now
            end = _far_half(start, end, dest_box)
            await _still_visible(tab, source)
            to = dest.describe()
        else:
            assert x is not None and y is not None
            _, start, box = await locate_boxed(tab, source, force, force)
            hit, session, _ = await element_at(tab, x, y)
            await ctx.watch_session(session)
            end, to = (x, y), hit.description
        before = await call_on(tab, source, PLACE_JS)
        await at_point(tab, start, box)
        html5 = await _press_move_release(tab, source, start, end)
        ctx.result.point = (round(end[0], 1), round(end[1], 1))
        ctx.result.drag = await _outcome(tab, source, before, to, html5)

    return await perform(tab, "drag", element_id, body, expect, resolves_first=True)


async def _still_visible(tab: Tab, source: Target) -> None:
    """Bringing the drop target into view must not have scrolled the dragged element away."""
    area = await visible_area(tab, source)
    if area is None or not area.get("whole"):
        raise NotInteractable(
            f"{source.sentence()} and the drop target do not fit in the viewport together: scroll so "
            "both show, or drag in steps (to a point near the edge first).",
            id=source.element_id,
        )


def _far_half(start: Point, end: Point, box: Any) -> Point:
    """Where to drop on an element: in its far half along the way the drag goes (a quarter of
    its size past its centre), as a person drags until the list makes room behind it: sortable
    lists (jQuery UI, SortableJS) take an item's place only once the pointer crossed its middle."""
    if box is None:
        return end
    dx, dy = end[0] - start[0], end[1] - start[1]
    if abs(dy) >= abs(dx):
        return end[0], end[1] + math.copysign(box[3] / 4, dy)
    return end[0] + math.copysign(box[2] / 4, dx), end[1]


def _path(start: Point, end: Point) -> list[Point]:
    """The first move (``NUDGE_PX`` towards the drop point, or down when it is that close), then
    ``STEPS`` moves to the drop point, the last one on it."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length > NUDGE_PX * 2:
        nudge = (start[0] + dx / length * NUDGE_PX, start[1] + dy / length * NUDGE_PX)
    else:
        nudge = (start[0], start[1] + NUDGE_PX)
    return [nudge] + [
        (nudge[0] + (end[0] - nudge[0]) * i / STEPS, nudge[1] + (end[1] - nudge[1]) * i / STEPS)
        for i in range(1, STEPS + 1)
    ]


async def _mouse(tab: Tab, kind: str, point: Point, buttons: int) -> None:
    event: dict[str, Any] = {"type": kind, "x": point[0], "y": point[1], "button": "left", "buttons": buttons}
    if kind != "mouseMoved":
        event["clickCount"] = 1
    await tab.session.cdp("Input.dispatchMouseEvent", event)


async def _drag_event(tab: Tab, kind: str, point: Point, data: Any) -> None:
    await tab.session.cdp(
        "Input.dispatchDragEvent", {"type": kind, "x": point[0], "y": point[1], "data": data}
    )


async def _press_move_release(tab: Tab, source: Target, start: Point, end: Point) -> bool:
    """The drag itself; whether it was an HTML5 one. Whatever fails midway, the button is let go
    (an HTML5 drag cancelled) and interception switched off: no drag stays half done."""
    session = tab.session
    path = _path(start, end)
    data: msgspec.Raw | None = None
    pressed = intercepting = False
    last = start
    with first_event(session, INTERCEPTED) as intercepted:
        try:
            await call_on(tab, source, ARM_JS)
            await session.cdp("Input.setInterceptDrags", {"enabled": True})
            intercepting = True
            await mouse_move(tab, start)
            await _mouse(tab, "mousePressed", start, 1)
            pressed = True
            await _mouse(tab, "mouseMoved", last := path[0], 1)
            if await call_on(tab, source, STARTED_JS):
                raw = await asyncio.wait_for(intercepted, INTERCEPT_WAIT_S)
                data = decode_raw(raw, DragIntercepted).data
            await session.cdp("Input.setInterceptDrags", {"enabled": False})
            intercepting = False
            for i, point in enumerate(path[1:]):
                if data is not None:
                    await _drag_event(tab, "dragEnter" if i == 0 else "dragOver", point, data)
                else:
                    await _mouse(tab, "mouseMoved", point, 1)
                last = point
            await at_point(tab, end)
            await asyncio.sleep(HOLD_S)
            if data is not None:
                await _drag_event(tab, "dragOver", end, data)
                await _drag_event(tab, "drop", end, data)  # ends the drag: the browser lets the button go
            else:
                await _mouse(tab, "mouseMoved", end, 1)
                await _mouse(tab, "mouseReleased", end, 0)
            pressed = False
            return data is not None
        finally:
            with contextlib.suppress(BrowserxError):
                if pressed and data is not None:
                    await _drag_event(tab, "dragCancel", last, {"items": [], "dragOperationsMask": 0xFFFF})
                elif pressed:
                    await _mouse(tab, "mouseReleased", last, 0)
                if intercepting:
                    await session.cdp("Input.setInterceptDrags", {"enabled": False})


async def _outcome(tab: Tab, source: Target, before: Any, to: str, html5: bool) -> DragOutcome:
    try:
        after = await call_on(tab, source, PLACE_JS)
    except BrowserxError:  # its document went (the drop navigated)
        after = None
    if not isinstance(before, dict) or not isinstance(after, dict) or not after.get("connected"):
        return DragOutcome(to=to, html5=html5, moved=True, gone=True)
    container_changed = after["parent"] != before["parent"] or after["parentDesc"] != before["parentDesc"]
    index = (int(before["index"]), int(after["index"]))
    shift = (round(after["x"] - before["x"], 1), round(after["y"] - before["y"], 1))
    moved = container_changed or index[0] != index[1] or math.hypot(*shift) >= MOVED_PX
    container = None
    if container_changed:
        element_id = tab.ids.by_ref.get(NodeRef(source.ref.frame, int(after["parent"])))
        container = f"element {element_id} ({after['parentDesc']})" if element_id else after["parentDesc"]
    return DragOutcome(
        to=to,
        html5=html5,
        moved=moved,
        index=index,
        container_changed=container_changed,
        container=container,
        shift=shift,
    )


__all__ = ["drag"]
