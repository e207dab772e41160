"""What a person can see and reach, by the rules CSS draws by.

``visible`` is False for what nobody can see: visibility:hidden, opacity 0, clip / clip-path that
leave nothing, zero or 1-px size (screen-reader-only text), boxes clipped away by an overflow
box, and content at negative page coordinates that no scrolling can reveal. ``rendered`` is False
only for what is not in the accessibility tree (visibility:hidden): screen-reader-only, clipped
and transparent content still names things. (display:none, aria-hidden, inert, closed <details>
and content-visibility:hidden content never reach Python: the collector skips them.)

Clipping follows the containing-block chain, as CSS does: an overflow box clips the descendants
whose containing block is it or inside it. An absolutely positioned element escapes static
overflow boxes up to its nearest positioned ancestor; a fixed one escapes all of them up to the
viewport, unless an ancestor with a transform, filter or containment holds it. The root's and the
body's overflow belong to the viewport (CSS overflow propagation): they clip nothing themselves.
A scroll container is a viewport of its own: what it scrolls through is reachable, whatever the
boxes around it clip (an app shell with overflow: hidden around a scrolling main), unless the
container itself is hidden; only boxes that do not scroll (overflow: hidden / clip) hide content.

``offscreen`` says where a visible node is when it is outside the viewport ("above", "below",
"left", "right"), and ``scroller`` which scroll container (or iframe) it must be scrolled within
(the innermost it lies outside of; inside a container that is itself out of view, that
container's place).
The action layer clips by the same rules in the page (``CLIP_RULES_JS``), so an element the view
lists is one a click can reach.
"""

from __future__ import annotations

from dataclasses import dataclass

from browserx.snapshot.model import (
    F_ABSOLUTE,
    F_CLIPPED_AWAY,
    F_CLIPS,
    F_DISPLAY_CONTENTS,
    F_FIXED_POS,
    F_HOLDS_FIXED,
    F_HOVER_REVEALS,
    F_POSITIONED,
    F_SCROLL_X,
    F_SCROLL_Y,
    F_TRANSPARENT,
    F_VIS_HIDDEN,
    Box,
    Node,
)

Rect = tuple[float, float, float, float]  # x, y, right, bottom
_OVERFLOWS = F_CLIPS | F_SCROLL_X | F_SCROLL_Y
_UNSEEN = F_TRANSPARENT | F_CLIPPED_AWAY


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


def overflow_is_the_viewports(node: Node) -> bool:
    """Whether the node's overflow applies to the viewport instead of its own box: always the
    root element's; the body's when the root's overflow is visible."""
    tag = node.tag
    if tag != "html" and tag != "body":
        return False
    parent = node.parent
    if tag == "html":
        return parent is not None and parent.tag == "#document"
    return parent is not None and parent.tag == "html" and not parent.flags & _OVERFLOWS


def is_scroll_container(node: Node) -> bool:
    return (
        bool(node.flags & (F_SCROLL_X | F_SCROLL_Y))
        and "scroll" in node.state
        and not overflow_is_the_viewports(node)
    )


