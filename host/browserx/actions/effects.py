"""Visual feedback in the page: the agent's cursor glides to every target an action acts on, the
target is outlined for a moment, a click adds a ripple — drawn by the host itself in browserx's
isolated world of the tab's top document (effects.js), so no content script runs on any site.
Fire and forget: each effect is one CDP message sent beside the action's own calls, never
awaited (the renderer runs it before the input that follows, in order), so an effect neither
slows down nor breaks an action. Screenshots take them away first (pixels/screenshot.py),
unless asked."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from browserx import page_js
from browserx.actions.frames import frame_hops, offsets
from browserx.actions.geometry import Point, Quad, add_offsets, best_point
from browserx.environment import environment
from browserx.errors import BrowserxError
from browserx.page.page_call import page_call
from browserx.relay.cdp_types import GetContentQuadsResult
from browserx.relay.session import in_background, once_answered
from browserx.tabs.tab import Tab

EFFECT_BUDGET_S = 0.05
EFFECTS_JS = page_js.load("browserx.actions", "effects.js")
Box = tuple[float, float, float, float]  # x, y, width, height in the top-level viewport
_pending: set[asyncio.Task[Any]] = set()  # keep references until the replies arrive


def effects_enabled() -> bool:
    return environment().effects


def _done(task: asyncio.Task[Any]) -> None:
    _pending.discard(task)
    if not task.cancelled():
        task.exception()  # retrieve it, so asyncio does not log "never retrieved"


def _send(
    tab: Tab, msg: dict[str, Any], *, world: int, this: str | None = None, held: bool = False
) -> asyncio.Task[Any]:
    """The effect drawn in browserx's ``world`` of the top document (on ``this``, an element of that
    world)."""
    where: dict[str, Any] = {"this": this} if this is not None else {"world": world}
    call = page_call(tab.session, EFFECTS_JS, msg, **where)
    task = in_background(once_answered(call) if held else call)
    _pending.add(task)
    # Never cancelled (a cancelled send could cut a frame in half); its outcome is ignored (a page
    # error only logged: an effect never breaks an action).
    task.add_done_callback(_done)
    return task


async def draw(tab: Tab, effect: dict[str, Any], wait: bool = True) -> None:
    """Draw one effect ({kind: cursor | ripple | highlight | point | hide | clear, x, y, ...})
    in top-level viewport coordinates; skipped when the top document's world is not known yet."""
    world = tab.capture.worlds.get(None)
    if not effects_enabled() or world is None:
        return
    task = _send(tab, effect, world=world[1])
    if wait:
        await asyncio.wait({task}, timeout=EFFECT_BUDGET_S)


def outline(quads: Sequence[Quad], visible: Sequence[float] | None, shift: Point) -> Box | None:
    """The box to outline: around all of an element's quads (an inline element wrapping over lines
    has several; none: the ``visible`` rect alone), cut to the ``visible`` rect (left, top, right, bottom) its page measured,
    moved by ``shift`` into the top-level viewport; None when nothing of it is left."""
    xs = [v for q in quads if len(q) == 8 for v in q[0::2]]
    ys = [v for q in quads if len(q) == 8 for v in q[1::2]]
    if xs:
        left, top, right, bottom = min(xs), min(ys), max(xs), max(ys)
    elif visible is not None and len(visible) == 4:  # no box of its own: what shows of its content
        left, top, right, bottom = visible
    else:
        return None
    if visible is not None and len(visible) == 4:
        left, top = max(left, visible[0]), max(top, visible[1])
        right, bottom = min(right, visible[2]), min(bottom, visible[3])
    if right - left < 1 or bottom - top < 1:
        return None
    return (left + shift[0], top + shift[1], right - left, bottom - top)


async def at_point(tab: Tab, point: Point, box: Box | None = None, click: bool = False) -> None:
    """The cursor glides to ``point`` (``box`` outlined; ``click``: a ripple too). Not waited
    for: the renderer draws it before the input that follows, in order."""
    effect: dict[str, Any] = {"kind": "point", "x": point[0], "y": point[1], "click": click}
    if box is not None:
        effect["box"] = list(box)
    await draw(tab, effect, wait=False)


async def ripple(tab: Tab, x: float, y: float) -> None:
    """A click at a point with no element of its own (click_at): the cursor and a ripple."""
    await at_point(tab, (x, y), click=True)


def on_target(
    tab: Tab, object_id: str, session_id: str | None, context_id: int, *, done: bool = False
) -> None:
    """The cursor glides to an element (a field typed into, a list, a scroll container, a key's
    target) and outlines it, where it is now — without a round trip: in the top session the
    element's handle lives in the world that draws (same-origin frames included), so one call on
    it measures and draws. Inside an out-of-process frame, its place is found and drawn in the
    background. Elements out of view get no cursor. ``done``: the action's input is in already,
    so the cursor goes once the agent has its answer (its frame would be written ahead of it)."""
    world = tab.capture.worlds.get(None)
    if not effects_enabled() or world is None:
        return
    if session_id is None:
        if context_id == world[1]:
            _send(tab, {"kind": "element"}, world=context_id, this=object_id, held=done)
        return
    framed = _framed(tab, object_id, session_id)
    task = in_background(once_answered(framed) if done else framed)
    _pending.add(task)
    task.add_done_callback(_done)


async def _framed(tab: Tab, object_id: str, session_id: str) -> None:
    try:
        quads = (
            await tab.session.cdp(
                "DOM.getContentQuads",
                {"objectId": object_id},
                session_id=session_id,
                result_type=GetContentQuadsResult,
            )
        ).quads
        local = best_point(quads)
        if local is None:
            return
        hops = await frame_hops(tab, session_id)
    except BrowserxError:
        return  # cosmetic: an element gone meanwhile is no error
    point = add_offsets(local, offsets(hops))
    # Cut to what the innermost iframe shows of its document.
    size = hops[0].size if hops else None
    box = outline(quads, (0, 0, *size) if size else None, (point[0] - local[0], point[1] - local[1]))
    if box is not None:
        await at_point(tab, (box[0] + box[2] / 2, box[1] + box[3] / 2), box)
