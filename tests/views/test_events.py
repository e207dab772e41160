"""Page events (views/events.py): where an event happened, against the page a view is of."""

from __future__ import annotations

from browserx.page.events import EventLog, from_raw
from browserx.views.events import summarise
from tests.builders import el
from tests.builders import page as built_page


def test_events_of_a_page_left_since_say_so_in_every_view() -> None:
    log = EventLog()
    raw = [
        ("Invalid ZIP code", "alert", "http://shop.test/cart"),
        ("Welcome back", "status", "http://shop.test/home#top"),
        ("Frame ready", "status", ""),  # a frame's event: its page is not known
    ]
    events = (
        from_raw({"t": 1000, "op": "added", "text": t, "role": r, "u": u}, 1000, 50.0) for t, r, u in raw
    )
    log.add(e for e in events if e is not None)
    snap = built_page(el("p"), url="http://shop.test/home")
    summary = summarise(log.since_last_view(60.0), snap, 60.0)
    lines = summary.lines()
    assert '  [10s ago] error appeared on the previous page: "Invalid ZIP code"' in lines, lines
    # The same page (its fragment aside) and events of unknown page (a frame's) are this page's.
    assert '  [10s ago] success appeared: "Welcome back"' in lines, lines
    assert '  [10s ago] info appeared: "Frame ready"' in lines, lines
    dicts = {e.text: e.to_dict(summary.now) for e in summary.events}
    assert dicts["Invalid ZIP code"]["previous_page"] is True
    assert "previous_page" not in dicts["Welcome back"]
