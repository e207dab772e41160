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


@dataclass(slots=True)
class Placement:
    offscreen: str | None = None  # above | below | left | right (of the viewport or its scroller)
    scroller: Node | None = None  # nearest scroll container the node lies outside of


def is_scroll_container(node: Node) -> bool:
    return bool(node.flags & (F_SCROLL_X | F_SCROLL_Y)) and "scroll" in node.state


def _direction(box: Box, area: Box) -> str | None:
    if box.bottom <= area.y:
        return "above"
    if box.y >= area.bottom:
        return "below"
    if box.right <= area.x:
        return "left"
    if box.x >= area.right:
        return "right"
    return None


def compute_visibility(root: Node, viewport: Box, scroll: tuple[float, float]) -> dict[int, Placement]:
    """Set ``visible`` on every node; return placements (by node index) for visible elements that
    are not fully in view."""
    placements: dict[int, Placement] = {}
    sx, sy = scroll
    # Stack entries: node, clip rect (None = unclipped), nearest scroller, parent hidden.
    stack: list[tuple[Node, Box | None, Node | None, bool]] = [(root, None, None, False)]
    while stack:
        node, clip, scroller, hidden = stack.pop()
        if node.is_text:
            node.visible = not hidden
            continue
        child_clip, child_scroller, child_hidden = clip, scroller, hidden
        box = node.box
        if node.tag == "#document" and node.parent is not None and node.parent.box is not None:
            frame_box = node.parent.box
            child_clip = frame_box if clip is None else (clip.intersect(frame_box) or Box(0, 0, 0, 0))
            node.visible = not hidden
        elif box is None:
            node.visible = not hidden
        else:
            # Computed visibility is inherited (and can be overridden), so each element's own flag
            # is the truth for it. Its text children follow it, except that text may overflow a
            # zero-size box that does not clip.
            visible = not (node.flags & F_VIS_HIDDEN)
            text_hidden = not visible
            if node.flags & F_DISPLAY_CONTENTS:
                visible = True
                text_hidden = hidden
            elif box.w <= 1 or box.h <= 1:
                visible = False
                text_hidden = text_hidden or bool(node.flags & F_CLIPS)
            elif box.right + sx <= 0 or box.bottom + sy <= 0:
                visible = False  # parked at negative page coordinates: never reachable
                text_hidden = True
            elif clip is not None and box.intersect(clip) is None:
                visible = False
                text_hidden = True
            child_hidden = text_hidden
            node.visible = visible
            if visible and node.is_element:
                area = scroller.box if scroller is not None and scroller.box is not None else None
                where = _direction(box, area) if area is not None else None
                if where is not None:
                    placements[node.index] = Placement(where, scroller)
                else:
                    where = _direction(box, viewport)
                    if where is not None:
                        placements[node.index] = Placement(where, None)
            if node.flags & F_CLIPS and not is_scroll_container(node):
                child_clip = box if clip is None else (clip.intersect(box) or Box(box.x, box.y, 0, 0))
            if is_scroll_container(node):
                child_scroller = node
        for child in reversed(node.children):
            stack.append((child, child_clip, child_scroller, child_hidden))
    return placements
