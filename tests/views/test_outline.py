"""The outline (views/outline.py) on built pages: a <label> around a control gives the control its
name, and that text is not printed again as a line of its own; what is kept, hoisted and dropped;
the facts a control's line shows (placeholder, a slider's value, options, what covers it), and
links as a person reads them, never with a secret of their URL."""

from __future__ import annotations

from dataclasses import replace

from browserx.snapshot.model import F_HOVER_REVEALS, Node
from browserx.snapshot.snapshot import Cover
from browserx.views.outline import MAX_TEXT_LINE, control_facts, outline, short_href
from browserx.views.text import render_text
from tests.builders import doc, el, page, text


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


# -- kept, hoisted, dropped ------------------------------------------------------------------------------


def test_wrappers_are_hoisted_and_what_a_person_cannot_see_is_dropped() -> None:
    assert lines(
        el("div", el("div", el("h2", text("Account"), role="heading", name="Account"))),
        el("div", text("Visible note")),
        el("div", text("Hidden note", visible=False), visible=False),
        el("div", el("p", text("Shown inside a hidden wrapper")), visible=False),
        el("button", text("Ghost", visible=False), role="button", name="Ghost", bx_id=9, visible=False),
        el("img", role="img", name="Company logo"),
        el("img", role="img"),  # decorative: no name, no line
    ) == ["## Account", "Visible note", "Shown inside a hidden wrapper", "img Company logo"]


def test_a_heading_keeps_the_controls_inside_it() -> None:
    snap = page(el("h3", el("button", text("Shipping"), role="button", name="Shipping", bx_id=1), role="heading",
                   name="Shipping"))  # fmt: skip
    (heading,) = outline(snap)
    assert heading.kind == "heading" and [c.kind for c in heading.children] == ["control"]
    assert "[1]" in render_text(snap)
    unnamed = page(el("h4", text("Only"), text("text"), role="heading"))
    assert outline(unnamed)[0].text == "Only text"  # no name: the text it shows


def test_a_frame_is_kept_with_what_it_shows_and_dropped_when_empty() -> None:
    inner = el(
        "iframe", doc(el("body", el("button", text("Pay"), role="button", name="Pay", bx_id=1)), frame="f")
    )
    empty = el("iframe", doc(el("body", el("div")), frame="g"))
    items = outline(page(el("p", text("Before")), inner, empty))
    assert [i.kind for i in items] == ["text", "frame"]
    assert [c.kind for c in items[1].children] == ["control"]


def test_groups_rows_and_landmarks() -> None:
    items = outline(page(
        el("nav", el("a", text("Home"), role="link", name="Home", attrs={"href": "/"}, bx_id=1), role="navigation",
           name="Main"),
        el("nav", el("p", text("Unnamed landmark text")), role="navigation"),  # no name: hoisted
        el("ul", el("li", text("First"), role="listitem"), role="list"),
        el("table", el("tr", role="row"), role="table"),  # an empty row is still a row
        el("details", el("p", text("More")), role="group"),
        el("dialog", role="dialog"),  # an empty group is dropped
    ))  # fmt: skip
    assert [i.kind for i in items] == ["group", "text", "item", "group", "group"]
    assert [c.kind for c in items[3].children] == ["row"]


def test_a_long_text_run_is_cut_and_a_legend_echoing_its_group_is_dropped() -> None:
    items = outline(page(el("p", text("word " * 100))))
    assert len(items[0].text) == MAX_TEXT_LINE and items[0].text.endswith("…")
    assert lines(
        el("fieldset", el("legend", text("Delivery")), el("input", role="radio", name="Home", bx_id=1, inline=True),
           role="group", name="Delivery"),
    ) == ["group Delivery", " [1] radio Home"]  # fmt: skip
    # Text right after the control it names is not printed either.
    assert lines(el("div", el("input", role="textbox", name="Email", bx_id=1), el("span", text("Email:"))),
                 ) == ["[1] textbox Email"]  # fmt: skip


# -- a control's facts ------------------------------------------------------------------------------------


def facts(node: Node, **snap_changes: object) -> dict[str, object]:
    snap = page(node)
    if snap_changes:
        snap = replace(snap, **snap_changes)  # type: ignore[arg-type]
    return control_facts(node, snap)


def test_a_placeholder_is_shown_when_the_label_does_not_say_it() -> None:
    date = el("input", role="textbox", name="Birthday", attrs={"placeholder": "YYYY-MM-DD"}, bx_id=1)
    assert facts(date)["placeholder"] == "YYYY-MM-DD"
    same = el("input", role="textbox", name="Search", attrs={"placeholder": "Search"}, bx_id=1)
    assert "placeholder" not in facts(same)
    # A field standing in for another input shows that input's hint.
    source = el("input", attrs={"aria-placeholder": "Pick a city"})
    proxy = el("div", role="combobox", name="City", state={"proxyOf": source}, bx_id=1)
    assert facts(proxy)["placeholder"] == "Pick a city"


