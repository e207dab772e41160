"""What the views served for one tab, for the next view to build on: the last view's state (what a
``since_last`` delta compares against, views/delta.py) and the hash of the last hybrid picture
sent (the same picture is not sent twice). Control's, not the tab's: a tab keeps what the page is
and what its IDs name; this is what its caller was shown.

One record per tab while the tab lives (held beside it, not in it): the tab tells it of each
snapshot about to be torn down (the last view lets go of its tree, keeping what a delta needs) and
of its release (a picture is sent again after it)."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from browserx.snapshot.snapshot import DomSnapshot
from browserx.tabs.tab import Tab
from browserx.views.delta import ViewState


class Observation:
    def __init__(self) -> None:
        self.last_view: ViewState | None = None
        self.screenshot_hash: str | None = None  # of the last hybrid view's picture

    def retiring(self, old: DomSnapshot) -> None:
        if self.last_view is not None and self.last_view.holds(old):
            self.last_view.detach()  # a later delta still compares against that view

    def released(self) -> None:
        self.screenshot_hash = None


_RECORDS: WeakKeyDictionary[Tab, Observation] = WeakKeyDictionary()


def observation(tab: Tab) -> Observation:
    """The tab's record, made at its first view."""
    record = _RECORDS.get(tab)
    if record is None:
        record = _RECORDS[tab] = Observation()
        tab.on_retire.append(record.retiring)
        tab.on_release.append(record.released)
    return record
