"""Scroll containers in the views (issue 21, item 2), on the recorded app shell
(tests/fixtures/pages/app-scroll-shell.html: html, body and the shell clip with overflow: hidden;
a scrolling <main> with a form, a nested list, a carousel and a wide table below its fold; a chat
opened at its newest message). Its IDs, in document order: 6 main, 15 the list of files, 28 the
carousel, 34 the wide table's container, 38 the chat's messages."""

from __future__ import annotations

import re

from browserx.views.build import build_view
from browserx.views.events import EventSummary
from browserx.views.options import ViewOptions
from browserx.views.scroll import container_dicts, scroll_lines
from browserx.views.text import parse_controls
from browserx.views.viewport import ViewportIndex, Where
from tests.builders import recorded_snapshot

MAIN, FILES, CAROUSEL, WIDE, CHAT = 6, 15, 28, 34, 38


def _view(**options: object) -> str:
    snap = recorded_snapshot("app-scroll-shell")
    view = build_view(snap, ViewOptions(**options), events=EventSummary((), False, False, 0.0))  # type: ignore[arg-type]
    assert isinstance(view.payload, str)
    return view.payload


def _names(text: str) -> dict[str, int]:
    return {name: i for i, (_, name) in parse_controls(text).items()}


def _zones(text: str) -> dict[str, str]:
    zone, out = "in view", dict[str, str]()
    for line in text.splitlines():
        marker = re.fullmatch(r"\s*-- (.*) --", line)
        if marker:
            zone = marker.group(1)
        for _, name in parse_controls(line).values():
            out.setdefault(name, zone)
    return out


def test_the_whole_page_lists_below_and_above_every_inner_fold_with_markers() -> None:
    text = _view(max_tokens=0)
    names, zones = _names(text), _zones(text)
    assert names["Refresh data"] == 7 and zones["Refresh data"] == "in view"
    for name in ("From", "Apply filters", "Open file 1", "Open slide 1", "Edit order 2", "Delete dashboard"):
        assert zones[name] == f"below in scroll container {MAIN}", (name, text)
    assert zones["Open file 12"] == f"below in scroll container {FILES}"
    assert zones["Open slide 5"] == f"right in scroll container {CAROUSEL}"
    assert zones["Reply to 1"] == f"above in scroll container {CHAT}"
    assert zones["Send"] == "in view"
    # Clipped by boxes that do not scroll: not listed, their text (which shows) is.
    assert "Clipped away button" not in names and "Clipped sideways button" not in names
    assert "Clipped box (overflow: hidden)" in text
    # The default view of a page that fits is the whole page.
    assert _view() == text


def test_containers_that_scroll_sideways_say_so() -> None:
    snap = recorded_snapshot("app-scroll-shell")
    (line,) = scroll_lines(snap)
    assert f"{CAROUSEL} (0% across, more right)" in line and f"{WIDE} (0% across, more right)" in line
    assert f"{MAIN} (0% down, more below)" in line
    assert f"[{CAROUSEL}] scrollable Highlights (scroll 0% across, more right)" in _view(max_tokens=0)
    by_id = {c["id"]: c for c in container_dicts(snap)}
    assert by_id[CAROUSEL]["right"] is True and "right" not in by_id[MAIN]
    assert by_id[CHAT]["above"] is True


def test_where_a_unit_is_names_the_container_to_scroll() -> None:
    snap = recorded_snapshot("app-scroll-shell")
    index = ViewportIndex(snap)

    def where(name: str) -> Where:
        (node,) = [n for n in snap.by_id.values() if n.name == name]
        return index.where(node)

    assert where("Refresh data").in_view
    assert where("Apply filters") == Where(False, "below", MAIN)
    # Inside a container that is itself below main's fold: main is the one to scroll.
    assert where("Open file 1") == Where(False, "below", MAIN)
    assert where("Open slide 1") == Where(False, "below", MAIN)
    assert where("Open file 12") == Where(False, "below", FILES)
    assert where("Open slide 5") == Where(False, "right", CAROUSEL)
    assert where("Reply to 1") == Where(False, "above", CHAT)


def test_viewport_only_and_the_budget_summarise_an_inner_fold_with_the_way_to_reach_it() -> None:
    seen = _view(viewport_only=True)
    names = _names(seen)
    assert "Refresh data" in names and "Reply to 19" in names
    assert not {"Apply filters", "Open file 1", "Delete dashboard", "Reply to 1"} & set(names)
    for text in (seen, _view(max_tokens=500)):
        assert re.search(
            rf"^… \d+ buttons, .* below in scroll container {MAIN} — scroll container {MAIN} to see them$",
            text,
            re.M,
        ), text
        assert f"sections below in scroll container {MAIN}: Filters, Recent files, Highlights, Data" in text
        assert f"above in scroll container {CHAT} — scroll container {CHAT} to see them" in text
