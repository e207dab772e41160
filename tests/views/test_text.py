"""The text view's line format on recorded payloads: control lines (role, unquoted name, facts in
parentheses, links by their URL), where-markers instead of per-line placements, the header, and
``parse_controls`` reading every control back."""

from __future__ import annotations

import re

import pytest

from browserx.views.build import build_view
from browserx.views.events import summarise
from browserx.views.options import ViewOptions
from browserx.views.outline import Item, control_facts
from browserx.views.scroll import scroll_lines
from browserx.views.text import (
    LEGEND,
    TEXT_ROLES,
    control_line,
    header_lines,
    inline_line,
    parse_controls,
    render_items,
    render_text,
)
from browserx.views.tokens import count_tokens
from tests.builders import RECORDINGS, recorded, snapshot_of


def _whole(name: str) -> str:
    snap = snapshot_of(recorded(name))
    return str(build_view(snap, ViewOptions(max_tokens=0), events=summarise([], snap)).payload)


def test_control_lines() -> None:
    assert control_line(5, {"role": "button", "tag": "button", "name": "Save"}) == "[5] button Save"
    assert control_line(6, {"role": "textbox", "tag": "input", "name": "Email", "required": True,
                            "type": "email"}) == "[6] textbox Email (required, type=email)"  # fmt: skip
    assert control_line(7, {"role": "checkbox", "tag": "input", "name": "Gift wrap", "checked": "mixed"}) == (
        "[7] checkbox Gift wrap (checked=mixed)"
    )
    # a link with its URL: the arrow says link
    assert (
        control_line(8, {"role": "link", "tag": "a", "name": "Terms", "href": "/terms"})
        == "[8] Terms → /terms"
    )
    assert control_line(9, {"role": "link", "tag": "a", "name": "More"}) == "[9] link More"
    # no tag after clickable / scrollable; a type the role already says is not repeated
    assert control_line(10, {"role": "clickable", "tag": "div", "name": "Card"}) == "[10] clickable Card"
    assert control_line(11, {"role": "spinbutton", "tag": "input", "name": "Guests", "type": "number"}) == (
        "[11] spinbutton Guests"
    )
    assert control_line(
        12, {"role": "combobox", "tag": "select", "options": ["A", "B"], "options_total": 30}
    ) == ("[12] combobox (options=[A, B, …])")
    # names that hold the line's delimiters are quoted, and so is one text follows
    assert control_line(13, {"role": "link", "tag": "a", "name": "Cart (3)", "href": "/cart"}) == (
        '[13] "Cart (3)" → /cart'
    )
    assert (
        control_line(14, {"role": "button", "tag": "button", "name": 'Say "hi"'})
        == '[14] button "Say \\"hi\\""'  # JSON-style: the name comes back exact
    )
    assert (
        control_line(15, {"role": "button", "tag": "button", "name": "Edit"}, quote=True)
        == '[15] button "Edit"'
    )
    assert control_line(16, {"role": "button", "tag": "button", "name": "Pay", "covered": {"by": "dialog"}},
                        quote=True) == "[16] button Pay (covered by dialog)"  # fmt: skip


def test_parse_controls_reads_back_every_control_of_every_recorded_page() -> None:
    for path in sorted(RECORDINGS.glob("*.json")):
        snap = snapshot_of(recorded(path.stem))
        text = _whole(path.stem)
        listed = parse_controls(text)
        assert set(listed) == set(snap.by_id), path.stem
        for element_id, node in snap.by_id.items():
            facts = control_facts(node, snap)
            role = TEXT_ROLES.get(facts["role"], facts["role"])
            assert listed[element_id] == (role, facts.get("name", "")), (
                path.stem,
                element_id,
                text,
            )


def test_parse_controls_on_rows_list_items_deltas_and_boxes() -> None:
    text = (
        "Item 5-0 | 84 | [25] button Buy 5-0 | [26] Details → /d?x=1\n"
        '- Apples [30] button "Edit" last changed today\n'
        "- [31] Post → /post by Ada [32] button More (expanded)\n"
        '+  [33] textbox City (value="a → b")\n'
        "[34] button @10,20,30x40\n"
        "scroll containers: 3 (0% down, more below)\n"
    )
    assert parse_controls(text) == {
        25: ("button", "Buy 5-0"),
        26: ("link", "Details"),
        30: ("button", "Edit"),
        31: ("link", "Post"),
        32: ("button", "More"),
        33: ("textbox", "City"),
        34: ("button", ""),
    }


