"""What both modes of the ``html`` view share (views/html_common.py): the states of the text view
as attributes (native, else ``aria-*``; said once), the page's own ``id`` whole or not at all,
and privacy (password values never, form values only when asked and masked, opted-out content left
out)."""

from __future__ import annotations

import pytest

from browserx.views.html import render_html
from browserx.views.html_common import (
    MAX_ATTR,
    MAX_OPTIONS,
    FrameLabels,
    attr,
    id_attr,
    select_options,
    url_ok,
)
from browserx.views.outline import control_facts
from browserx.views.text import render_text
from tests.builders import (
    HTML_STATE_ATTRS,
    SNAP_RECORDINGS,
    doc,
    el,
    page,
    parsed_html,
    recorded_snapshot,
    text,
)


def test_skeleton_says_the_states_of_the_text_view_natively_or_with_aria() -> None:
    snap = page(
        el("button", text("Unsubscribe"), attrs={"type": "button", "disabled": ""}, state={"disabled": True},
           role="button", name="Unsubscribe", bx_id=17),
        el("fieldset", el("button", text("Inherited"), state={"disabled": True}, role="button", name="Inherited",
                          bx_id=1), attrs={"disabled": ""}),
        el("a", text("Next"), attrs={"href": "/n", "aria-disabled": "true"}, role="link", name="Next", bx_id=2),
        el("input", attrs={"type": "checkbox"}, state={"inputType": "checkbox", "checked": True}, role="checkbox",
           name="Terms", bx_id=3),
        el("input", attrs={"type": "checkbox"}, state={"inputType": "checkbox", "checked": "mixed"}, role="checkbox",
           name="All", bx_id=4),
        el("div", text("Dark mode"), attrs={"role": "switch", "aria-checked": "true"}, role="switch",
           name="Dark mode", bx_id=5),
        el("button", text("Menu"), attrs={"aria-expanded": "false"}, role="button", name="Menu", bx_id=6),
        el("button", text("Bold"), attrs={"aria-pressed": "true"}, role="button", name="Bold", bx_id=7),
        el("input", attrs={"type": "email", "required": "", "aria-invalid": "true"}, state={"inputType": "email"},
           role="textbox", name="Email", bx_id=8),
        el("input", attrs={"readonly": ""}, state={"inputType": "text"}, role="textbox", name="Code", bx_id=9),
        el("div", attrs={"role": "textbox", "aria-required": "true", "contenteditable": "true"}, role="textbox",
           name="Bio", bx_id=10),
        el("div", el("button", text("Tab 1"), attrs={"role": "tab", "aria-selected": "true"}, role="tab",
                     name="Tab 1", bx_id=11), attrs={"role": "tablist"}, role="tablist"),
    )  # fmt: skip
    html = render_html(snap, "skeleton").html
    for expected in (
        '<button data-id="17" type="button" disabled>Unsubscribe</button>',
        '<button data-id="1" disabled>Inherited</button>',
        '<a data-id="2" href="/n" aria-disabled="true">Next</a>',
        '<input data-id="3" type="checkbox" checked aria-label="Terms">',
        '<input data-id="4" type="checkbox" aria-checked="mixed" aria-label="All">',
        '<div data-id="5" role="switch" aria-checked="true">Dark mode</div>',
        '<button data-id="6" aria-expanded="false">Menu</button>',
        '<button data-id="7" aria-pressed="true">Bold</button>',
        '<input data-id="8" type="email" required aria-invalid="true" aria-label="Email">',
        '<input data-id="9" readonly aria-label="Code">',
        '<div data-id="10" role="textbox" aria-required="true">Bio</div>',
        '<button data-id="11" role="tab" aria-selected="true">Tab 1</button>',
    ):
        assert expected in html, (expected, html)
    # The text view says the same states.
    text_view = render_text(snap)
    for line in ("[17] button Unsubscribe (disabled)", "[1] button Inherited (disabled)", "(checked)",
                 "(checked=mixed)", "(collapsed)", "(pressed)", "(required, invalid", "(readonly)",
                 "(selected)"):  # fmt: skip
        assert line in text_view, (line, text_view)
    # Full mode writes the page's own attributes, and a state once.
    full = render_html(snap, "full").html
    assert '<button data-id="17" type="button" disabled>Unsubscribe</button>' in full
    assert full.count("aria-expanded") == full.count("aria-pressed") == full.count("aria-invalid") == 1
    assert '<fieldset disabled>\n<button data-id="1" disabled>Inherited</button></fieldset>' in full


@pytest.mark.parametrize("name", SNAP_RECORDINGS)
@pytest.mark.parametrize("mode", ["skeleton", "full"])
def test_every_state_of_the_text_view_is_in_the_html(name: str, mode: str) -> None:
    snap = recorded_snapshot(name)
    found = parsed_html(render_html(snap, mode).html)
    by_id = {
        int(str(attrs["data-id"])): attrs for _, attrs in found.attrs if attrs.get("data-id") is not None
    }
    for element_id, node in snap.by_id.items():
        if element_id not in by_id:
            continue  # left in a templatized run (full mode)
        facts = control_facts(node, snap)
        for state, names in HTML_STATE_ATTRS.items():
            if facts.get(state) not in (None, False) or (state in ("expanded", "pressed") and state in facts):
                assert set(names) & set(by_id[element_id]), (element_id, state, by_id[element_id])


