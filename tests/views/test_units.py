"""Units on recorded payloads: deciding a unit's shape without rendering it must agree with what
the text view renders."""

from __future__ import annotations

import pytest

from browserx.views.outline import Item, outline
from browserx.views.text import INDENT, inline_line, item_lines
from browserx.views.units import is_atomic, units_of
from tests.snapshot.test_pipeline import RECORDINGS, recorded, snapshot_of


def _rows(items: list[Item]) -> list[Item]:
    out: list[Item] = []
    for item in items:
        if item.kind in ("row", "item"):
            out.append(item)
        out.extend(_rows(item.children))
    return out


@pytest.mark.parametrize("name", sorted(p.stem for p in RECORDINGS.glob("*.json")))
def test_atomic_rows_are_exactly_the_ones_rendered_inline(name: str) -> None:
    snap = snapshot_of(recorded(name))
    rows = _rows(outline(snap))
    for row in rows:
        assert is_atomic(row, snap) == (inline_line(row, snap) is not None), row


@pytest.mark.parametrize("name", ["snap-controls", "snap-layout"])
def test_unit_text_is_rendered_on_first_use_and_matches_the_item(name: str) -> None:
    snap = snapshot_of(recorded(name))
    units = units_of(outline(snap), snap)
    assert units
    for unit in units:
        assert unit.text == "\n".join(item_lines(unit.item, snap))
        assert unit.chars == len(unit.text) + 1 + len(INDENT) * unit.depth


def test_summaries_count_a_list_item_holding_one_control_as_that_control() -> None:
    from browserx.snapshot.model import Node, NodeRef
    from browserx.views.units import label_of

    link = Node(NodeRef("m", 2), "a", role="link", name="Docs")
    text = Item("text", text="Docs")
    assert label_of(Item("item", children=[Item("control", link)])) == "link"
    assert label_of(Item("item", children=[text, Item("control", link)])) == "list item"
    assert label_of(Item("row", children=[Item("control", link)])) == "table row"
