"""Accessible name and description (snapshot/accname.py) on hand-built node trees."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

import pytest

from browserx.snapshot.accname import accessible_name, description, name_and_source
from browserx.snapshot.model import F_ATOMIC_INLINE, F_INLINE, Node, NodeRef
from browserx.snapshot.name_context import NameContext

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
    rendered: bool | None = None,
) -> Node:
    """``visible=False`` alone is hidden (visibility: hidden); with ``rendered=True`` it is only
    unseen (screen-reader-only, clipped, off-page)."""
    node = Node(
        ref=NodeRef("main", next(_keys)),
        tag=tag,
        attrs=dict(attrs or {}),
        state=dict(state or {}),
        flags=flags,
        visible=visible,
        rendered=visible if rendered is None else rendered,
    )
    for child in children:
        child.parent = node
        node.children.append(child)
    return node


def span(attrs: dict[str, str] | None = None, children: Iterable[Node] = (), **kw: Any) -> Node:
    """An inline element (display: inline)."""
    return el("span", attrs, children, flags=F_INLINE, **kw)


def text(value: str, *, visible: bool = True, rendered: bool | None = None) -> Node:
    return Node(
        ref=NodeRef("main", next(_keys)),
        tag="#text",
        text=value,
        visible=visible,
        rendered=visible if rendered is None else rendered,
    )


def doc(*children: Node) -> Node:
    """A #document > body tree with scopes and pre-order indexes wired."""
    root = el("#document", {}, [el("body", {}, children)])
    for position, node in enumerate(root.walk()):
        node.index = position
        for child in node.children:
            child.scope = node if node.tag in ("#document", "#shadow-root") else node.scope
    return root


