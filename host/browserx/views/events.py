"""Page events in a view (docs/DESIGN.md, "Views"): the events since the last view (page/events.py
keeps them per tab), each marked when it happened on a page the tab has left since, and whether
the page shows an error or a success right now (visible alert/status regions)."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from browserx.page.events import PageEvent, classify
from browserx.snapshot.snapshot import DomSnapshot


@dataclass(frozen=True, slots=True)
class EventSummary:
    events: tuple[PageEvent, ...]
    has_errors: bool
    has_success: bool
    now: float

    def lines(self) -> list[str]:
        if not self.events:
            return []
        return ["events since last view:", *("  " + e.line(self.now) for e in self.events)]

    def strings(self) -> list[str]:
        return [e.line(self.now) for e in self.events]


def _page(url: str) -> str:
    return url.split("#", 1)[0]


def summarise(events: list[PageEvent], snap: DomSnapshot, now: float | None = None) -> EventSummary:
    """Events since the last view, plus what visible alerts/status regions say right now. An
    event of a page the tab has left since (a toast before a navigation) says so: "on the
    previous page"."""
    now = time.time() if now is None else now
    here = _page(snap.url)
    events = [replace(e, previous=True) if e.page and _page(e.page) != here else e for e in events]
    kinds = {e.kind for e in events if e.op == "appeared"}
    for node in snap.nodes:
        if node.role in ("alert", "status") and node.visible:
            text = " ".join(n.text for n in node.walk() if n.is_text and n.visible).strip()
            if text:
                kinds.add(classify(text, node.role or "", node.attrs.get("class", "")))
    return EventSummary(tuple(events), "error" in kinds, "success" in kinds, now)
