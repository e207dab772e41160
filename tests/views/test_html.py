"""The ``html`` view as a whole (views/html.py): in both modes every ID of the text view once and
nothing else, and the size limit (a cut view stays within ``max_chars``, closes every tag and
says so; ``max_chars`` capped; a bad mode)."""

from __future__ import annotations

import re

import pytest

from browserx.views.html import MAX_MAX_CHARS, render_html
from browserx.views.text import parse_controls, render_text
from tests.builders import SNAP_RECORDINGS, el, page, parsed_html, recorded_snapshot, text


@pytest.mark.parametrize("name", SNAP_RECORDINGS)
@pytest.mark.parametrize("mode", ["skeleton", "full"])
def test_every_id_of_the_text_view_once_and_nothing_else(name: str, mode: str) -> None:
    snap = recorded_snapshot(name)
    view = render_html(snap, mode)
    found = parsed_html(view.html)
    text_ids = set(parse_controls(render_text(snap)))
    assert len(set(found.ids)) == len(found.ids) == view.elements
    if mode == "skeleton":
        assert set(found.ids) == text_ids, view.html
    else:  # what a templatized run leaves out is counted in its comment
        assert set(found.ids) <= text_ids
        held = sum(int(n) for n in re.findall(r"holding (\d+) elements with IDs", view.html))
        assert len(found.ids) + held == len(text_ids), view.html
    assert not view.truncated and view.note is None


# -- size limit ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["skeleton", "full"])
def test_a_cut_view_stays_within_max_chars_and_ends_with_every_tag_closed(mode: str) -> None:
    snap = recorded_snapshot("snap-controls")
    whole = render_html(snap, mode)
    for limit in (100, 137, 250, 600, 1000, len(whole.html) - 1):
        view = render_html(snap, mode, limit)
        assert len(view.html) <= limit and view.truncated, limit
        assert view.note is not None and str(limit) in view.note
        found = parsed_html(view.html)
        assert len(found.ids) == view.elements < len(snap.by_id)
    assert render_html(snap, mode, len(whole.html)).html == whole.html


def test_max_chars_is_capped_and_a_bad_mode_is_an_error() -> None:
    # 300,000 characters of text; a word between the paragraphs keeps them from being templatized.
    snap = page(*(node for _ in range(1000) for node in (el("p", text("x" * 300)), text("and"))))
    view = render_html(snap, "full", 10**9)
    assert len(view.html) <= MAX_MAX_CHARS and view.truncated
    with pytest.raises(ValueError, match="mode"):
        render_html(snap, "pretty")