def top(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node


def ctx_for(node: Node) -> NameContext:
    if node.parent is None:
        doc(node)
    return NameContext(top(node))


def name(node: Node) -> str:
    return accessible_name(node, ctx_for(node))


def source(node: Node) -> str:
    return name_and_source(node, ctx_for(node))[1]


def labels(*label_nodes: Node) -> dict[str, Any]:
    return {"labels": [label.ref.key for label in label_nodes]}


# ---------------------------------------------------------------------------- precedence


def test_precedence_labelledby_label_title_placeholder() -> None:
    label = el("label", {}, [text("Label")])
    other = el("span", {"id": "other"}, [text("Labelled by")])
    attrs = {"title": "Title", "placeholder": "Placeholder", "aria-label": "Aria"}
    fields = [
        el("input", {**attrs, "aria-labelledby": "other"}, state=labels(label)),
        el("input", attrs, state=labels(label)),
        el("input", {"title": "Title", "placeholder": "Placeholder"}, state=labels(label)),
        el("input", {"title": "Title", "placeholder": "Placeholder"}),
        el("input", {"placeholder": "Placeholder"}),
        el("textarea", {"aria-placeholder": "Aria placeholder"}),
        el("input"),
    ]
    root = doc(label, other, *fields)
    ctx = NameContext(root)
    assert [name_and_source(f, ctx) for f in fields] == [
        ("Labelled by", "labelledby"),
        ("Aria", "aria-label"),
        ("Label", "native"),
        ("Title", "title"),
        ("Placeholder", "placeholder"),
        ("Aria placeholder", "placeholder"),
        ("", ""),
    ]


def test_blank_aria_label_is_ignored() -> None:
    assert name(el("button", {"aria-label": "   "}, [text("Save")])) == "Save"
    assert name(el("button", {"aria-label": "  Close  dialog "}, [text("x")])) == "Close dialog"


# ---------------------------------------------------------------------------- aria-labelledby


def test_labelledby_joins_targets_in_order() -> None:
    button = el("button", {"aria-labelledby": "b a missing"}, [text("ignored")])
    doc(span({"id": "a"}, [text("Account")]), span({"id": "b"}, [text("Delete")]), button)
    assert name(button) == "Delete Account"


def test_labelledby_uses_captured_text_when_targets_are_absent() -> None:
    field = el("input", {"aria-labelledby": "gone"}, state={"labelledbyText": "  Hidden  label "})
    assert name(field) == "Hidden label"
    assert name(el("input", {"aria-labelledby": "gone", "title": "T"})) == "T"


def test_hidden_labelledby_target_counts_with_its_hidden_content() -> None:
    hidden = el("div", {"id": "h"}, [text("Secret "), span({}, [text("name")], visible=False)], visible=False)
    field = el("input", {"aria-labelledby": "h"})
    doc(hidden, field)
    assert name(field) == "Secret name"


def test_visible_labelledby_target_skips_hidden_descendants() -> None:
    target = el("div", {"id": "t"}, [text("Shown"), span({}, [text(" hidden")], visible=False)])
    field = el("input", {"aria-labelledby": "t"})
    doc(target, field)
    assert name(field) == "Shown"


def test_labelledby_is_not_followed_twice() -> None:
    first = span({"id": "one", "aria-labelledby": "two"}, [text("One")])
    second = span({"id": "two"}, [text("Two")])
    field = el("input", {"aria-labelledby": "one"})
    doc(first, second, field)
    assert name(field) == "One"


def test_labelledby_self_reference() -> None:
    button = el("button", {"id": "del", "aria-labelledby": "del file"}, [text("Delete")])
    doc(button, span({"id": "file"}, [text("report.pdf")]))
    assert name(button) == "Delete report.pdf"


def test_labelledby_resolves_in_the_elements_own_scope() -> None:
    inner_label = span({"id": "l"}, [text("Inside")])
    field = el("input", {"aria-labelledby": "l"})
    shadow = el("#shadow-root", {"mode": "open"}, [inner_label, field])
    doc(span({"id": "l"}, [text("Outside")]), el("x-field", {}, [shadow]))
    assert name(field) == "Inside"


# ---------------------------------------------------------------------------- labels


def test_label_for_via_captured_labels() -> None:
    label = el("label", {"for": "email"}, [text("Email address")])
    field = el("input", {"id": "email", "type": "email"}, state=labels(label))
    doc(label, field)
    assert name(field) == "Email address"


def test_wrapping_label_excludes_the_control_itself() -> None:
    field = el("input", {"value": "typed"})
    label = el("label", {}, [text("Email "), field])
    field.state.update(labels(label))
    doc(label)
    assert name(field) == "Email"


def test_labels_found_in_tree_without_captured_state() -> None:
    by_for = el("input", {"id": "q"})
    wrapped = el("input", {"type": "checkbox"})
    doc(
        el("label", {"for": "q"}, [text("Query")]),
        el("label", {}, [wrapped, text(" Remember me")]),
        by_for,
    )
    assert name(by_for) == "Query"
    assert name(wrapped) == "Remember me"


def test_multiple_labels_are_joined() -> None:
    first, second = el("label", {}, [text("First")]), el("label", {}, [text("second")])
    field = el("input", state=labels(first, second))
    doc(first, second, field)
    assert name(field) == "First second"


def test_nested_controls_in_a_label_contribute_their_values() -> None:
    checkbox = el("input", {"type": "checkbox"})
    select = el(
        "select",
        {},
        [el("option", {}, [text("1")]), el("option", {}, [text("3")], state={"selected": True})],
    )
    label = el("label", {}, [checkbox, text("Flash the screen "), select, text(" times")])
    checkbox.state.update(labels(label))
    doc(label)
    assert name(checkbox) == "Flash the screen 3 times"

    captured = el("select", state={"options": [["Small", False], ["Large", True]]})
    box = el("input", {"type": "checkbox"})
    amount = el("input", {"type": "text"}, state={"value": "12"})
    label = el("label", {}, [box, text("Buy "), amount, text(" "), captured])
    box.state.update(labels(label))
    doc(label)
    assert name(box) == "Buy 12 Large"


def test_password_value_never_leaks_into_names() -> None:
    secret = el("input", {"type": "password", "value": "hunter2"})
    box = el("input", {"type": "checkbox"})
    label = el("label", {}, [box, text("Show "), secret])
    box.state.update(labels(label))
    doc(label)
    assert name(box) == "Show"


def test_label_aria_label_wins_over_its_content() -> None:
    label = el("label", {"aria-label": "Phone number"}, [text("Tel")])
    field = el("input", {"type": "tel"}, state=labels(label))
    doc(label, field)
    assert name(field) == "Phone number"


# ---------------------------------------------------------------------------- native names


@pytest.mark.parametrize(
    ("attrs", "expected"),
    [
        ({"type": "submit"}, "Submit"),
        ({"type": "reset"}, "Reset"),
        ({"type": "submit", "value": "Send"}, "Send"),
        ({"type": "button", "value": "Go"}, "Go"),
        ({"type": "button"}, ""),
        ({"type": "button", "title": "Hint"}, "Hint"),
        ({"type": "image", "alt": "Search"}, "Search"),
        ({"type": "image", "value": "Find"}, "Find"),
        ({"type": "image"}, "Submit"),
        ({"type": "image", "title": "Find it"}, "Find it"),
    ],
)
def test_input_button_names(attrs: dict[str, str], expected: str) -> None:
    assert name(el("input", attrs)) == expected


def test_submit_label_beats_value() -> None:
    label = el("label", {}, [text("Send form")])
    button = el("input", {"type": "submit", "value": "Go"}, state=labels(label))
    doc(label, button)
    assert name(button) == "Send form"


def test_img_alt_and_title() -> None:
    assert name(el("img", {"alt": "Company logo"})) == "Company logo"
    assert name(el("img", {"alt": "", "title": "decorative"})) == ""  # presentational
    assert name(el("img", {"title": "Tooltip"})) == "Tooltip"
    assert name(el("area", {"href": "/", "alt": "Home"})) == "Home"


def test_fieldset_figure_table_and_svg_names() -> None:
    fieldset = el("fieldset", {}, [el("legend", {}, [text("Shipping")]), el("input")])
    figure = el("figure", {}, [el("img", {"alt": "x"}), el("figcaption", {}, [text("Fig. 1")])])
    table = el("table", {}, [el("caption", {}, [text("Prices")]), el("tr")])
    svg = el("svg", {}, [el("title", {}, [text("Logo")]), el("path")])
    doc(fieldset, figure, table, svg)
    assert [name(n) for n in (fieldset, figure, table, svg)] == ["Shipping", "Fig. 1", "Prices", "Logo"]


def test_select_and_meter_labels() -> None:
    label = el("label", {}, [text("Country")])
    select = el("select", {}, [el("option", {}, [text("France")])], state=labels(label))
    doc(label, select)
    assert name(select) == "Country"  # not the selected option
    assert name(el("select", {"title": "Pick"})) == "Pick"


# ---------------------------------------------------------------------------- name from content


def test_content_roles_only() -> None:
    assert name(el("a", {"href": "/"}, [text("Home")])) == "Home"
    assert name(el("h2", {}, [text("Title")])) == "Title"
    assert name(el("div", {"role": "tab"}, [text("Tab 1")])) == "Tab 1"
    summary = el("summary", {}, [text("More")])
    doc(el("details", {}, [summary]))
    assert name(summary) == "More"
    for tag in ("p", "li", "div", "label", "ul", "nav", "textarea"):
        assert name(el(tag, {}, [text("Words")])) == "", tag


def test_hidden_descendants_are_skipped() -> None:
    button = el(
        "button",
        {},
        [
            text("Save"),
            span({}, [text(" draft")], visible=False),
            span({"aria-hidden": "true"}, [text(" icon")]),
            text(" now", visible=False),
        ],
    )
    assert name(button) == "Save"


def test_screen_reader_only_text_names_an_icon_button() -> None:
    """Django admin's theme toggle: an icon and a .visually-hidden span (clipped to 1 px). Chrome
    names it "Toggle theme (current theme: auto)"; unseen is not hidden."""
    sr_only = span(
        {"class": "visually-hidden"},
        [text("Toggle theme (current theme: auto)", visible=False, rendered=True)],
        visible=False,
        rendered=True,
    )
    button = el("button", {"class": "theme-toggle"}, [el("svg", {"aria-hidden": "true"}), sr_only])
    assert name(button) == "Toggle theme (current theme: auto)"


def test_descendant_alternatives() -> None:
    link = el(
        "a",
        {"href": "/"},
        [
            el("img", {"alt": "Home"}, flags=F_INLINE),
            el("img", {"alt": ""}, flags=F_INLINE),
            span({"aria-label": " page"}),
            span({"title": " (start)"}),
        ],
    )
    # A generic span's title names nothing inside another's content (Chrome 156: the close icon
    # <div title="Close analysis.ipynb"> of a JupyterLab tab is a generic with an empty name).
    assert name(link) == "Home page"
    assert name(el("a", {"href": "/"}, [el("img", {"title": "Start"}, flags=F_INLINE)])) == "Start"


def test_block_children_are_separated_inline_ones_are_not() -> None:
    assert name(el("a", {"href": "/"}, [el("div", {}, [text("One")]), el("div", {}, [text("Two")])])) == (
        "One Two"
    )
    assert name(el("a", {"href": "/"}, [span({}, [text("Sub")]), span({}, [text("way")])])) == "Subway"
    assert name(el("button", {}, [text("Line"), el("br", flags=F_INLINE), text("break")])) == "Line break"


def test_boxes_of_their_own_are_set_apart_as_chrome_does() -> None:
    # A multi-select's button (Headless UI / Tailwind): the count and the chips are inline-block
    # (or flex items, which are block-level): Chrome reads "2 selected Electronics Toys".
    chip = F_INLINE | F_ATOMIC_INLINE
    button = el(
        "button",
        {},
        [span({}, [text("2 selected")]), el("span", {}, [text("Electronics")], flags=chip),
         el("span", {}, [text("Toys")], flags=chip)],
    )  # fmt: skip
    assert name(button) == "2 selected Electronics Toys"
    # Plain inline pieces stay glued (one layout box): "Subway".
    assert name(el("button", {}, [span({}, [text("Sub")]), span({}, [text("way")])])) == "Subway"


def test_generated_content_is_part_of_the_name() -> None:
    # A chip's separator comes from CSS (`.chip:not(:last-child)::after { content: "," }`): Chrome
    # reads "2 selected Electronics, Toys"; `.tag + .tag::before { content: ", " }` reads
    # "Acme , Globex" (the ::before sits in the second chip's box, set apart from the first).
    chip = F_INLINE | F_ATOMIC_INLINE
    button = el(
        "button",
        {},
        [el("span", {}, [text("2 selected")]),
         el("span", {}, [text("Electronics")], flags=chip, state={"after": ","}),
         el("span", {}, [text("Toys")], flags=chip)],
    )  # fmt: skip
    assert name(button) == "2 selected Electronics, Toys"
    tags = el(
        "button",
        {},
        [
            el("span", {}, [text("Acme")], flags=chip),
            el("span", {}, [text("Globex")], flags=chip, state={"before": ", "}),
        ],
    )
    assert name(tags) == "Acme , Globex"
    # On the named element itself: a required marker after a link's text.
    assert name(el("a", {"href": "/"}, [text("Docs")], state={"after": " ↗"})) == "Docs ↗"


def test_controls_are_set_apart_in_content() -> None:
    box = el("input", {"type": "checkbox"}, flags=F_INLINE)
    option = el("div", {"role": "option"}, [text("Pick"), box, text("me")])
    assert name(option) == "Pick me"


def test_naming_from_content_stops_after_100_descendants() -> None:
    words = [span({}, [text(f"w{i} ")]) for i in range(150)]
    named = name(el("button", {}, words))
    assert named.startswith("w0 w1 ")
    assert "w99" in named
    assert "w120" not in named


def test_presentational_nodes_have_no_name() -> None:
    assert name(el("div", {"role": "none"}, [text("x")])) == ""
    assert name(el("input", {"type": "hidden", "value": "v"})) == ""


def test_containers_that_never_contribute_content() -> None:
    link = el("a", {"href": "/"}, [text("Read "), el("nav", {}, [text("menu")]), span({}, [text("more")])])
    assert name(link) == "Read more"


def test_shadow_host_content_and_slots() -> None:
    shadow = el("#shadow-root", {"mode": "open"}, [text("Hello "), el("slot", flags=F_INLINE)])
    host = el("x-button", {"role": "button"}, [shadow, text("Bob")])
    assert name(host) == "Hello Bob"

    named_slot = el("slot", {"name": "icon"}, flags=F_INLINE)
    shadow = el("#shadow-root", {}, [named_slot, text(" Save")])
    icon = span({"slot": "icon"}, [text("Disk")])
    assert name(el("x-button", {"role": "button"}, [shadow, icon, text("ignored")])) == "Disk Save"

    fallback = el("slot", {}, [text("Default")], flags=F_INLINE)
    empty_host = el("x-button", {"role": "button"}, [el("#shadow-root", {}, [fallback])])
    assert name(empty_host) == "Default"


def test_iframe_documents_are_skipped() -> None:
    frame = el("iframe", {}, [el("#document", {}, [el("body", {}, [text("inner")])])])
    assert name(el("button", {}, [text("Open"), frame])) == "Open"


def test_row_named_from_content_only_in_grid() -> None:
    grid_row = el("tr", {}, [el("td", {}, [text("A")]), el("td", {}, [text("B")])])
    data_row = el("tr", {}, [el("td", {}, [text("C")])])
    doc(el("table", {"role": "grid"}, [grid_row]), el("table", {}, [data_row]))
    assert name(grid_row) == "A B"
    assert name(data_row) == ""


def test_text_node_name() -> None:
    assert name(text("  some   words ")) == "some words"


# ---------------------------------------------------------------------------- description


def test_description_sources() -> None:
    help_text = span({"id": "help"}, [text("8+ characters")])
    described = el("input", {"aria-describedby": "help", "title": "Password"})
    titled = el("button", {"title": "Saves the draft"}, [text("Save")])
    title_is_name = el("button", {"title": "Close"})
    fallback = el("input", {"aria-describedby": "gone"}, state={"describedbyText": "Hidden help"})
    aria_description = el("button", {"aria-description": "Extra"}, [text("Go")])
    doc(help_text, described, titled, title_is_name, fallback, aria_description)
    ctx = NameContext(top(help_text))
    assert description(described, ctx) == "8+ characters"
    assert description(titled, ctx) == "Saves the draft"
    assert description(title_is_name, ctx) == ""
    assert description(fallback, ctx) == "Hidden help"
    assert description(aria_description, ctx) == "Extra"
    assert description(text("x"), ctx) == ""
