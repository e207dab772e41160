"""Stability wait before a snapshot (docs/DESIGN.md, "Stability wait"), and the page events drained with it.

Both happen in the page, in the same call that collects each frame (page/capture.py), so a
quiet page costs no round trip for them: the main frame's call first waits until the DOM has had
no mutations for ``quiet_ms`` (at most ``timeout_ms``; optionally also network idle); a child
frame's call only drains the events its watcher recorded (page/page_watch.py). This module
says what to ask each frame for and reads what they answered."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SettleOptions:
    wait: bool = True
    quiet_ms: int = 300
    timeout_ms: int = 3000
    network_idle: bool = False

    def arguments(self, main: bool) -> list[int | bool]:
        """The page function's (quiet, timeout, network) for one frame: only the main frame waits."""
        waits = self.wait and main
        return [self.quiet_ms if waits else 0, self.timeout_ms if waits else 0, self.network_idle and waits]

    @property
    def longest_wait(self) -> float:
        """Seconds the main frame's call may spend waiting before it collects."""
        return self.timeout_ms / 1000 if self.wait else 0.0


@dataclass
class Settled:
    waited_ms: float = 0.0
    stable: bool = True
    # The page had been changing without pause before the wait (a clock, a live grid): its ticks
    # did not hold the wait, only other changes did (page/page_watch_settle.js).
    ticking: bool = False
    events: list[tuple[dict[str, Any], float]] = field(default_factory=list)  # (raw event, page now ms)


def waited_ms(report: dict[str, Any] | None) -> float:
    """How long a frame's call waited for its DOM to settle (0 without a report)."""
    return float((report or {}).get("waited") or 0)


def settled_from(main: dict[str, Any] | None, others: Iterable[dict[str, Any] | None], wait: bool) -> Settled:
    """One Settled from the frames' watcher reports (the main frame's first)."""
    out = Settled()
    if main is not None and wait:
        out.waited_ms = waited_ms(main)
        out.stable = bool(main.get("stable", True))
        out.ticking = bool(main.get("ticking", False))
    for reply in (main, *others):
        if reply:
            now = float(reply.get("now") or 0)
            out.events.extend((event, now) for event in reply.get("events") or [])
    return out
