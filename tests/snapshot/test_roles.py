"""Role mapping (snapshot/roles.py) on hand-built node trees."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

import pytest

from browserx.snapshot.model import Node, NodeRef
from browserx.snapshot.role_tables import INTERACTIVE_ROLES
from browserx.snapshot.roles import role_of

# ---------------------------------------------------------------------------- tiny builder

_keys = itertools.count(1)


def el(
    tag: str,
    attrs: dict[str, str] | None = None,
    children: Iterable[Node] = (),
    *,
    state: dict[str, Any] | None = None,
    flags: int = 0,
    visible: bool = True,
    listeners: frozenset[str] = frozenset(),
) -> Node:
    node = Node(
        ref=NodeRef("main", next(_keys)),
        tag=tag,
        attrs=dict(attrs or {}),
        state=dict(state or {}),
        flags=flags,
        visible=visible,
        listeners=listeners,
    )
    for child in children:
        child.parent = node
        node.children.append(child)
    return node


def text(value: str, *, visible: bool = True) -> Node:
    return Node(ref=NodeRef("main", next(_keys)), tag="#text", text=value, visible=visible)


def doc(*children: Node) -> Node:
    """A #document > body tree with scopes and pre-order indexes wired."""
    root = el("#document", {}, [el("body", {}, children)])
    finish(root)
    return root


def finish(root: Node) -> None:
    for position, node in enumerate(root.walk()):
        node.index = position
        for child in node.children:
            child.scope = node if node.tag in ("#document", "#shadow-root") else node.scope


def role(node: Node) -> str | None:
    """Role of a node once placed in a document."""
    if node.parent is None:
        doc(node)
    return role_of(node)


# ---------------------------------------------------------------------------- explicit roles


def test_explicit_role_uses_first_recognised_token() -> None:
    assert role(el("div", {"role": "fancy button link"})) == "button"
    assert role(el("div", {"role": "  LINK "})) == "link"
    assert role(el("span", {"role": "image"})) == "img"
    assert role(el("div", {"role": "bogus"})) == "generic"
    assert role(el("button", {"role": "widget"})) == "button"  # abstract roles are ignored


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        (lambda: el("div", {"role": "none"}), None),
        (lambda: el("table", {"role": "presentation"}), None),
        (lambda: el("button", {"role": "presentation"}), "button"),  # focusable wins
        (lambda: el("span", {"role": "none", "tabindex": "0"}), "generic"),
        (lambda: el("h2", {"role": "none", "aria-label": "x"}), "heading"),  # global ARIA attr
        (lambda: el("img", {"role": "presentation", "alt": "x"}), None),
    ],
)
def test_presentation_roles(node: Any, expected: str | None) -> None:
    assert role(node()) == expected


# ---------------------------------------------------------------------------- implicit roles


@pytest.mark.parametrize(
    ("attrs", "state", "expected"),
    [
        ({}, {}, "textbox"),
        ({"type": "email"}, {}, "textbox"),
        ({"type": "tel"}, {}, "textbox"),
        ({"type": "url"}, {}, "textbox"),
        ({"type": "password"}, {}, "textbox"),
        ({"type": "bogus"}, {}, "textbox"),
        ({"type": "search"}, {}, "searchbox"),
        ({"type": "number"}, {}, "spinbutton"),
        ({"type": "range"}, {}, "slider"),
        ({"type": "checkbox"}, {}, "checkbox"),
        ({"type": "checkbox", "role": "switch"}, {}, "switch"),
        ({"type": "radio"}, {}, "radio"),
        ({"type": "submit"}, {}, "button"),
        ({"type": "reset"}, {}, "button"),
        ({"type": "button"}, {}, "button"),
        ({"type": "image"}, {}, "button"),
        ({"type": "file"}, {}, "button"),
        ({"type": "color"}, {}, "ColorWell"),
        ({"type": "date"}, {}, "Date"),
        ({"type": "datetime-local"}, {}, "DateTime"),
        ({"type": "time"}, {}, "InputTime"),
        ({"type": "hidden"}, {}, None),
        ({"type": "text", "list": "dl"}, {}, "combobox"),
        ({"type": "text", "list": "gone"}, {"noDatalist": True}, "textbox"),  # names no <datalist>
        ({"type": "TEXT"}, {"inputType": "checkbox"}, "checkbox"),  # live type wins
    ],
)
def test_input_roles(attrs: dict[str, str], state: dict[str, Any], expected: str | None) -> None:
    assert role(el("input", attrs, state=state)) == expected


