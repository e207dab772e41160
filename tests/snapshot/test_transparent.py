"""Transparent is not always hidden (issue 21): native toggles transparent on top of their drawn
box, select fields promoted by their transparent focus input, hover-revealed content, and
containers whose handlers do nothing for a person (snapshot/stand_ins.py, classify.py,
visibility.py). Trees built by hand (tests/builders.py); the derived visibility is given or
computed."""

from __future__ import annotations

from tests.builders import doc, el, text

from browserx.snapshot.classify import classify, is_interactive
from browserx.snapshot.merge import Tree
from browserx.snapshot.model import (
    F_CLIPPED_AWAY,
    F_CURSOR_POINTER,
    F_HOVER_REVEALS,
    F_NO_POINTER_EVENTS,
    F_TRANSPARENT,
    Box,
    Node,
)
from browserx.snapshot.visibility import compute_visibility, shows_on_hover

CLICK = frozenset({"click"})
TOGGLE_BOX = Box(0, 0, 16, 16)
PIXEL_INPUT = Box(10, 10, 1, 24)


def classified(*body: Node) -> Tree:
    tree = Tree(doc(el("html", el("body", *body))))
    tree.finish()
    classify(tree)
    return tree


def transparent(node: Node, box: Box = TOGGLE_BOX) -> Node:
    node.flags |= F_TRANSPARENT
    node.visible = False
    node.box = box
    return node


def listening(node: Node) -> Node:
    node.listeners = CLICK
    return node


# -- native toggles under a drawn box ---------------------------------------------------------


def test_a_transparent_checkbox_on_top_of_its_drawn_box_is_the_control() -> None:
    box = transparent(el("input", attrs={"type": "checkbox", "aria-label": "Select all runs"}))
    wrapper = el("div", box, attrs={"class": "ag-checkbox-input-wrapper"})
    header = el("div", wrapper, text("Run"), attrs={"role": "columnheader", "tabindex": "-1"})
    classified(header)
    assert box.visible and box.role == "checkbox" and is_interactive(box)
    assert header.role == "columnheader"  # a target of its own still, beside its checkbox


def test_a_transparent_toggle_too_small_to_click_or_not_rendered_stays_hidden() -> None:
    tiny = transparent(el("input", attrs={"type": "checkbox"}), Box(0, 0, 1, 1))
    unrendered = el("input", attrs={"type": "checkbox"}, visible=False)
    unrendered.rendered = False
    classified(el("div", tiny), el("div", unrendered))
    assert not tiny.visible and not unrendered.visible


def test_a_label_stands_in_for_its_own_control_never_for_a_visibility_hidden_one() -> None:
    pin = el("input", attrs={"type": "checkbox", "aria-label": "Pin run"}, visible=False)
    pin.rendered = False  # visibility: hidden: out of the accessibility tree
    select = transparent(el("input", attrs={"type": "checkbox", "aria-label": "Select run-41"}))
    label = el("label", pin, el("span", select), el("span", text("run-41")))
    label.state = {"control": pin.ref.key}  # the first input inside: the hidden pin
    classified(label)
    assert "proxyOf" not in label.state and label.role != "checkbox"
    assert select.visible and select.role == "checkbox"
    assert not pin.visible


# -- select fields ------------------------------------------------------------------------------


def _select(field_listens: bool = True, input_box: Box = PIXEL_INPUT) -> tuple[Node, Node]:
    focus = el(
        "input", attrs={"type": "text", "role": "combobox", "readonly": "", "aria-label": "Quiet from"}
    )
    focus.box = input_box
    hidden_wrapper = transparent(el("div", focus), Box(10, 10, 1, 24))
    shown = el("div", el("span", text("22:00")))
    field = el("div", el("div", hidden_wrapper, shown), attrs={"class": "el-select__wrapper"})
    field.box = Box(0, 0, 180, 32)
    focus.visible = False
    if field_listens:
        listening(field)
    return field, focus


def test_a_select_field_with_a_transparent_focus_input_is_the_combobox() -> None:
    field, focus = _select()
    classified(el("div", field))
    assert (field.role, field.tier) == ("combobox", 1) and is_interactive(field)
    assert field.state["proxyOf"] is focus and field.state["proxyField"]


def test_a_transparent_focus_input_in_a_field_that_takes_no_click_promotes_nothing() -> None:
    field, _ = _select(field_listens=False)
    classified(el("div", field))
    assert field.role != "combobox" and not is_interactive(field)


def test_a_focus_input_inside_an_aria_combobox_field_is_listed_as_itself() -> None:
    """Vuetify: the field is ``role=combobox`` (no name), the transparent input inside it takes no
    pointer events but holds the label; Chrome lists both, the click lands on the field."""
    focus = transparent(
        el("input", attrs={"role": "combobox", "aria-label": "Warehouse"}), Box(10, 10, 200, 24)
    )
    focus.flags |= F_NO_POINTER_EVENTS
    field = listening(el("div", el("div", el("div", focus)), attrs={"role": "combobox"}))
    field.box = Box(0, 0, 240, 56)
    stray = transparent(el("input", attrs={"type": "text"}), Box(300, 10, 200, 24))
    stray.flags |= F_NO_POINTER_EVENTS  # nothing takes its clicks: a ghost, not a control
    classified(field, el("div", stray))
    assert focus.visible and is_interactive(focus) and field.role == "combobox"
    assert not stray.visible


