"""Scroll context (seed 002 §2.5.5): where the page is scrolled to and, per scroll container,
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

    def words(self) -> str:
        bits = [f"{self.percent}% down"] if self.percent is not None else ["not scrollable"]
        if self.more_below:
            bits.append("more below")
        if self.more_above:
            bits.append("more above")
        return ", ".join(bits)


def _state(top: float, height: float, client: float) -> ScrollState:
    if height <= client + 1:
        return ScrollState(None, False, False)
    return ScrollState(round(100 * top / max(1.0, height - client)), top + client < height - 1, top > 0)


def page_scroll(snap: DomSnapshot) -> ScrollState:
    return _state(snap.scroll[1], snap.document_size[1], snap.viewport[1])


def containers(snap: DomSnapshot) -> list[tuple[int, ScrollState]]:
    """Scroll containers that carry an ID, in document order."""
    out = []
    for element_id, node in snap.by_id.items():
        scroll = node.state.get("scroll")
        if scroll and is_scroll_container(node):
            _, top, _, height, _, client = scroll
            out.append((element_id, _state(top, height, client)))
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