@pytest.mark.parametrize(
    ("attrs", "expected"),
    [
        ({}, "combobox"),
        ({"size": "1"}, "combobox"),
        ({"size": "4"}, "listbox"),
        ({"multiple": ""}, "listbox"),
    ],
)
def test_select_roles(attrs: dict[str, str], expected: str) -> None:
    assert role(el("select", attrs, [el("option", {}, [text("A")])])) == expected


@pytest.mark.parametrize(
    ("tag", "attrs", "expected"),
    [
        ("a", {"href": "/x"}, "link"),
        ("a", {}, "generic"),
        ("area", {"href": "/x"}, "link"),
        ("button", {}, "button"),
        ("textarea", {}, "textbox"),
        ("option", {}, "option"),
        ("h1", {}, "heading"),
        ("h6", {}, "heading"),
        ("img", {"alt": "Logo"}, "img"),
        ("img", {}, "img"),
        ("img", {"alt": ""}, None),
        ("img", {"alt": "  "}, None),
        ("img", {"alt": "", "aria-label": "Logo"}, "img"),
        ("nav", {}, "navigation"),
        ("main", {}, "main"),
        ("form", {}, "form"),
        ("search", {}, "search"),
        ("section", {}, "generic"),
        ("section", {"aria-label": "News"}, "region"),
        ("section", {"aria-labelledby": "h"}, "region"),
        ("dialog", {}, "dialog"),
        ("ul", {}, "list"),
        ("ol", {}, "list"),
        ("menu", {}, "list"),
        ("details", {}, "group"),
        ("fieldset", {}, "group"),
        ("legend", {}, "legend"),
        ("label", {}, "LabelText"),
        ("hr", {}, "separator"),
        ("progress", {}, "progressbar"),
        ("meter", {}, "meter"),
        ("article", {}, "article"),
        ("figure", {}, "figure"),
        ("p", {}, "paragraph"),
        ("output", {}, "status"),
        ("iframe", {}, "Iframe"),
        ("br", {}, "LineBreak"),
        ("div", {}, "generic"),
        ("my-widget", {}, "generic"),
        ("script", {}, None),
    ],
)
def test_tag_roles(tag: str, attrs: dict[str, str], expected: str | None) -> None:
    assert role(el(tag, attrs)) == expected


def test_anchor_with_click_listener_is_link() -> None:
    assert role(el("a", {}, listeners=frozenset({"click"}))) == "link"


def test_non_element_roles() -> None:
    shadow = el("#shadow-root", {"mode": "open"})
    root = doc(text("hi"), el("div", {}, [shadow]))
    body = root.children[0]
    assert role_of(body.children[0]) == "StaticText"
    assert role_of(root) == "RootWebArea"
    assert role_of(shadow) is None


def test_header_footer_are_landmarks_only_at_top_level() -> None:
    header, footer = el("header"), el("footer")
    doc(el("div", {}, [header, footer]))
    assert (role_of(header), role_of(footer)) == ("banner", "contentinfo")

    scoped_header, scoped_footer = el("header"), el("footer")
    doc(el("article", {}, [scoped_header]), el("section", {}, [scoped_footer]))
    assert (role_of(scoped_header), role_of(scoped_footer)) == ("generic", "generic")

    in_role_main = el("header")
    doc(el("div", {"role": "main"}, [in_role_main]))
    assert role_of(in_role_main) == "generic"


