"""States (snapshot/states.py) on hand-built node trees: heading levels and the non-default
states the views show, from native state and ARIA attributes."""

from __future__ import annotations

from typing import Any

from tests.builders import doc, el, text

from browserx.snapshot.model import Node
from browserx.snapshot.states import heading_level, states_of


def placed(*nodes: Node) -> Node:
    """A #document > body holding ``nodes`` (states read ancestors up to the document)."""
    return doc(el("body", *nodes))


def states(tag: str, attrs: dict[str, str] | None = None, **state: Any) -> dict[str, object]:
    node = el(tag, attrs=attrs, state=state)
    placed(node)
    return states_of(node)


# ---------------------------------------------------------------------------- headings


def test_heading_level() -> None:
    assert heading_level(el("h3")) == 3
    assert heading_level(el("h2", attrs={"aria-level": "5"})) == 5
    assert heading_level(el("div", attrs={"role": "heading", "aria-level": "4"})) == 4
    assert heading_level(el("div", attrs={"role": "heading"})) == 2
    assert heading_level(el("div", attrs={"role": "heading", "aria-level": "zero"})) == 2
    assert heading_level(el("p")) is None


# ---------------------------------------------------------------------------- states


def test_states_default_to_empty() -> None:
    assert states("div") == {}
    assert states("input", {"type": "checkbox"}, checked=False) == {}
    assert states_of(text("x")) == {}


def test_checked_states() -> None:
    assert states("input", {"type": "checkbox"}, checked=True) == {"checked": True}
    assert states("input", {"type": "checkbox"}, checked="mixed") == {"checked": "mixed"}
    assert states("input", {"type": "radio"}, checked="mixed") == {}
    assert states("input", {"type": "checkbox", "checked": ""}) == {"checked": True}
    assert states("div", {"role": "switch", "aria-checked": "true"}) == {"checked": True}
    assert states("div", {"role": "checkbox", "aria-checked": "mixed"}) == {"checked": "mixed"}
    assert states("div", {"role": "radio", "aria-checked": "mixed"}) == {}
    # Chrome reads aria-checked only on roles that can be checked: a grid cell's is ignored.
    assert states("div", {"role": "gridcell", "aria-checked": "true"}) == {}
    assert states("div", {"role": "option", "aria-checked": "true"}) == {"checked": True}


def test_expanded_pressed_selected() -> None:
    assert states("button", {"aria-expanded": "false"}) == {"expanded": False}
    assert states("button", {"aria-expanded": "true"}) == {"expanded": True}
    assert states("button", {"aria-pressed": "false"}) == {"pressed": False}
    assert states("button", {"aria-pressed": "mixed"}) == {"pressed": "mixed"}
    assert states("option", selected=True) == {"selected": True}
    assert states("div", {"role": "tab", "aria-selected": "true"}) == {"selected": True}
    open_summary, closed_summary = el("summary"), el("summary")
    placed(el("details", open_summary, attrs={"open": ""}), el("details", closed_summary))
    assert states_of(open_summary) == {"expanded": True}
    assert states_of(closed_summary) == {"expanded": False}


def test_other_states() -> None:
    assert states("input", {"required": "", "readonly": ""}) == {"required": True, "readonly": True}
    assert states("div", {"role": "textbox", "aria-required": "true"}) == {"required": True}
    assert states("div", {"required": ""}) == {}  # not a form field
    assert states("input", {"aria-invalid": "true"}) == {"invalid": True}
    assert states("input", {"aria-invalid": "spelling"}) == {"invalid": "spelling"}
    assert states("input", {"aria-invalid": "false"}) == {}
    assert states("h4") == {"level": 4}
    assert states("div", {"role": "treeitem", "aria-level": "2"}) == {"level": 2}
    assert states("button", {"aria-haspopup": "true"}) == {"haspopup": "menu"}
    assert states("button", {"aria-haspopup": "listbox"}) == {"haspopup": "listbox"}
    assert states("a", {"href": "/", "aria-current": "page"}) == {"current": "page"}
    assert states("a", {"href": "/", "aria-current": "yes"}) == {"current": "true"}
    assert states("button", {"aria-disabled": "true"}) == {"disabled": True}
    assert states("button", disabled=True, focused=True) == {"disabled": True, "focused": True}
    assert states("th", {"aria-sort": "descending"}) == {"sort": "descending"}
    assert states("th", {"aria-sort": "none"}) == {}


def test_aria_disabled_on_an_ancestor_disables_what_is_inside_until_one_says_otherwise() -> None:
    """As Chrome: the nearest aria-disabled, on the node or an ancestor, decides (jQuery UI puts
    it on the tab's or menu item's ``<li>``)."""
    link = el("a", text("Payment"), attrs={"href": "#pay"})
    item = el("div", text("Invoices"), attrs={"role": "menuitem"})
    enabled = el("button", text("Undo"))
    placed(
        el("li", link, attrs={"role": "tab", "aria-disabled": "true"}),
        el("li", item, attrs={"aria-disabled": "true"}),
        el("div", el("div", enabled, attrs={"aria-disabled": "false"}), attrs={"aria-disabled": "true"}),
    )
    assert states_of(link) == {"disabled": True} and states_of(item) == {"disabled": True}
    assert states_of(enabled) == {}


def test_a_label_standing_in_for_a_hidden_toggle_has_the_toggles_states() -> None:
    toggle = el("input", attrs={"type": "checkbox"}, state={"checked": True}, visible=False)
    label = el("label", text("Dark mode"), state={"proxyOf": toggle})
    placed(toggle, label)
    assert states_of(label) == states_of(toggle) == {"checked": True}
