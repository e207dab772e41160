"""What a person can see and reach.

``visible`` is False for what nobody can see: visibility:hidden, zero or 1-px size (screen-reader
only text), boxes clipped away by an ``overflow: hidden`` ancestor or an iframe's edge, and
content placed at negative page coordinates that no scrolling can reveal. (display:none, opacity 0,
aria-hidden, inert and closed <details> content never reach Python: the collector skips them.)

``offscreen`` says where a visible node is when it is outside the viewport ("above", "below",
"left", "right"), and ``scroller`` which scroll container it must be scrolled within.
"""

from __future__ import annotations

from dataclasses import dataclass

from browserx.snapshot.model import (
    F_CLIPS,
    F_DISPLAY_CONTENTS,
    F_SCROLL_X,
    F_SCROLL_Y,
    F_VIS_HIDDEN,
    Box,
    Node,
)


@dataclass(frozen=True, slots=True)
class Placement:
    offscreen: str | None = None  # above | below | left | right (of the viewport or its scroller)
    scroller: Node | None = None  # nearest scroll container the node lies outside of


# Most of a huge page lies outside the viewport itself: those nodes share four placements.
_OUTSIDE_VIEWPORT = {d: Placement(d, None) for d in ("above", "below", "left", "right")}


class Placements:
    """Where each node not fully in view is, by node index (read-only once built). A slot per
    node: most of a huge page is outside the viewport, and a dict of those cost 2.6 MB at 50k
    elements, a list a quarter of it."""

    def __init__(self, count: int) -> None:
        self._slots: list[Placement | None] = [None] * count

    def put(self, index: int, placement: Placement) -> None:
        self._slots[index] = placement

    def get(self, index: int) -> Placement | None:
        return self._slots[index] if 0 <= index < len(self._slots) else None

    def __contains__(self, index: int) -> bool:
        return self.get(index) is not None


def is_scroll_container(node: Node) -> bool:
    return bool(node.flags & (F_SCROLL_X | F_SCROLL_Y)) and "scroll" in node.state


def compute_visibility(nodes: list[Node], viewport: Box, scroll: tuple[float, float]) -> Placements:
    """Set ``visible`` on every node; return placements (by node index) for visible elements that
    are not fully in view. ``nodes`` is the tree in pre-order (``node.index`` = position), so each
    node's inherited state (clip rect, scroller, hidden text) is read from its parent's slot."""
    placements = Placements(len(nodes))
    sx, sy = scroll
    vx, vy, vr, vb = viewport.x, viewport.y, viewport.right, viewport.bottom
    count = len(nodes)
    # Per node, what its children inherit: clip rect (x, y, right, bottom) or None, nearest
    # scroll container, and whether text children are hidden.
    clips: list[tuple[float, float, float, float] | None] = [None] * count
    scrollers: list[Node | None] = [None] * count
    text_hidden: list[bool] = [False] * count
    for node in nodes:
        i = node.index
        parent = node.parent
        if parent is None:
            clip, scroller, hidden = None, None, False
        else:
            p = parent.index
            clip, scroller, hidden = clips[p], scrollers[p], text_hidden[p]
        tag = node.tag
        if tag == "#text":
            node.visible = not hidden
            continue
        box = node.box
        if box is None:  # #document, #shadow-root
            node.visible = not hidden
            if tag == "#document" and parent is not None and parent.box is not None:
                fb = parent.box
                frame = (fb.x, fb.y, fb.x + fb.w, fb.y + fb.h)
                clip = frame if clip is None else _meet(clip, frame)
            clips[i], scrollers[i], text_hidden[i] = clip, scroller, hidden
            continue
        flags = node.flags
        x, y, w, h = box
        right, bottom = x + w, y + h
        # Computed visibility is inherited (and can be overridden), so each element's own flag
        # is the truth for it. Its text follows it, except that text may overflow a zero-size
        # box that does not clip.
        visible = not flags & F_VIS_HIDDEN
        hides_text = not visible
        if flags & F_DISPLAY_CONTENTS:
            visible, hides_text = True, hidden
        elif w <= 1 or h <= 1:
            visible = False
            hides_text = hides_text or bool(flags & F_CLIPS)
        elif scroller is None and (right + sx <= 0 or bottom + sy <= 0):
            # Parked at negative page coordinates: no scrolling reveals it. (Inside a scroll
            # container, content scrolled past the top is reachable and stays listed.)
            visible, hides_text = False, True
        elif clip is not None and (right <= clip[0] or bottom <= clip[1] or x >= clip[2] or y >= clip[3]):
            visible, hides_text = False, True
        node.visible = visible
        if visible:
            where = None
            if scroller is not None and scroller.box is not None:
                sb = scroller.box
                where = _direction(x, y, right, bottom, sb.x, sb.y, sb.x + sb.w, sb.y + sb.h)
            if where is not None:
                placements.put(i, Placement(where, scroller))
            else:
                where = _direction(x, y, right, bottom, vx, vy, vr, vb)
                if where is not None:
                    placements.put(i, _OUTSIDE_VIEWPORT[where])
        if flags & (F_SCROLL_X | F_SCROLL_Y) and "scroll" in node.state:
            scroller = node
        elif flags & F_CLIPS:
            own = (x, y, right, bottom)
            clip = own if clip is None else _meet(clip, own)
        clips[i], scrollers[i], text_hidden[i] = clip, scroller, hides_text
    return placements


def _meet(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    """Intersection of two rects; an empty one stays empty (right <= x)."""
    x, y = max(a[0], b[0]), max(a[1], b[1])
    return (x, y, max(x, min(a[2], b[2])), max(y, min(a[3], b[3])))


def _direction(
    x: float, y: float, right: float, bottom: float, ax: float, ay: float, ar: float, ab: float
) -> str | None:
    if bottom <= ay:
        return "above"
    if y >= ab:
        return "below"
    if right <= ax:
        return "left"
    if x >= ar:
        return "right"
    return None
