"""Where a child session's frame sits in the top-level viewport.

``DOM.getContentQuads`` answers in the viewport of the element's *local root* frame: for the main
session that is the top-level viewport (same-origin iframes included: Chromium already maps them),
for an out-of-process iframe it is that iframe's own viewport. To get top-level coordinates add the
content-box origin of each owning <iframe>, found in its parent session, up the session chain
(the same walk Puppeteer does for OOPIFs).
"""

from __future__ import annotations

from dataclasses import dataclass

from browserx.actions.geometry import Point, box_origin, box_size
from browserx.errors import CdpError, StaleElement
from browserx.relay.cdp_types import GetBoxModelResult, GetFrameOwnerResult
from browserx.tabs.tab import Tab


@dataclass(frozen=True, slots=True)
class Hop:
    """One step up: the <iframe> (in ``parent_session``) that hosts a child session's frame."""

    child_session: str
    parent_session: str | None
    owner_backend_id: int
    origin: Point  # its content box's top-left, in the parent session's viewport
    size: Point = (0.0, 0.0)  # its content box's width and height (what shows of the child's viewport)


async def frame_hops(tab: Tab, session_id: str | None) -> list[Hop]:
    """Innermost first; empty for the main session."""
    hops: list[Hop] = []
    current = session_id
    while current is not None:
        info = tab.session.sessions.get(current)
        if info is None:
            raise StaleElement("The frame of this element is gone. Take a new snapshot and use its IDs.")
        parent = tab.session.session_parents.get(current)
        try:
            # For an iframe target, the targetId is the frame id.
            owner = await tab.session.cdp(
                "DOM.getFrameOwner",
                {"frameId": info.targetId},
                session_id=parent,
                result_type=GetFrameOwnerResult,
            )
            backend_id = owner.backendNodeId
            box = await tab.session.cdp(
                "DOM.getBoxModel",
                {"backendNodeId": backend_id},
                session_id=parent,
                result_type=GetBoxModelResult,
            )
        except CdpError as exc:
            raise StaleElement(
                f"The iframe holding this element cannot be located ({exc.message}). Take a new snapshot."
            ) from exc
        content = box.model.content
        hops.append(Hop(current, parent, backend_id, box_origin(content), box_size(content)))
        current = parent
    return hops


def offsets(hops: list[Hop]) -> list[Point]:
    return [h.origin for h in hops]