def test_the_pages_own_id_is_kept_whole_or_left_out() -> None:
    long_id = "x" * 101
    snap = page(
        el("form", el("button", text("Save"), attrs={"id": "save-btn", "type": "submit"}, role="button",
                      name="Save", bx_id=1),
           el("button", text("Other"), attrs={"id": long_id}, role="button", name="Other", bx_id=2),
           attrs={"id": "profile"}, role="form", name="Profile"),
    )  # fmt: skip
    skeleton = render_html(snap, "skeleton").html
    assert '<button data-id="1" id="save-btn" type="submit">Save</button>' in skeleton
    assert '<button data-id="2">Other</button>' in skeleton  # never cut: a cut id selects nothing
    assert 'id="profile"' not in skeleton  # wrappers stay bare
    full = render_html(snap, "full").html
    assert 'id="profile"' in full and 'id="save-btn"' in full
    assert "xxxx" not in full


# -- privacy -------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["skeleton", "full"])
@pytest.mark.parametrize("values", [False, True])
def test_password_values_never_and_form_values_only_when_asked(mode: str, values: bool) -> None:
    snap = recorded_snapshot("snap-values", include_values=values)  # its HTML writes value="…" attributes
    html = render_html(snap, mode).html
    assert "hunter2" not in html and "Sup3rSecret" not in html
    assert "Jane Q Public" not in html and "4111" not in html and "123-45" not in html


@pytest.mark.parametrize("mode", ["skeleton", "full"])
def test_live_values_with_include_values_masked_as_the_other_views_mask_them(mode: str) -> None:
    def form(values: bool):  # type: ignore[no-untyped-def]
        return page(
            el("input", attrs={"type": "text", "value": "typed in html"}, state={"inputType": "text", "value": "4111 1111 1111 1111"},
               role="textbox", name="Card", bx_id=1),
            el("input", attrs={"type": "password", "value": "s3cret-attr"}, state={"inputType": "password", "hasValue": True},
               role="textbox", name="Password", bx_id=2),
            el("textarea", state={"value": "SSN 123-45-6789"}, role="textbox", name="Note", bx_id=3),
            el("select", state={"options": [["Red", False], ["Blue", True]], "value": "Blue"}, role="combobox",
               name="Colour", bx_id=4),
            include_values=values,
        )  # fmt: skip

    shown = render_html(form(True), mode).html
    assert 'value="[card number]"' in shown and 'value="••••"' in shown and "SSN [ssn]</textarea>" in shown
    assert "<option selected>Blue</option>" in shown
    hidden = render_html(form(False), mode).html
    assert "value=" not in hidden and "SSN" not in hidden and "selected" not in hidden
    for html in (shown, hidden):
        assert "s3cret" not in html and "typed in html" not in html and "4111" not in html


@pytest.mark.parametrize("mode", ["skeleton", "full"])
def test_content_of_an_opted_out_frame_or_element_is_left_out(mode: str) -> None:
    secret_frame = doc(
        el("body", el("p", text("Private frame text")),
           el("button", text("Transfer"), role="button", name="Transfer", bx_id=2), attrs={"data-no-ai": ""}),
        attrs={"url": "http://other.example/", "frame": "f1"}, frame="f1",
    )  # fmt: skip
    snap = page(
        el("button", text("Public"), role="button", name="Public", bx_id=1),
        el("iframe", secret_frame, attrs={"src": "http://other.example/"}),
        el("section", el("p", text("Private section")), attrs={"data-no-ai": ""}),
    )
    view = render_html(snap, mode)
    assert "Public" in view.html
    assert "Private" not in view.html and "Transfer" not in view.html and 'data-id="2"' not in view.html
    if mode == "full":
        assert view.html.count("opted out of AI agents") == 2


# -- the pieces ----------------------------------------------------------------------------------


def test_an_attribute_is_collapsed_escaped_and_cut() -> None:
    assert attr("title", '  say\n "hi" <b>  ') == ' title="say &quot;hi&quot; &lt;b&gt;"'
    long = attr("href", "/" + "x" * 500)
    assert long == ' href="/' + "x" * (MAX_ATTR - 2) + '…"'
    assert id_attr("save-btn") == ' id="save-btn"'
    assert id_attr("x" * MAX_ATTR) == f' id="{"x" * MAX_ATTR}"'
    for unusable in ("", "x" * (MAX_ATTR + 1), "two words"):  # whole or not at all
        assert id_attr(unusable) == ""
    assert not url_ok("  DATA:image/png;base64,AAAA") and url_ok("/data:x") and url_ok("https://a.example/")


def test_a_selects_options_are_listed_up_to_the_limit() -> None:
    many = [[f"Option {n}", n == 1] for n in range(MAX_OPTIONS + 3)]
    select = el(
        "select", state={"options": many, "optionCount": len(many)}, role="combobox", name="Pick", bx_id=1
    )
    html = select_options(select, page(select))  # values not asked for: the selection is not said
    assert html.count("<option>") == MAX_OPTIONS and "selected" not in html
    assert html.endswith("<!-- 3 more options -->")
    multiple = el("select", attrs={"multiple": ""}, state={"options": [["A", True], ["B & C", False]]})
    assert select_options(multiple, page(multiple)) == "<option selected>A</option><option>B &amp; C</option>"


def test_frame_labels() -> None:
    labels = FrameLabels()
    own = doc(attrs={"frame": "f1"}, frame="f1")
    assert labels.label(own) == "f1"  # an out-of-process frame: the snapshot's label
    same_process = [doc(frame="m"), doc(frame="m"), doc(frame="f1")]
    assert [labels.label(d) for d in same_process] == ["m.1", "m.2", "f1.1"]
