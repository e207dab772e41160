"""Which tab opened which: the tabs a page opened (a ``target=_blank`` link, ``window.open``, an
OAuth popup) and which of them have closed since, per opener, until a call on the opener reports
them (control/popups.py). Fed by the extension's tab notices (``created`` carries Chrome's
``openerTabId``); a notice that comes after an action's answer is reported by the next call."""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_KEPT = 20  # per opener: a page that opens tabs in a loop does not grow the host


@dataclass
class Openers:
    opener_of: dict[int, int] = field(default_factory=dict)  # opened tab → the tab that opened it
    _opened: dict[int, list[int]] = field(default_factory=dict)  # opener → opened, not yet reported
    _closed: dict[int, list[int]] = field(default_factory=dict)  # opener → closed, not yet reported

    def created(self, tab_id: int, opener: int | None) -> None:
        if opener is None or opener == tab_id:
            return
        if len(self.opener_of) >= 100 * MAX_KEPT:  # a bound for browsers open for weeks
            self.opener_of.pop(next(iter(self.opener_of)))
        self.opener_of[tab_id] = opener
        _append(self._opened.setdefault(opener, []), tab_id)

    def removed(self, tab_id: int) -> None:
        self._opened.pop(tab_id, None)
        self._closed.pop(tab_id, None)
        opener = self.opener_of.pop(tab_id, None)
        if opener is not None:  # (one opened and closed between two calls is reported as both)
            _append(self._closed.setdefault(opener, []), tab_id)

    def forget(self, tab_id: int) -> None:
        """The agent closes ``tab_id`` itself: its closing is no news to report."""
        self.opener_of.pop(tab_id, None)

    def take(self, opener: int) -> tuple[list[int], list[int]]:
        """The tabs ``opener`` opened and the ones of them that closed, since the last take."""
        return self._opened.pop(opener, []), self._closed.pop(opener, [])


def _append(kept: list[int], tab_id: int) -> None:
    kept.append(tab_id)
    del kept[:-MAX_KEPT]
