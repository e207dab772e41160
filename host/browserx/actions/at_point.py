"""Coordinate actions: click_at / hover_at a point of the viewport (CSS pixels), for canvas, maps
and hit areas that have no element of their own. The result names what is at the point — the
element a real pointer reaches, through shadow roots and frames (out-of-process ones too) —
with its ID when a snapshot of the tab has shown it (or its nearest ancestor with one).

The point is looked up before the input is sent (what the click lands on, not what the page
shows after it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from browserx import page_js
from browserx.actions.effects import at_point, ripple
from browserx.actions.links import refuse_link
from browserx.actions.pointer import Button, held_keys, mouse_click, mouse_move
from browserx.actions.resolve import describe_id
from browserx.actions.result import ActionResult, HitElement
from browserx.actions.runner import ActionContext, perform
from browserx.errors import BadRequest, BrowserxError, PageOptedOut, PageScriptError
from browserx.expectations import Expect
from browserx.page.page_call import page_call
from browserx.page.worlds import isolated_world
from browserx.relay.cdp_types import GetFrameOwnerResult, ResolveNodeResult
from browserx.snapshot.model import NodeRef
from browserx.tabs.snapshots import take_snapshot
from browserx.tabs.tab import Tab

MAX_FRAME_DEPTH = 8
HIT_AT_JS = page_js.load("browserx.actions", "at_point_hit.js")
KEY_FOR_JS = page_js.load("browserx.actions", "at_point_key_for.js")


async def element_at(tab: Tab, x: float, y: float) -> tuple[HitElement, str | None, Any]:
    """What is at top-level viewport point (x, y), the CDP session of its frame, and the page a
    click there would open (links_at_point.js: {href, download, page, form} or None)."""
    session: str | None = None
    lx, ly = x, y
    snapped = False
    for depth in range(MAX_FRAME_DEPTH + 1):  # + 1: the one retry after a snapshot, below
        _, ctx = await isolated_world(tab.capture, session)
        # A page error is PageScriptError: nothing is named (or acted on) at an unchecked point.
        found: dict[str, Any] = (
            await page_call(tab.session, HIT_AT_JS, lx, ly, world=ctx, session_id=session) or {}
        )
        if depth == 0:
            width, height = found.get("view") or (0, 0)
            if not (0 <= x < width and 0 <= y < height):
                raise BadRequest(
                    f"({x:g}, {y:g}) is outside the viewport ({width} × {height} CSS pixels); "
                    "scroll first, or use coordinates inside it."
                )
        if found.get("optedOut"):
            # Before any input: nothing there is named, nothing reaches it.
            raise PageOptedOut(
                f"What is at ({x:g}, {y:g}) opted out of AI agents (data-no-ai); browserx will not read "
                "or act on it. Ask the user to do this step themselves."
            )
        if "frameOwner" not in found:
            label = "m" if session is None else tab.session.frame_label(session)
            return _named(tab, found, label), session, found.get("link")
        if found["frameOwner"] == 0 and not snapped:
            # A world the collector has not run in yet knows no <iframe> by key: a snapshot gives
            # it one, then the same point is asked again.
            snapped = True
            await take_snapshot(tab)
            continue
        child = await child_session(tab, session, ctx, int(found["frameOwner"]))
        if child is None:
            return HitElement(description="iframe (its frame cannot be reached)", frame="m"), session, None
        session, (lx, ly) = child, found["local"]
    return HitElement(description="iframe (nested too deep)"), session, None


def _named(tab: Tab, found: dict[str, Any], label: str) -> HitElement:
    keys = [int(k) for k in found.get("keys") or ()]
    candidates = [(depth, tab.ids.by_ref.get(NodeRef(label, key))) for depth, key in enumerate(keys) if key]
    depth, element_id = next(((d, i) for d, i in candidates if i is not None), (0, None))
    what = str(found.get("desc") or "")
    text = str(found.get("text") or "")
    description = what + (f' "{text}"' if text else "")
    if element_id is not None:
        named = describe_id(element_id, tab.recall(element_id))
        description = f"{named}: {description}" if depth == 0 else f"{description}, inside {named}"
    return HitElement(id=element_id, description=description or "nothing", frame=label)


async def child_session(tab: Tab, parent: str | None, ctx: int, owner_key: int) -> str | None:
    """The out-of-process frame session whose <iframe> in ``parent`` has the collector key ``owner_key``."""
    children = [
        sid for sid, p in tab.session.session_parents.items() if p == parent and sid in tab.session.sessions
    ]
    for sid in children:
        frame_id = tab.session.sessions[sid].targetId
        known = tab.capture.owner_keys.get((parent, ctx, frame_id))
        if known is None:
            try:
                owner = await tab.session.cdp(
                    "DOM.getFrameOwner",
                    {"frameId": frame_id},
                    session_id=parent,
                    result_type=GetFrameOwnerResult,
                )
                node = await tab.session.cdp(
                    "DOM.resolveNode",
                    {"backendNodeId": owner.backendNodeId, "executionContextId": ctx},
                    session_id=parent,
                    result_type=ResolveNodeResult,
                )
                key = await page_call(tab.session, KEY_FOR_JS, this=node.object.objectId, session_id=parent)
            except PageScriptError:
                raise  # the page broke the key lookup: not "another frame"
            except BrowserxError:  # an answer of a shape Chrome never sends included (CdpError)
                continue
            known = int(key or 0)
        if owner_key and known == owner_key:  # 0 is no key (a world without the collector): no match
            return sid
    return None


async def _at(ctx: ActionContext, x: float, y: float) -> Any:
    """Name what is at the point in the result; the page a click there would open."""
    hit, session, link = await element_at(ctx.tab, x, y)
    ctx.result.hit = hit
    ctx.result.id = hit.id
    ctx.result.point = (round(x, 1), round(y, 1))
    await ctx.watch_session(session)
    return link


async def click_at(
    tab: Tab,
    x: float,
    y: float,
    button: Button = "left",
    count: int = 1,
    modifiers: Sequence[str] = (),
    *,
    expect: Expect | None = None,
) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        mask = held_keys(button, modifiers)
        link = await _at(ctx, x, y)
        if await refuse_link(tab, link):  # the person was asked meanwhile: what is there now
            link = await _at(ctx, x, y)
            await refuse_link(tab, link)
        await ripple(tab, x, y)
        await mouse_click(tab, (x, y), button, max(1, min(count, 3)), mask)

    return await perform(tab, "click_at", None, body, expect)


async def hover_at(tab: Tab, x: float, y: float, *, expect: Expect | None = None) -> ActionResult:
    async def body(ctx: ActionContext) -> None:
        await _at(ctx, x, y)
        await at_point(tab, (x, y))
        await mouse_move(tab, (x, y))

    return await perform(tab, "hover_at", None, body, expect)


__all__ = ["click_at", "element_at", "hover_at"]