def test_aside_is_complementary_unless_scoped_and_unnamed() -> None:
    top, scoped, named = el("aside"), el("aside"), el("aside", {"aria-label": "Related"})
    doc(top, el("article", {}, [scoped, named]))
    assert role_of(top) == "complementary"
    assert role_of(scoped) == "generic"
    assert role_of(named) == "complementary"
    in_main = el("aside")
    doc(el("main", {}, [in_main]))
    assert role_of(in_main) == "complementary"


def test_list_items_follow_their_list() -> None:
    item, hidden_item = el("li"), el("li")
    doc(el("ul", {}, [item]), el("ul", {"role": "none"}, [hidden_item]))
    assert role_of(item) == "listitem"
    assert role_of(hidden_item) is None


def test_table_roles() -> None:
    col_a, col_b = el("th", {}, [text("Name")]), el("th", {}, [text("Age")])
    row_head, cell = el("th", {}, [text("Ann")]), el("td", {}, [text("31")])
    scoped = el("th", {"scope": "row"}, [text("X")])
    body_row = el("tr", {}, [row_head, cell])
    table = el(
        "table",
        {},
        [
            el("thead", {}, [el("tr", {}, [col_a, col_b])]),
            el("tbody", {}, [body_row, el("tr", {}, [scoped, el("th", {}, [text("Y")])])]),
        ],
    )
    doc(table)
    assert role_of(table) == "table"
    assert role_of(table.children[0]) == "rowgroup"
    assert role_of(body_row) == "row"
    assert role_of(cell) == "cell"
    assert (role_of(col_a), role_of(col_b)) == ("columnheader", "columnheader")
    assert role_of(row_head) == "rowheader"
    assert role_of(scoped) == "rowheader"


def test_gridcell_inside_grid_and_presentational_table_parts() -> None:
    grid_cell, layout_cell = el("td"), el("td")
    layout_row = el("tr", {}, [layout_cell])
    doc(
        el("table", {"role": "grid"}, [el("tr", {}, [grid_cell])]),
        el("table", {"role": "presentation"}, [layout_row]),
    )
    assert role_of(grid_cell) == "gridcell"
    assert role_of(layout_row) is None
    assert role_of(layout_cell) is None
    assert role(el("td")) == "generic"  # no table


def test_summary_is_disclosure_triangle_only_in_details() -> None:
    summary, stray = el("summary"), el("summary")
    doc(el("details", {}, [summary]), stray)
    assert role_of(summary) == "DisclosureTriangle"
    assert role_of(stray) == "generic"


def test_contenteditable_host_is_textbox() -> None:
    inner = el("p", {}, [text("hi")], state={"editable": True})
    inner_div = el("div", {}, state={"editable": True})
    host = el("div", {"contenteditable": "true"}, [inner, inner_div], state={"editable": True})
    by_attr = el("div", {"contenteditable": ""})
    doc(host, by_attr)
    assert role_of(host) == "textbox"
    assert role_of(inner) == "paragraph"
    assert role_of(inner_div) == "generic"  # inside the editing host
    assert role_of(by_attr) == "textbox"  # attribute fallback when state is absent
    assert role(el("div", {"contenteditable": "false"})) == "generic"


def test_svg_roles() -> None:
    path = el("path")
    assert role(el("svg", {"aria-label": "Logo"})) == "img"
    assert role(el("svg", {}, [el("title", {}, [text("Logo")]), path])) == "img"
    assert role(el("svg")) is None
    assert role_of(path) is None


def test_interactive_roles() -> None:
    for name in ("button", "link", "textbox", "combobox", "checkbox", "DisclosureTriangle", "menuitemradio"):
        assert name in INTERACTIVE_ROLES
    for name in ("generic", "heading", "gridcell", "StaticText", "list"):
        assert name not in INTERACTIVE_ROLES