def test_native_inputs_transparent_on_top_of_their_drawing_are_the_controls() -> None:
    """A range input over the drawn track (Material's slider), a file input over its button
    (UIkit's form-custom), a text input whose wrapper fades in on focus (Material's filled field)."""
    track = transparent(el("input", attrs={"type": "range", "aria-label": "Volume"}), Box(0, 0, 200, 40))
    slider = listening(el("md-slider", el("div", track)))
    slider.box = Box(0, 0, 200, 40)
    upload = transparent(el("input", attrs={"type": "file", "aria-label": "Upload"}), Box(0, 50, 175, 40))
    drawn = el("button", text("Choose cover"), attrs={"tabindex": "-1"})
    custom = el("div", upload, drawn)
    custom.box = drawn.box = Box(0, 50, 175, 40)
    email = el("input", attrs={"type": "email", "aria-label": "Email"}, visible=False)
    email.box = Box(0, 110, 200, 24)
    fading = transparent(el("div", el("div", email, visible=False)), Box(0, 100, 232, 56))
    field = el("div", fading)
    field.box = Box(0, 100, 232, 56)
    tiny = transparent(el("input", attrs={"type": "range"}), Box(0, 200, 4, 4))
    classified(slider, custom, field, el("div", tiny))
    assert track.visible and track.role == "slider" and not is_interactive(slider)
    assert upload.visible and upload.role == "button" and drawn.visible
    assert email.visible and email.role == "textbox"
    assert not tiny.visible


def test_a_clipped_away_button_laid_over_a_listening_field_makes_it_the_button() -> None:
    """Ionic's select: a clipped-away transparent button covers the label that takes the click;
    the label is the button (its name and states). A visually hidden 1-px button in a clickable
    card does not make the card that button."""
    over = el("button", attrs={"aria-label": "Travellers, Two", "aria-expanded": "false"}, visible=False)
    over.flags |= F_TRANSPARENT | F_CLIPPED_AWAY
    over.box = Box(0, 0, 400, 44)
    label = listening(el("label", el("div", text("Travellers")), el("div", el("div", over))))
    label.box = Box(0, 0, 400, 44)
    sr_only = el("button", text("Remove"), visible=False)
    sr_only.flags |= F_CLIPPED_AWAY
    sr_only.box = Box(0, 60, 1, 1)
    card = listening(el("div", el("p", text("Chip")), sr_only))
    card.box = Box(0, 60, 120, 32)
    classified(label, card)
    assert label.role == "button" and label.state["proxyOf"] is over and is_interactive(label)
    assert card.role != "button" and "proxyOf" not in card.state


# -- hover-revealed content ---------------------------------------------------------------------


def _visibility(*body: Node) -> list[Node]:
    root = doc(el("html", el("body", *body)))
    for n in root.walk():
        if n.is_element and n.tag != "#document":
            n.box = Box(0, 0, 100, 20)
    nodes = list(root.walk())
    for i, n in enumerate(nodes):
        n.index = i
    compute_visibility(nodes, Box(0, 0, 1280, 720), (0, 0))
    return nodes


def test_transparent_content_a_hover_rule_reveals_is_visible_and_says_so() -> None:
    button = el("button", text("Rerun"))
    actions = el("span", button)
    actions.flags |= F_TRANSPARENT | F_HOVER_REVEALS
    ghost = el("button", text("Archive everything"))
    ghost.flags |= F_TRANSPARENT
    _visibility(el("table", el("tr", el("td", actions))), el("p", ghost))
    assert button.visible and shows_on_hover(button)
    assert not ghost.visible and not shows_on_hover(ghost)


# -- handlers that do nothing for a person ---------------------------------------------------------


def test_a_listener_on_a_block_of_content_makes_no_control() -> None:
    markdown = listening(el("div", el("h2", text("About quiet hours")), el("p", text("During quiet hours…")),
                            el("ul", el("li", text("Push")), el("li", text("E-mail")))))  # fmt: skip
    summary = listening(el("div", el("div", text("3 channels")), el("div", text("12 rules")),
                           el("div", text("2 muted"))))  # fmt: skip
    tree = classified(markdown, summary)
    assert not [n.tag for n in tree.nodes if n.is_element and is_interactive(n)]


def test_a_listener_with_a_cursor_or_on_a_short_label_or_a_file_list_is_still_a_target() -> None:
    card = listening(el("div", el("h3", text("Apollo")), el("p", text("Deploys"))))
    card.flags |= F_CURSOR_POINTER
    short = listening(el("div", text("Open gallery")))
    files = [el("li", text(name)) for name in ("data", "analysis.ipynb", "README.md")]
    listing = listening(el("div", el("div", text("Name")), el("ul", *files)))
    classified(card, short, listing)
    assert is_interactive(card) and is_interactive(short)
    assert all(is_interactive(f) for f in files)
