"""What HTML says about an element before ARIA (snapshot/elements.py): parsed attributes, the
input type, editing hosts, disabled and focusable, on hand-built node trees."""

from __future__ import annotations

from typing import Any

import pytest
from tests.builders import doc, el, text

from browserx.snapshot.elements import (
    element_parent,
    input_type,
    is_disabled,
    is_editing_host,
    is_focusable,
    iter_ancestors,
    parse_int,
)
from browserx.snapshot.model import Node


def placed(*nodes: Node) -> Node:
    """A #document > body holding ``nodes``."""
    return doc(el("body", *nodes))


# ---------------------------------------------------------------------------- attributes


@pytest.mark.parametrize(
    ("value", "expected"),
    [("3", 3), (" -2px", -2), ("+7", 7), ("abc", None), ("", None), (None, None)],
)
def test_parse_int_follows_html(value: str | None, expected: int | None) -> None:
    assert parse_int(value) == expected


def test_input_type_is_normalised() -> None:
    assert input_type(el("input")) == "text"
    assert input_type(el("input", attrs={"type": " EMAIL "})) == "email"
    assert input_type(el("input", attrs={"type": "bogus"})) == "text"
    assert input_type(el("input", attrs={"type": "text"}, state={"inputType": "checkbox"})) == "checkbox"


def test_ancestors_cross_shadow_roots_but_not_documents() -> None:
    inner = el("span")
    shadow = el("#shadow-root", inner)
    host = el("my-widget", shadow)
    framed = el("p")
    frame = el("iframe", doc(el("body", framed)))
    root = placed(host, frame)
    body = root.children[0]
    assert element_parent(inner) is host
    assert list(iter_ancestors(inner)) == [host, body]
    assert [n.tag for n in iter_ancestors(framed)] == ["body"]  # stops at the frame's document


# ---------------------------------------------------------------------------- editing, disabled


def test_editing_host_is_the_root_of_an_editable_region() -> None:
    inner = el("p", state={"editable": True})
    host = el("div", inner, state={"editable": True})
    by_attr = el("div", attrs={"contenteditable": ""})
    placed(host, by_attr, el("div", attrs={"contenteditable": "false"}))
    assert is_editing_host(host)
    assert not is_editing_host(inner)
    assert is_editing_host(by_attr)
    assert not is_editing_host(text("x"))


def test_disabled() -> None:
    assert is_disabled(el("button", attrs={"disabled": ""}))
    assert not is_disabled(el("div", attrs={"disabled": ""}))  # not a form control
    assert is_disabled(el("input", state={"disabled": True}))  # capture's :disabled wins
    assert not is_disabled(el("input", attrs={"disabled": ""}, state={"disabled": False}))


# ---------------------------------------------------------------------------- focus


@pytest.mark.parametrize(
    ("tag", "attrs", "state", "expected"),
    [
        ("button", {}, {}, True),
        ("button", {}, {"disabled": True}, False),
        ("button", {"disabled": ""}, {}, False),
        ("input", {}, {}, True),
        ("input", {"type": "hidden"}, {}, False),
        ("select", {}, {}, True),
        ("textarea", {}, {"disabled": True}, False),
        ("a", {"href": "#"}, {}, True),
        ("a", {}, {}, False),
        ("div", {}, {}, False),
        ("div", {"tabindex": "-1"}, {}, True),
        ("div", {"tabindex": " 3"}, {}, True),
        ("div", {"tabindex": "abc"}, {}, False),
        ("div", {"contenteditable": "true"}, {}, True),
        ("div", {"inert": ""}, {}, False),
    ],
)
def test_is_focusable(tag: str, attrs: dict[str, str], state: dict[str, Any], expected: bool) -> None:
    node = el(tag, attrs=attrs, state=state)
    placed(node)
    assert is_focusable(node) is expected


def test_focusability_context() -> None:
    summary, inert_button = el("summary"), el("button")
    placed(el("details", summary), el("div", inert_button, attrs={"inert": ""}))
    assert is_focusable(summary)
    assert not is_focusable(inert_button)
    assert not is_focusable(text("x"))