def test_a_slider_always_shows_its_value() -> None:
    said = el(
        "div", role="slider", name="Volume", attrs={"aria-valuetext": "loud", "aria-valuenow": "8"}, bx_id=1
    )
    assert facts(said)["value"] == "loud"
    now = el("div", role="slider", name="Volume", attrs={"aria-valuenow": "8"}, bx_id=1)
    assert facts(now)["value"] == "8"
    native = el("input", role="slider", name="Volume", state={"valueNow": 30}, bx_id=1)
    assert facts(native)["value"] == "30"
    thumb = el("div", role="slider", name="Volume", state={"proxyOf": el("input", attrs={"aria-valuenow": "4"})},
               bx_id=1)  # fmt: skip
    assert facts(thumb)["value"] == "4"
    unknown = el("div", role="slider", name="Volume", bx_id=1)
    assert "value" not in facts(unknown)


def test_options_are_listed_up_to_twelve_with_the_chosen_ones_of_a_multiple_select() -> None:
    options = [(f"Option {i}", i in (2, 14)) for i in range(20)]
    select = el(
        "select", role="listbox", name="Pick", attrs={"multiple": ""}, state={"options": options}, bx_id=1
    )
    select.state.pop("listbox", None)
    got = facts(select)
    assert got["options"] == [f"Option {i}" for i in range(12)]
    assert got["chosen"] == ["Option 2", "Option 14"] and got["options_total"] == 20
    few = el("select", role="combobox", name="Size", state={"options": [("S", False), ("M", True)]}, bx_id=1)
    assert (
        facts(few)["options"] == ["S", "M"]
        and "options_total" not in facts(few)
        and "chosen" not in facts(few)
    )
    counted = el("select", role="combobox", name="Year", state={"options": [("2020", False)], "optionCount": 80},
                 bx_id=1)  # fmt: skip
    assert facts(counted)["options_total"] == 80


def test_hover_reveal_and_what_covers_a_control() -> None:
    revealed = el("button", text("Edit"), role="button", name="Edit", bx_id=1)
    row = el("div", revealed)
    row.flags |= F_HOVER_REVEALS
    snap = page(row)
    assert control_facts(revealed, snap)["on_hover"] is True

    def cover(what: str, description: str) -> object:
        """What the Buy button's facts say covers it, when ``what`` of the page does."""
        button = el("button", text("Buy"), role="button", name="Buy", bx_id=1)
        close = el("button", text("Close"), role="button", name="Close", bx_id=2)
        promo = el("p", text("Subscribe!"))
        dialog = el("div", promo, close, role="dialog", name="Newsletter")
        snap = page(button, dialog)
        by = {"promo": promo, "close": close, "nothing": None}[what]
        return control_facts(button, replace(snap, covered={button.index: Cover(by, description)}))["covered"]

    assert cover("promo", "p.promo") == {"by": 'dialog "Newsletter"'}  # the dialog the text is in
    assert cover("nothing", "div#overlay") == {"by": "div#overlay"}  # not a node of the page
    assert cover("close", "button.close") == {"by": 'button "Close" [2]'}


def test_a_heading_with_an_id_says_its_level() -> None:
    assert facts(el("h3", text("Section"), role="heading", name="Section", bx_id=1))["level"] == 3
    deep = el("div", role="heading", name="Deep", attrs={"role": "heading", "aria-level": "5"}, bx_id=1)
    assert facts(deep)["level"] == 5


# -- links --------------------------------------------------------------------------------------------------


def test_links_read_as_a_person_reads_them_and_never_carry_secrets() -> None:
    here = "https://test.example/page"
    assert short_href("https://test.example/a/b?x=1#top", here) == "/a/b?x=1#top"
    assert short_href("https://test.example", here) == "/"
    assert short_href("https://other.example/docs", here) == "https://other.example/docs"
    assert short_href("#section-two", here) == "#section-two"
    assert short_href("javascript:" + "x" * 60, here) == "javascript:" + "x" * 29
    long = short_href("https://test.example/" + "p" * 100, here)
    assert len(long) == 80 and long.endswith("…")
    secret = short_href("https://other.example/reset?token=abcd1234efgh&lang=en", here)
    assert "abcd1234efgh" not in secret and "lang=en" in secret
    assert "hunter2" not in short_href("https://ada:hunter2@other.example/", here)
    link = el("a", text("Reset"), role="link", name="Reset", attrs={"href": "https://x.example/r?session=s3cr3t"},
              bx_id=1)  # fmt: skip
    assert "s3cr3t" not in render_text(page(link))