def test_places_are_marker_lines_where_they_change() -> None:
    text = _whole("snap-layout")
    assert "(below" not in text and "(above" not in text
    lines = text.splitlines()
    markers = [line.strip() for line in lines if re.match(r"\s*-- .* --$", line)]
    assert markers == ["-- below in scroll container 3 --", "-- below the viewport --", "-- in view --"]
    snap = snapshot_of(recorded("snap-layout"))
    zone = "in view"
    for line in lines:
        if re.match(r"\s*-- .* --$", line):
            zone = line.strip()[3:-3]
            continue
        for element_id in parse_controls(line):
            placement = snap.placements.get(snap.by_id[element_id].index)
            if placement is None:
                assert zone == "in view", line
            elif placement.scroller is not None:
                assert zone == f"{placement.offscreen} in scroll container 3", line
            else:
                assert zone == f"{placement.offscreen} the viewport", line
    # the marker sits at the indentation of the line it introduces
    assert " -- below in scroll container 3 --" in lines


def test_header_says_viewport_scroll_and_interactive_counts() -> None:
    layout = snapshot_of(recorded("snap-layout"))
    first, second = header_lines(layout)
    assert first.startswith("# Snapshot layout — http://")
    assert re.fullmatch(
        r"viewport 1280x\d+, scrolled 0,0 of \d+x\d+ \(0% down, more below\); 36 interactive, "
        r"\d+ outside the viewport",
        second,
    ), second
    assert scroll_lines(layout) == ["scroll containers: 3 (0% down, more below)"]
    controls = snapshot_of(recorded("snap-controls"))
    assert header_lines(controls)[1].endswith(", page fits in it; 27 interactive")
    assert scroll_lines(controls) == []


def test_list_items_and_rows() -> None:
    snap = snapshot_of(recorded("snap-js"))
    text = render_text(snap)
    assert "\n[3] listitem Apples\n" in text  # a list item that is one control: no bullet
    assert not any(line.lstrip().startswith(("row:", "- [")) for line in text.splitlines())
    buy = Item("control", snap.by_id[8])  # button Buy now
    apples = Item("control", snap.by_id[3])
    # a row's cells are separated by " | ": no quotes needed
    row = Item("row", children=[Item("text", text="Widget"), Item("text", text="2"), buy])
    assert inline_line(row, snap) == "Widget | 2 | [8] button Buy now"
    # in a list item, a name that text follows is quoted; one another control follows is not
    item = Item("item", children=[apples, buy, Item("text", text="in stock")])
    assert inline_line(item, snap) == '[3] listitem Apples [8] button "Buy now" in stock'
    lines = render_items([item], snap)
    assert lines == ['- [3] listitem Apples [8] button "Buy now" in stock']
    assert parse_controls(lines[0]) == {3: ("listitem", "Apples"), 8: ("button", "Buy now")}


@pytest.mark.parametrize("name", ["snap-controls", "snap-layout", "snap-frames"])
def test_whole_page_text_costs_less_than_before(name: str) -> None:
    """Token costs of the whole-page view of recorded pages, before this format (quoted names,
    per-line "(below)", "row:" and two-space indentation) → now; a regression guard."""
    ceiling = {"snap-controls": 330, "snap-layout": 460, "snap-frames": 125}[name]
    assert count_tokens(_whole(name)) <= ceiling


def test_legend_describes_the_text_format() -> None:
    for needle in ("[N]", "→", "-- below the viewport --", "(facts)", " | ", "clickable", "covered by",
                   "name from nearby text", "scroll containers"):  # fmt: skip
        assert needle in LEGEND, needle


def test_parse_controls_keeps_quoted_names_with_cell_separators_whole() -> None:
    from browserx.views.text import parse_controls

    line = '[125] option "Administration | log entry | Can add log entry" | [126] button Go'
    assert parse_controls(line) == {125: ("option", "Administration | log entry | Can add log entry"),
                                    126: ("button", "Go")}  # fmt: skip
    assert parse_controls(' [617] button "Python 3 (ipykernel) | Idle"') == {
        617: ("button", "Python 3 (ipykernel) | Idle")
    }
