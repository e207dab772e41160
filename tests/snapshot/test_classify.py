"""Tiers (snapshot/classify.py): 1 a meaningful role, 2 acted on though not semantic (listeners,
click attributes, tabindex, editable, cursor, delegation), 3 structure; which wrappers and inner
parts are not targets of their own, and labels standing in for hidden toggles. Hand-made trees
for the rules, recorded pages for the real shapes (no browser)."""

from __future__ import annotations

import pytest
from tests.builders import doc, el, recorded_snapshot, text

from browserx.snapshot.classify import classify, is_interactive
from browserx.snapshot.merge import Tree
from browserx.snapshot.model import (
    F_CURSOR_NOT_ALLOWED,
    F_CURSOR_POINTER,
    F_FRAMEWORK_CLICK,
    F_NO_POINTER_EVENTS,
    Node,
)
from browserx.snapshot.roles import role_of
from browserx.snapshot.states import states_of

CLICK = frozenset({"click"})


def classified(*body: Node) -> Tree:
    tree = Tree(doc(el("html", el("body", *body))))
    tree.finish()
    classify(tree)
    return tree


def listening(node: Node, types: frozenset[str] = CLICK) -> Node:
    node.listeners = types
    return node


def flagged(node: Node, flags: int) -> Node:
    node.flags |= flags
    return node


def tiers(*nodes: Node) -> list[tuple[int, tuple[str, ...]]]:
    return [(n.tier, n.hints) for n in nodes]


# -- one element at a time ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("node", "role"),
    [
        (el("button", text("Save")), "button"),
        (el("a", text("Docs"), attrs={"href": "/docs"}), "link"),
        (el("input", attrs={"type": "checkbox"}), "checkbox"),
        (el("select"), "combobox"),
        (el("div", attrs={"role": "button"}), "button"),
        (el("textarea"), "textbox"),
        (el("div", text("Edit me"), state={"editable": True}), "textbox"),  # contenteditable
    ],
)
def test_native_and_aria_controls_are_tier_one_and_interactive(node: Node, role: str) -> None:
    classified(node)
    assert (node.role, node.tier) == (role, 1)
    assert is_interactive(node)


@pytest.mark.parametrize(
    ("node", "hint"),
    [
        (listening(el("div", text("Open gallery"))), "listener"),
        (el("div", text("Open"), attrs={"onclick": "go()"}), "onclick"),
        (el("span", text("Open"), attrs={"@click": "open = true"}), "onclick"),
        (el("div", text("Load"), attrs={"hx-get": "/more"}), "onclick"),
        (el("div", text("Star"), attrs={"tabindex": "0"}), "tabindex"),
        (flagged(el("div", text("Add to wishlist")), F_CURSOR_POINTER), "pointer"),
        (flagged(el("div", text("Like"), attrs={"class": "like"}), F_FRAMEWORK_CLICK), "framework"),
        (el("span", text("Tags"), attrs={"role": "listitem", "tabindex": "0"}), "tabindex"),
    ],
)
def test_a_non_semantic_element_a_person_acts_on_is_tier_two(node: Node, hint: str) -> None:
    classified(node)
    assert node.tier == 2 and hint in node.hints
    assert is_interactive(node)


def test_a_framework_click_handler_alone_makes_a_target() -> None:
    # A bare <div onClick> of a framework: no listener, attribute, state or pointer cursor.
    like = flagged(el("div", text("Like")), F_FRAMEWORK_CLICK)
    classified(like)
    assert like.tier == 2 and like.hints == ("framework",)


@pytest.mark.parametrize(
    "node",
    [
        el("div", text("Just text")),
        el("span", text("Caption"), attrs={"class": "x", "title": "a title"}),
        el("div", text("Skipped"), attrs={"tabindex": "-1"}),  # focusable by script only
        flagged(el("div", text("Decor")), F_CURSOR_POINTER | F_NO_POINTER_EVENTS),
        el("a", text("No href")),
    ],
)
def test_plain_structure_is_tier_three_and_not_interactive(node: Node) -> None:
    classified(node)
    assert node.tier == 3 and node.hints == ()
    assert not is_interactive(node)


