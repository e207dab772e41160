"""Where an item is relative to what a person sees: in view when at least 2/3 of its box is
visible inside the viewport and every scroll container around it (docs/DESIGN.md, "In view"), else the
direction to scroll (above / below / left / right) and the container to scroll in."""

from __future__ import annotations

from dataclasses import dataclass

from browserx.snapshot.model import Box, Node
from browserx.snapshot.snapshot import DomSnapshot
from browserx.snapshot.visibility import is_scroll_container
from browserx.views.options import MIN_VISIBLE

Rect = tuple[float, float, float, float]  # x, y, right, bottom


@dataclass(frozen=True, slots=True)
class Where:
    in_view: bool
    direction: str | None = None  # above | below | left | right, when not in view
    scroller: int | None = None  # ID of the scroll container to scroll in, if not the page


IN_VIEW = Where(True)
# Most units of a huge page are simply above or below the viewport: those share one Where each.
_OUTSIDE_PAGE = {d: Where(False, d, None) for d in ("above", "below", "left", "right")}


class ViewportIndex:
    """Answers ``where(node)`` for nodes of one snapshot; clip rects are memoised per parent."""

    def __init__(self, snap: DomSnapshot) -> None:
        self.snap = snap
        self.viewport: Rect = (0.0, 0.0, snap.viewport[0], snap.viewport[1])
        self._clips: dict[int, tuple[Rect, Node | None]] = {}

    def _clip(self, node: Node | None) -> tuple[Rect, Node | None]:
        """Visible rect for the content of ``node`` and the innermost scroll container it is in."""
        if node is None:
            return self.viewport, None
        cached = self._clips.get(node.index)
        if cached is not None:
            return cached
        chain: list[Node] = []
        n: Node | None = node
        while n is not None and n.index not in self._clips:
            chain.append(n)
            n = n.parent
        rect, scroller = self._clips[n.index] if n is not None else (self.viewport, None)
        for m in reversed(chain):
            if is_scroll_container(m) and m.box is not None:
                b = m.box
                rect = _meet(rect, (b.x, b.y, b.right, b.bottom))
                scroller = m
            self._clips[m.index] = (rect, scroller)
        return rect, scroller

    def where(self, node: Node | None) -> Where:
        if node is None:
            return IN_VIEW
        element = node
        while element.box is None and element.parent is not None:
            element = element.parent
        box = element.box
        if box is None:
            return IN_VIEW
        rect, scroller = self._clip(element.parent)
        if _fraction(box, rect, self.viewport) >= MIN_VISIBLE:
            return IN_VIEW
        # The innermost scroll container it lies outside of is the one to scroll; one it lies in
        # (a list inside a scrolling main, or a row wider than its container) is where that
        # container is: below the fold of the main around it, or in view.
        while scroller is not None and scroller.box is not None:
            own = self._page_rect(scroller)
            if _within(box, own) < MIN_VISIBLE:
                return Where(False, _direction(box, own), self.snap.id_of.get(scroller.ref))
            box = scroller.box
            scroller = self._clip(scroller.parent)[1]
        return _OUTSIDE_PAGE[_direction(box, self.viewport)]

    def _page_rect(self, scroller: Node) -> Rect:
        assert scroller.box is not None
        b = scroller.box
        return (b.x, b.y, b.right, b.bottom)


def _meet(a: Rect, b: Rect) -> Rect:
    x, y = max(a[0], b[0]), max(a[1], b[1])
    return (x, y, max(x, min(a[2], b[2])), max(y, min(a[3], b[3])))


def _fraction(box: Box, rect: Rect, viewport: Rect) -> float:
    """Visible share of ``box`` inside ``rect``. Boxes bigger than the viewport count as in view
    when they fill 2/3 of it: a long article is never fully visible."""
    if box.w <= 0 or box.h <= 0:
        return 0.0
    x, y = max(box.x, rect[0]), max(box.y, rect[1])
    r, b = min(box.right, rect[2]), min(box.bottom, rect[3])
    if r <= x or b <= y:
        return 0.0
    seen = (r - x) * (b - y)
    vw, vh = viewport[2] - viewport[0], viewport[3] - viewport[1]
    whole = min(box.w, vw) * min(box.h, vh)
    return seen / whole if whole > 0 else 0.0


def _within(box: Box, rect: Rect) -> float:
    """Share of ``box`` inside ``rect``, a box bigger than ``rect`` counting as within it when
    it fills 2/3 of it (a table row wider than the container it scrolls in)."""
    x, y = max(box.x, rect[0]), max(box.y, rect[1])
    r, b = min(box.right, rect[2]), min(box.bottom, rect[3])
    if r <= x or b <= y:
        return 0.0
    whole = min(box.w, rect[2] - rect[0]) * min(box.h, rect[3] - rect[1])
    return (r - x) * (b - y) / whole if whole > 0 else 0.0


def _direction(box: Box, rect: Rect) -> str:
    cx, cy = box.x + box.w / 2, box.y + box.h / 2
    if cy < rect[1]:
        return "above"
    if cy > rect[3]:
        return "below"
    if cx < rect[0]:
        return "left"
    if cx > rect[2]:
        return "right"
    return "below" if box.bottom > rect[3] else "above"
