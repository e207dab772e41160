"""Scroll context (docs/DESIGN.md, "Views"): where the page is scrolled to and, per scroll container,
how deep it is scrolled and whether more content lies beyond, for every view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from browserx.snapshot.snapshot import DomSnapshot
from browserx.snapshot.visibility import is_scroll_container

MAX_LISTED = 8


@dataclass(frozen=True, slots=True)
class ScrollState:
    percent: int | None  # vertical depth, None when there is nothing to scroll
    more_below: bool
    more_above: bool
    across: int | None = None  # horizontal depth of a container that scrolls only sideways
    more_right: bool = False
    more_left: bool = False

    def words(self) -> str:
        if self.percent is None and self.across is not None:  # a carousel, a wide table
            bits = [f"{self.across}% across"]
        else:
            bits = [f"{self.percent}% down"] if self.percent is not None else ["not scrollable"]
        if self.more_below:
            bits.append("more below")
        if self.more_above:
            bits.append("more above")
        if self.more_right:
            bits.append("more right")
        if self.more_left:
            bits.append("more left")
        return ", ".join(bits)


def _state(top: float, height: float, client: float) -> ScrollState:
    if height <= client + 1:
        return ScrollState(None, False, False)
    return ScrollState(round(100 * top / max(1.0, height - client)), top + client < height - 1, top > 0)


def sideways(scroll: list[Any]) -> tuple[int, bool, bool] | None:
    """How far a container that scrolls only sideways is scrolled (percent, more right, more
    left); None for one that scrolls down (its vertical state says enough) or not at all."""
    left, _, width, height, client_w, client_h = (float(v) for v in scroll[:6])
    if height > client_h + 1 or width <= client_w + 1:
        return None
    reach, at = width - client_w, abs(left)
    if left < 0:  # right-to-left: scrolled leftwards from 0, what is left lies further left
        return round(100 * at / reach), True, at < reach - 1
    return round(100 * at / reach), at < reach - 1, at > 0


def page_scroll(snap: DomSnapshot) -> ScrollState:
    return _state(snap.scroll[1], snap.document_size[1], snap.viewport[1])


def containers(snap: DomSnapshot) -> list[tuple[int, ScrollState]]:
    """Scroll containers that carry an ID, in document order."""
    out = []
    for element_id, node in snap.by_id.items():
        scroll = node.state.get("scroll")
        if scroll and is_scroll_container(node):
            _, top, _, height, _, client = scroll
            state = _state(top, height, client)
            across = sideways(scroll)
            if across is not None:
                state = ScrollState(state.percent, state.more_below, state.more_above, *across)
            out.append((element_id, state))
    return out


def scroll_position(snap: DomSnapshot) -> str:
    state = page_scroll(snap)
    return f"{state.percent}%" if state.percent is not None else "0%"


def container_dicts(snap: DomSnapshot) -> list[dict[str, Any]]:
    return [
        {
            "id": element_id,
            "depth": f"{s.percent or 0}%",
            "hasMore": s.more_below,
            **({"above": True} if s.more_above else {}),
            **({"right": True} if s.more_right else {}),
            **({"left": True} if s.more_left else {}),
        }
        for element_id, s in containers(snap)
    ]


def scroll_lines(snap: DomSnapshot) -> list[str]:
    """The scroll containers, under the text view's header (whose second line has the page's own
    scroll state: text.header_lines)."""
    found = containers(snap)
    if not found:
        return []
    # IDs without brackets here: an element's bracketed ID starts exactly one line (its own).
    listed = "; ".join(f"{i} ({s.words()})" for i, s in found[:MAX_LISTED])
    more = f"; … {len(found) - MAX_LISTED} more" if len(found) > MAX_LISTED else ""
    return [f"scroll containers: {listed}{more}"]
