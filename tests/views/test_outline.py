"""The outline (views/outline.py) on built pages: a <label> around a control gives the control its
name, and that text is not printed again as a line of its own."""

from __future__ import annotations

from browserx.snapshot.model import Node
from browserx.views.text import render_text
from tests.builders import el, page, text


def checkbox(element_id: int, name: str) -> Node:
    return el("input", role="checkbox", name=name, attrs={"type": "checkbox"}, bx_id=element_id, inline=True)


def lines(*body: Node) -> list[str]:
    return render_text(page(*body)).splitlines()[2:]  # (after the title and viewport lines)


def test_a_label_around_a_checkbox_is_its_name_and_no_line_of_its_own() -> None:
    assert lines(
        el("label", checkbox(1, "Remember me"), text("Remember me"), inline=True),
        el("div", el("label", el("span", text("Send me offers"), inline=True), checkbox(2, "Send me offers"),
                     inline=True)),
    ) == ["[1] checkbox Remember me", "[2] checkbox Send me offers"]  # fmt: skip


def test_inline_labels_side_by_side_do_not_run_their_texts_together() -> None:
    # <label><input type=radio> Large</label> <label>Name <input></label>: it printed "Large Name".
    assert lines(
        el("p",
           el("label", el("input", role="radio", name="Large", bx_id=1, inline=True), text("Large"), inline=True),
           text(" "),
           el("label", text("Name"), el("input", role="textbox", name="Name", bx_id=2, inline=True), inline=True)),
    ) == ["[1] radio Large", "[2] textbox Name"]  # fmt: skip


def test_a_link_inside_the_label_keeps_its_line_and_text_around_the_label_stays() -> None:
    assert lines(
        el("p",
           el("label", checkbox(1, "I agree to the terms"), text("I agree to the"),
              el("a", text("terms"), role="link", name="terms", attrs={"href": "/terms"}, bx_id=2, inline=True),
              inline=True),
           text("(read them first)")),
    ) == ["[1] checkbox I agree to the terms", "[2] terms → /terms", "(read them first)"]  # fmt: skip


def test_label_text_the_control_is_not_named_by_stays() -> None:
    # aria-label names the box; the label's own words are something else and are kept.
    assert lines(el("label", checkbox(1, "Opt in"), text("Weekly digest"), inline=True)) == [
        "[1] checkbox Opt in",
        "Weekly digest",
    ]