def test_a_semantic_element_with_a_click_handler_is_acted_on_as_a_control() -> None:
    heading = listening(el("h2", text("Pets")))
    item = el("li", text("Apples"), attrs={"onclick": "pick()"})
    classified(heading, el("ul", item))
    assert (heading.role, heading.tier, heading.hints) == ("heading", 2, ("listener",))
    assert (item.role, item.tier) == ("listitem", 2)
    assert is_interactive(heading) and is_interactive(item)


def test_visibility_is_not_classifys_business() -> None:
    # A hidden control keeps its tier: the pipeline leaves invisible nodes out of the IDs.
    hidden = el("button", text("Hidden"), visible=False)
    hidden_div = listening(el("div", text("Hidden too"), visible=False))
    classified(hidden, hidden_div)
    assert (hidden.tier, hidden_div.tier) == (1, 2)


# -- page-wide handlers and delegation ---------------------------------------------------------


def test_listeners_on_the_page_itself_or_a_delegating_root_are_not_targets() -> None:
    root = listening(el("div", el("p", text("App")), attrs={"id": "root"}),
                     frozenset({"click", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart"}))  # fmt: skip
    tree = Tree(doc(listening(el("html", listening(el("body", root))))))
    tree.finish()
    classify(tree)
    assert [n.tier for n in tree.nodes if n.is_element and n.tag != "p"] == [3, 3, 3]
    assert not any(is_interactive(n) for n in tree.nodes)


def test_a_listening_list_hands_the_click_to_its_items_that_show_something() -> None:
    items = [el("li", text(name)) for name in ("Apples", "Bananas", "Cherries")]
    separator = el("li")
    fruits = listening(el("ul", *items[:2], separator, items[2]))
    classified(fruits)
    assert [(i.tier, i.hints) for i in items] == [(2, ("delegated",))] * 3
    assert separator.tier != 2 and not is_interactive(separator)
    assert not is_interactive(fruits)


def test_a_listening_table_hands_the_click_to_its_rows() -> None:
    rows = [el("tr", el("td", text(f"Row {i}"))) for i in range(3)]
    table = listening(el("table", el("tbody", *rows)))
    classified(table)
    assert all(r.tier == 2 and r.hints == ("delegated",) for r in rows)
    assert all(not is_interactive(cell) for r in rows for cell in r.children)


def test_a_listening_row_is_one_item_not_a_list_of_its_cells() -> None:
    """Grid libraries put row-click plumbing on every row (Element Plus, antd): the cells are not
    targets of their own; a row around its own controls is the table's, a bare one is a target."""
    cells = [el("td", text(v)) for v in ("1000", "Ada", "20.00")]
    with_controls = flagged(
        listening(el("tr", el("td", el("input", attrs={"type": "checkbox"})), *cells,
                     el("td", el("button", text("Edit"))))), F_FRAMEWORK_CLICK)  # fmt: skip
    bare = listening(el("tr", *[el("td", text(v)) for v in ("Bo", "37.50", "Paid")]))
    classified(el("table", el("tbody", with_controls, bare)))
    assert not any(is_interactive(c) for c in cells) and not is_interactive(with_controls)
    assert bare.tier == 2 and not any(is_interactive(c) for c in bare.children)


def test_a_listening_widget_hands_the_click_to_the_list_inside_it() -> None:
    entries = [el("li", text(f"file{i}.txt")) for i in range(3)]
    browser = listening(el("div", el("div", el("ul", *entries)), el("div", text("Toolbar"))))
    classified(browser)
    assert all(e.tier == 2 and e.hints == ("delegated",) for e in entries)
    assert not is_interactive(browser)


# -- wrappers and inner parts ------------------------------------------------------------------


def test_a_listening_wrapper_of_controls_is_a_container_not_a_target() -> None:
    button = el("button", text("Save"))
    card = listening(el("div", el("h3", text("Draft")), button))
    classified(card)
    assert card.tier != 2 and not is_interactive(card)
    assert button.tier == 1


def test_a_wrapper_with_a_handler_of_its_own_and_a_little_text_stays_a_target() -> None:
    header = el("div", el("span", text("pets")), el("button", text("Expand")), attrs={"onclick": "toggle()"})
    wordy = el("div", el("p", text("x" * 200)), el("button", text("Go")), attrs={"onclick": "toggle()"})
    classified(header, wordy)
    assert header.tier == 2 and "onclick" in header.hints
    assert not is_interactive(wordy)  # a panel with a button in it


def test_a_focusable_composite_wrapping_controls_stays_a_target() -> None:
    grid = el("div", el("button", text("A")), el("button", text("B")), attrs={"tabindex": "0"})
    classified(grid)
    assert grid.tier == 2 and grid.hints == ("tabindex",)


def test_a_focusable_drop_zone_around_controls_is_their_container_not_a_target() -> None:
    """react-dropzone's root around a chat composer: role presentation, tabindex 0, a click
    listener (the file dialog's), no cursor of its own: the controls inside are the targets."""
    field, send = el("textarea"), el("button", text("Send"))
    zone = listening(
        el(
            "div",
            el("img", attrs={"alt": "logo"}),
            field,
            send,
            attrs={"tabindex": "0", "role": "presentation"},
        )
    )
    pointed = listening(
        flagged(
            el("div", el("button", text("A")), el("button", text("B")), attrs={"tabindex": "0"}),
            F_CURSOR_POINTER,
        )
    )
    lone = listening(el("div", el("button", text("C")), attrs={"tabindex": "0"}))
    classified(zone, pointed, lone)
    assert not is_interactive(zone) and field.tier == 1 and send.tier == 1
    assert pointed.tier == 2  # a pointer cursor of its own: it says it is clicked itself
    assert lone.tier == 2  # around one control: a focusable widget of its own, as before


def test_parts_inside_a_control_or_another_target_are_not_targets_of_their_own() -> None:
    inner = flagged(el("span", text("Buy")), F_CURSOR_POINTER)
    button = el("button", inner)
    icon = flagged(el("i"), F_CURSOR_POINTER)
    card = flagged(el("div", icon, text("Card")), F_CURSOR_POINTER)
    classified(button, card)
    assert inner.tier == 3 and not is_interactive(inner)
    assert card.tier == 2 and icon.tier == 3  # the pointer cursor is inherited, not its own


def test_a_handler_of_its_own_inside_a_clickable_card_is_a_target() -> None:
    remove = listening(el("span", text("Remove")))
    icon = flagged(el("span", text("♥")), F_CURSOR_POINTER)
    card = el("div", el("p", text("Item")), remove, icon, attrs={"onclick": "open()"})
    button = el("button", listening(el("span", text("Inside a button"))))
    classified(card, button)
    assert card.tier == 2 and card.hints == ("onclick",)  # a card with text of its own
    assert remove.tier == 2 and remove.hints == ("listener",)
    assert icon.tier == 3  # a mere cursor inside the card is part of it
    assert button.children[0].tier == 3  # a real control swallows even a handler of its own


# -- labels standing in for hidden toggles -----------------------------------------------------


def test_a_visible_label_stands_in_for_the_hidden_checkbox_it_controls() -> None:
    box = el("input", attrs={"type": "checkbox", "id": "news"}, visible=False)
    label = el("label", text("Newsletter"), attrs={"for": "news"})
    label.state = {"control": box.ref.key}
    classified(box, label)
    assert (label.role, label.tier) == ("checkbox", 1)
    assert label.state["proxyOf"] is box
    assert is_interactive(label)


def test_a_label_wrapping_a_hidden_radio_stands_in_for_it_but_not_for_a_visible_one() -> None:
    hidden = el("input", attrs={"type": "radio"}, visible=False)
    shown = el("input", attrs={"type": "radio"})
    around_hidden = el("label", el("span", hidden), text("Express"))
    around_shown = el("label", shown, text("Standard"))
    classified(around_hidden, around_shown)
    assert around_hidden.role == "radio" and around_hidden.state["proxyOf"] is hidden
    assert around_shown.role != "radio" and "proxyOf" not in around_shown.state


# -- recorded pages ----------------------------------------------------------------------------


def test_the_recorded_js_page_tiers() -> None:
    snap = recorded_snapshot("snap-js")
    by_name = {n.name: n for n in snap.by_id.values()}
    assert tiers(by_name["Open photo gallery"], by_name["Show more reviews"]) == [(2, ("listener",))] * 2
    assert [by_name[f].hints for f in ("Apples", "Bananas", "Cherries", "Dates")] == [("delegated",)] * 4
    assert tiers(by_name["Add to wishlist"]) == [(2, ("pointer",))]
    assert (by_name["Buy now"].role, by_name["Buy now"].tier) == ("button", 1)
    fruits = next(n for n in snap.nodes if n.attrs.get("id") == "fruits")
    assert fruits.listeners == CLICK and not is_interactive(fruits)
    # The spans inside the button and the plain text box are structure.
    assert all(n.tier == 3 for n in snap.nodes if n.tag == "span")
    assert snap.stats.tier_counts == {1: 5, 2: 7, 3: 4}


def test_the_recorded_controls_page_is_all_tier_one_but_its_custom_widget() -> None:
    snap = recorded_snapshot("snap-controls")
    assert len(snap.by_id) == 27
    odd = {n.name: (n.tier, n.hints) for n in snap.by_id.values() if n.tier != 1}
    assert odd == {"Custom star widget": (2, ("tabindex",))}


# -- what only the page's styles or Chrome's accessibility tree say --------------------------------


def test_what_the_page_marks_not_allowed_is_no_target_of_a_handler() -> None:
    """flatpickr's disabled days: a listening calendar hands the click to its days, but the page
    marks the disabled ones cursor: not-allowed; a focusable one stays (it says more)."""
    days = [el("span", text(str(d))) for d in (1, 2, 3)]
    days[1].flags |= F_CURSOR_NOT_ALLOWED
    focusable = flagged(el("span", text("4"), attrs={"tabindex": "0"}), F_CURSOR_NOT_ALLOWED)
    classified(listening(el("div", el("div", *days, focusable))))
    assert [d.tier for d in days] == [2, 3, 2]
    assert focusable.tier == 2


def test_a_custom_element_chrome_leaves_out_wraps_its_own_control() -> None:
    """Material Web's md-list-item: focusable, ElementInternals role none, a <button> inside its
    shadow root; the button is the control. A focusable composite that Chrome keeps stays one."""
    inner = el("button", text("Account"))
    host = el("md-list-item", inner, attrs={"tabindex": "0"}, state={"axRole": "none"})
    composite = el("x-grid", el("button", text("A")), attrs={"tabindex": "0"})
    classified(host, composite)
    assert not is_interactive(host) and inner.tier == 1
    assert composite.tier == 2


def test_an_elementinternals_role_and_states_count_as_chromes() -> None:
    tab = el("md-primary-tab", text("General"), attrs={"tabindex": "0"},
             state={"axRole": "tab", "selected": True})  # fmt: skip
    radio = el("md-radio", attrs={"tabindex": "-1"}, state={"axRole": "radio", "checked": True})
    classified(tab, radio)
    assert (role_of(tab), tab.tier, states_of(tab)) == ("tab", 1, {"selected": True})
    assert (role_of(radio), states_of(radio)) == ("radio", {"checked": True})


def test_a_screen_reader_only_radio_of_a_group_a_person_sees_is_listed() -> None:
    """MUI Rating: the stars' radios are stood in for by their labels; "Empty" is hidden with its
    label, yet the arrow keys reach it. A lone hidden radio, or one out of the tab order, is not."""
    stars = [el("input", attrs={"type": "radio", "name": "r"}, visible=False) for _ in range(2)]
    labels = [el("label", text(f"{i} Stars")) for i in (1, 2)]
    for star, label in zip(stars, labels, strict=True):
        label.state = {"control": star.ref.key}
    empty_label = el("label", text("Empty"), visible=False)  # clipped: rendered, not seen
    empty = el("input", attrs={"type": "radio", "name": "r"}, state={"labels": [empty_label.ref.key]},
               visible=False)  # fmt: skip
    skipped = el("input", attrs={"type": "radio", "name": "r", "tabindex": "-1"},
                 state={"labels": [empty_label.ref.key]}, visible=False)  # fmt: skip
    # MkDocs' palette: the other state's radio, its label not rendered at all (never walked).
    put_away = el("input", attrs={"type": "radio", "name": "r", "aria-label": "Switch"}, visible=False)
    alone = el("input", attrs={"type": "radio", "name": "other"}, state={"labels": [empty_label.ref.key]},
               visible=False)  # fmt: skip
    tree = classified(*stars, *labels, empty, empty_label, skipped, put_away, alone)
    assert empty.visible and not skipped.visible and not alone.visible and not put_away.visible
    assert {n.index for n in tree.nodes if n.visible and n.tag == "input"} == {empty.index}
