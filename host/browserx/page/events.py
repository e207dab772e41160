"""Page events (docs/DESIGN.md, "Views"): visible text that appeared or disappeared — toasts, inline
errors, role=alert/status, aria-live regions — as the page watcher (page/page_watch.js) recorded
it, classified as error, success, warning, loading or info by rules kept here as data, and
remembered per tab (bounded: ``EventLog``, the tab's). A view summarises them
(views/events.py); a verification (actions/verify.py) reads those since its action began."""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from browserx.quoting import quote

# First matching class wins, in this order. Words match whole (case-insensitive).
KEYWORDS: dict[str, tuple[str, ...]] = {
    "error": ("error", "errors", "failed", "failure", "fail", "invalid", "incorrect", "required", "denied",
              "unable", "cannot", "can't", "couldn't", "could not", "not found", "wrong", "problem",
              "rejected", "declined", "unauthorized", "forbidden", "not saved", "try again", "expired"),
    "warning": ("warning", "caution", "careful", "attention", "are you sure", "unsaved", "will expire",
                "low stock", "almost"),
    "loading": ("loading", "please wait", "saving", "processing", "uploading", "submitting", "fetching",
                "sending", "in progress"),
    "success": ("success", "successful", "successfully", "saved", "thank you", "thanks", "completed",
                "done", "added", "created", "updated", "sent", "submitted", "confirmed", "welcome",
                "deleted", "removed", "published", "copied"),
}  # fmt: skip
# Hints in the element's role or class name, used when no keyword matched.
CLASS_HINTS: dict[str, tuple[str, ...]] = {
    "error": ("error", "danger", "invalid", "fail"),
    "warning": ("warn",),
    "loading": ("loading", "spinner", "progress", "busy"),
    "success": ("success", "valid", "ok"),
}
ROLE_DEFAULTS: dict[str, str] = {"alert": "error", "alertdialog": "warning", "progressbar": "loading"}
ORDER = ("error", "warning", "loading", "success")
MAX_EVENTS = 50  # kept per tab
MAX_SHOWN = 10  # shown per view
MAX_TEXT = 120

_PATTERNS = {
    kind: re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w'])", re.IGNORECASE)
    for kind, words in KEYWORDS.items()
}


def classify(text: str, role: str = "", cls: str = "") -> str:
    for kind in ORDER:
        if _PATTERNS[kind].search(text):
            return kind
    hint = f"{role} {cls}".lower()
    for kind in ORDER:
        if any(word in hint for word in CLASS_HINTS[kind]):
            return kind
    return ROLE_DEFAULTS.get(role, "info")


@dataclass(frozen=True, slots=True)
class PageEvent:
    at: float  # host wall-clock time
    op: str  # appeared | disappeared
    text: str
    kind: str  # error | warning | loading | success | info
    source: str  # alert, status, aria-live, toast, …
    page: str = ""  # the URL (no fragment) of the page it happened on; "" when unknown (a frame's)
    previous: bool = False  # on a page the tab has left since (set for a view: summarise)

    def line(self, now: float) -> str:
        ago = max(0, round(now - self.at))
        where = " on the previous page" if self.previous else ""
        return f"[{ago}s ago] {self.kind} {self.op}{where}: {quote(self.text)}"  # page text: JSON-quoted

    def to_dict(self, now: float) -> dict[str, Any]:
        out = {"ago_s": round(now - self.at, 1), "op": self.op, "kind": self.kind, "text": self.text,
               "source": self.source}  # fmt: skip
        if self.previous:
            out["previous_page"] = True
        return out


OPS = {"added": "appeared", "shown": "appeared", "changed": "appeared", "removed": "disappeared",
       "hidden": "disappeared"}  # fmt: skip


def from_raw(raw: dict[str, Any], page_now: float, host_now: float) -> PageEvent | None:
    """An event recorded by the page watcher (times in the page's Date.now() ms)."""
    text = " ".join(str(raw.get("text") or "").split())
    if not text:
        return None
    if len(text) > MAX_TEXT:
        text = text[: MAX_TEXT - 1] + "…"
    role, cls = str(raw.get("role") or ""), str(raw.get("cls") or "")
    at = host_now - max(0.0, (page_now - float(raw.get("t") or page_now)) / 1000)
    return PageEvent(
        at,
        OPS.get(str(raw.get("op")), "appeared"),
        text,
        classify(text, role, cls),
        role or "toast",
        str(raw.get("u") or ""),
    )


class EventLog:
    """Events of one tab; each view shows those since the previous view."""

    def __init__(self) -> None:
        self.events: deque[PageEvent] = deque(maxlen=MAX_EVENTS)
        self.last_view = 0.0

    def add(self, events: Iterable[PageEvent]) -> None:
        for event in sorted(events, key=attrgetter("at")):
            last = self.events[-1] if self.events else None
            if last and last.text == event.text and last.op == event.op and event.at - last.at < 1.0:
                continue
            self.events.append(event)

    def since_last_view(self, now: float | None = None) -> list[PageEvent]:
        now = time.time() if now is None else now
        shown = [e for e in self.events if e.at > self.last_view][-MAX_SHOWN:]
        self.last_view = now
        return shown
