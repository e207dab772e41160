"""The label hunt (snapshot/label_hunt.py): the visible text a person reads as an unnamed
field's label, on hand-built node trees."""

from __future__ import annotations

from typing import Any

import pytest
from tests.builders import doc, el, text

from browserx.snapshot.label_hunt import hunt_label
from browserx.snapshot.model import Node
from browserx.snapshot.name_context import NameContext


def placed(*nodes: Node) -> Node:
    """A #document > body holding ``nodes``."""
    return doc(el("body", *nodes))


def span(*children: Node) -> Node:
    """An inline element (display: inline)."""
    return el("span", *children, inline=True)


def hidden(node: Node) -> Node:
    """Not rendered (display: none): out of the accessibility tree."""
    node.visible = node.rendered = False
    return node


def hunted(field: Node) -> str:
    root = field
    while root.parent is not None:
        root = root.parent
    return hunt_label(field, NameContext(root))


def test_hunt_preceding_sibling_text() -> None:
    field = el("input")
    placed(el("div", span(text("Email")), field))
    assert hunted(field) == "Email"


def test_hunt_skips_marker_only_text() -> None:
    field = el("input")
    placed(el("div", span(text("Email")), span(text("*")), field))
    assert hunted(field) == "Email"


def test_hunt_previous_table_cell() -> None:
    field = el("input")
    placed(el("table", el("tr", el("td", text("Name")), el("td", el("div", field)))))
    assert hunted(field) == "Name"


def test_hunt_following_text_for_checkboxes() -> None:
    box = el("input", attrs={"type": "checkbox"})
    placed(el("div", box, span(text("Remember me"))))
    assert hunted(box) == "Remember me"


def test_hunt_parent_text() -> None:
    field = el("input")
    placed(el("div", field, text(" kg")))
    assert hunted(field) == "kg"


@pytest.mark.parametrize(
    "build",
    [
        lambda f: el("div", f),
        lambda f: el("div", span(text("x" * 81)), f),
        lambda f: el("div", span(text("First")), el("input"), f),
        lambda f: el("div", hidden(span(text("Hidden"))), f),
    ],
    ids=["nothing", "too-long", "other-control-between", "hidden-text"],
)
def test_hunt_finds_nothing(build: Any) -> None:
    field = el("input")
    placed(build(field))
    assert hunted(field) == ""


def test_hunt_does_not_climb_out_of_a_row() -> None:
    field = el("input")
    placed(el("table", el("tr", el("td", text("Header"))), el("tr", el("td", field))))
    assert hunted(field) == ""