def compute_visibility(nodes: list[Node], viewport: Box, scroll: tuple[float, float]) -> Placements:
    """Set ``visible`` and ``rendered`` on every node; return placements (by node index) for
    visible elements that are not fully in view. ``nodes`` is the tree in pre-order
    (``node.index`` = position), so what each node inherits is read from its parent's slots."""
    placements = Placements(len(nodes))
    sx, sy = scroll
    vx, vy, vr, vb = viewport.x, viewport.y, viewport.right, viewport.bottom
    count = len(nodes)
    # Per node, what its descendants inherit: the clip rect (None = the viewport's) and the
    # nearest scroll container, once for in-flow descendants, once for absolutely positioned and
    # once for fixed ones (their containing-block chains differ); whether its text is unseen or
    # unrendered, and whether its whole subtree is unseen (opacity 0, clipped away).
    clip_n: list[Rect | None] = [None] * count
    clip_a: list[Rect | None] = [None] * count
    clip_f: list[Rect | None] = [None] * count
    scr_n: list[Node | None] = [None] * count
    scr_a: list[Node | None] = [None] * count
    scr_f: list[Node | None] = [None] * count
    text_unseen = bytearray(count)
    text_unrendered = bytearray(count)
    subtree_unseen = bytearray(count)
    for node in nodes:
        i = node.index
        parent = node.parent
        tag = node.tag
        if tag == "#text":
            if parent is None:
                node.visible = node.rendered = True
            else:
                p = parent.index
                node.visible = not text_unseen[p]
                node.rendered = not text_unrendered[p]
            continue
        flags = node.flags
        if parent is None:
            clip: Rect | None = None
            scroller: Node | None = None
            p = -1
        else:
            p = parent.index
            if flags & F_FIXED_POS:
                clip, scroller = clip_f[p], scr_f[p]
            elif flags & F_ABSOLUTE:
                clip, scroller = clip_a[p], scr_a[p]
            else:
                clip, scroller = clip_n[p], scr_n[p]
        inherited_unseen = p >= 0 and subtree_unseen[p]
        box = node.box
        if box is None:  # #document, #shadow-root
            node.visible = not inherited_unseen
            node.rendered = True
            if p >= 0:
                text_unseen[i], text_unrendered[i] = text_unseen[p], text_unrendered[p]
                subtree_unseen[i] = subtree_unseen[p]
            if tag == "#document" and parent is not None and parent.box is not None:
                # A frame's document: its own viewport. What lies outside the frame's box is
                # reached by scrolling inside the frame (the frame element's own clipping does
                # not hide it); the frame's ancestors still clip it.
                outer = parent.parent
                if outer is not None:
                    q, pf = outer.index, parent.flags
                    clip = clip_f[q] if pf & F_FIXED_POS else clip_a[q] if pf & F_ABSOLUTE else clip_n[q]
                clip_n[i] = clip_a[i] = clip_f[i] = clip
                scr_n[i] = scr_a[i] = scr_f[i] = parent
            elif p >= 0:
                clip_n[i], clip_a[i], clip_f[i] = clip_n[p], clip_a[p], clip_f[p]
                scr_n[i], scr_a[i], scr_f[i] = scr_n[p], scr_a[p], scr_f[p]
            continue
        x, y, w, h = box
        right, bottom = x + w, y + h
        rendered = not flags & F_VIS_HIDDEN
        own_unseen = flags & _UNSEEN
        if flags & F_HOVER_REVEALS:
            own_unseen &= ~F_TRANSPARENT  # shows when a person hovers its row (shows_on_hover)
        unseen = inherited_unseen or bool(own_unseen)
        viewports = overflow_is_the_viewports(node)
        clips = bool(flags & F_CLIPS) and not viewports
        visible = rendered and not unseen
        hides_text = not visible
        if flags & F_DISPLAY_CONTENTS:
            hides_text = hides_text or (p >= 0 and bool(text_unseen[p]))
        elif w <= 1 or h <= 1:
            # Nothing of it shows; its content may overflow a box that does not clip.
            visible = False
            hides_text = hides_text or clips
        elif scroller is None and not flags & F_FIXED_POS and (right + sx <= 0 or bottom + sy <= 0):
            # Parked at negative page coordinates: no scrolling reveals it. (Inside a scroll
            # container, content scrolled past the top is reachable and stays listed.)
            visible, hides_text = False, True
        elif clip is not None and (right <= clip[0] or bottom <= clip[1] or x >= clip[2] or y >= clip[3]):
            visible, hides_text = False, True
        node.visible = visible
        node.rendered = rendered
        if visible and not flags & F_DISPLAY_CONTENTS:  # no box of its own to place
            where = None
            if scroller is not None and scroller.box is not None:
                sb = scroller.box
                where = _direction(x, y, right, bottom, sb.x, sb.y, sb.x + sb.w, sb.y + sb.h)
            if where is not None:
                placements.put(i, Placement(where, scroller))
            elif scroller is not None and (held := placements.get(scroller.index)) is not None:
                # In its container's box, and the container lies outside the view of its own
                # (a list scrolling inside a scrolling main, below main's fold): where it is.
                placements.put(i, held)
            elif not flags & F_FIXED_POS:
                where = _direction(x, y, right, bottom, vx, vy, vr, vb)
                if where is not None:
                    placements.put(i, _OUTSIDE_VIEWPORT[where])
        # What the descendants inherit. A scroll container that shows shows all it scrolls
        # through: its content is clipped to its scroll range, not by the boxes around it (an
        # app shell's overflow: hidden does not hide what its scrolling main scrolls to).
        if flags & (F_SCROLL_X | F_SCROLL_Y) and "scroll" in node.state and not viewports:
            scroller = node
            if visible:
                clip = _scroll_range(node, box)
        elif clips:
            own = (x, y, right, bottom)
            clip = own if clip is None else _meet(clip, own)
        clip_n[i], scr_n[i] = clip, scroller
        if flags & (F_POSITIONED | F_HOLDS_FIXED) or p < 0:
            clip_a[i], scr_a[i] = clip, scroller
        else:
            clip_a[i], scr_a[i] = clip_a[p], scr_a[p]
        if flags & F_HOLDS_FIXED or p < 0:
            clip_f[i], scr_f[i] = clip, scroller
        else:
            clip_f[i], scr_f[i] = clip_f[p], scr_f[p]
        text_unseen[i] = hides_text
        text_unrendered[i] = not rendered
        subtree_unseen[i] = unseen
    return placements


def _scroll_range(node: Node, box: Box) -> Rect:
    """The area a scroll container's content can be scrolled through, in today's coordinates:
    along a scrolling axis its box moved back by the scroll offset and grown to the scroll size
    (with as much room on the other side for content that starts there: right-to-left and
    column-reverse containers scroll to negative offsets); along a clipped axis its box."""
    scroll = node.state.get("scroll")
    x, y, right, bottom = box.x, box.y, box.x + box.w, box.y + box.h
    if not isinstance(scroll, list) or len(scroll) < 6:
        return (x, y, right, bottom)
    left, top, width, height, client_w, client_h = (float(v) for v in scroll[:6])
    if node.flags & F_SCROLL_X:
        extra = max(0.0, width - client_w)
        x, right = x - left - extra, right - left + extra
    if node.flags & F_SCROLL_Y:
        extra = max(0.0, height - client_h)
        y, bottom = y - top - extra, bottom - top + extra
    return (x, y, right, bottom)


def shows_on_hover(node: Node) -> bool:
    """Whether the node (or an ancestor) is transparent until the pointer is over it or its row
    (a :hover rule of the page reveals it: collector.js): listed, and hovered before a click."""
    n: Node | None = node
    while n is not None:
        if n.flags & F_HOVER_REVEALS and n.tag[0] != "#":
            return True
        n = n.parent
    return False


def _meet(a: Rect, b: Rect) -> Rect:
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
