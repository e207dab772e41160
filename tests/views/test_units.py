"""Units on recorded payloads: deciding a unit's shape without rendering it must agree with what
the text view renders."""

from __future__ import annotations

import pytest

from browserx.views.outline import Item, outline
from browserx.views.text import INDENT, inline_line, item_lines
from browserx.views.units import is_atomic, units_of
from tests.builders import RECORDINGS, recorded, snapshot_of


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


def test_a_page_that_fits_is_whole_even_when_its_first_lines_are_denser_than_the_rest() -> None:
    # Dense lines in view (IDs, numbers) make the measured chars-per-token low; the prose below
    # is cheaper per char. The size estimate may then say "too big" for a page that fits: the
    # budgeted path must still end up keeping everything.
    from browserx.views.budget import fit
    from browserx.views.options import ViewOptions
    from browserx.views.tokens import count_tokens
    from browserx.views.units import Unit
    from browserx.views.viewport import Where

    snap = snapshot_of(recorded("snap-js"))  # unused: the units' text is set below

    def unit(i: int, text: str, in_view: bool) -> Unit:
        u = Unit(Item("text", text=text), (), i, Where(in_view, None if in_view else "below"), (), "text line",
                 False, snap)  # fmt: skip
        u._text = text
        return u

    dense = [unit(i, f"[{1000 + i}] 7{i}|{i * 37}|x{i}", True) for i in range(50)]
    words = "international organizations responsibilities understanding communication "  # ~10 chars a token
    prose = [unit(50 + i, words * 3, False) for i in range(600)]
    units = dense + prose

    def render(kept: set[int], omitted: object) -> str:
        return "\n".join(u.text for u in units if u.order in kept) + "\n"

    whole = count_tokens(render({u.order for u in units}, None))
    fitted = fit(units, render, ViewOptions(format="text", max_tokens=whole + 50))
    assert fitted.kept == {u.order for u in units}, (len(fitted.kept), len(units))
    assert fitted.tokens <= whole + 50
