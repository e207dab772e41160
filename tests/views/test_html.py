"""The ``html`` view (views/html.py): skeleton and full HTML of a snapshot, the IDs of the text
view, privacy (passwords, form values, opted-out frames), what is left out, templatized runs and
the size limit."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from browserx.views.html import MAX_MAX_CHARS, VOID, render_html
from browserx.views.outline import control_facts
from browserx.views.text import parse_controls, render_text
from tests.builders import doc, el, page, recorded_snapshot, text

RECORDED = [
    "snap-controls",
    "snap-values",
    "snap-frames",
    "snap-shadow",
    "snap-js",
    "snap-hidden",
    "snap-layout",
]


class _Balance(HTMLParser):
    """Start and end tags of the HTML, checked to nest; the data-id values in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.ids: list[int] = []
        self.attrs: list[tuple[str, dict[str, str | None]]] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.attrs.append((tag, found))
        if found.get("data-id") is not None:
            self.ids.append(int(str(found["data-id"])))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack}"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text += data


def parsed(html: str) -> _Balance:
    checker = _Balance()
    checker.feed(html)
    checker.close()
    assert checker.stack == [], f"left open: {checker.stack}"
    return checker


# -- IDs -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", RECORDED)
@pytest.mark.parametrize("mode", ["skeleton", "full"])
def test_every_id_of_the_text_view_once_and_nothing_else(name: str, mode: str) -> None:
    snap = recorded_snapshot(name)
    view = render_html(snap, mode)
    found = parsed(view.html)
    text_ids = set(parse_controls(render_text(snap)))
    assert len(set(found.ids)) == len(found.ids) == view.elements
    if mode == "skeleton":
        assert set(found.ids) == text_ids, view.html
    else:  # what a templatized run leaves out is counted in its comment
        assert set(found.ids) <= text_ids
        held = sum(int(n) for n in re.findall(r"holding (\d+) elements with IDs", view.html))
        assert len(found.ids) + held == len(text_ids), view.html
    assert not view.truncated and view.note is None


def test_skeleton_of_a_form_is_small_and_keeps_only_the_seed_attributes() -> None:
    snap = recorded_snapshot("snap-controls")
    view = render_html(snap, "skeleton")
    assert len(view.html) < 2000 < len(render_html(snap, "full").html)
    found = parsed(view.html)
    allowed = {"data-id", "id", "name", "type", "href", "value", "placeholder", "role", "aria-label", "data-testid",
               "data-frame", "title", *STATE_ATTRS_ALL}  # fmt: skip
    for tag, attrs in found.attrs:
        assert set(attrs) <= allowed, (tag, attrs)
    assert "<form>" in view.html and "<h1>Controls fixture</h1>" in view.html
    assert '<a data-id="23" href="/terms.html">Terms of service</a>' in view.html
    assert "<option>France</option>" in view.html
    # A control that holds no text says its name; a button input its label (its value).
    assert 'aria-label="Full name"' in view.html and 'value="Place order">' in view.html
    assert "Every kind of native" not in view.html  # page text outside controls is not there
    # The page's own ids (for selectors), and the states the text view shows.
    assert '<input data-id="1" id="fullname" type="text" aria-label="Full name">' in view.html
    assert '<button data-id="22" type="button" disabled>Delete account</button>' in view.html
    assert '<summary data-id="24" aria-expanded="false">Shipping details</summary>' in view.html


# The states the text view shows, as the html view writes them: native attribute, else aria-*.
STATE_ATTRS = {
    "disabled": ("disabled", "aria-disabled"),
    "checked": ("checked", "aria-checked"),
    "selected": ("selected", "aria-selected"),
    "expanded": ("aria-expanded",),
    "pressed": ("aria-pressed",),
    "required": ("required", "aria-required"),
    "readonly": ("readonly", "aria-readonly"),
    "invalid": ("aria-invalid",),
    "sort": ("aria-sort",),
}
STATE_ATTRS_ALL = {a for names in STATE_ATTRS.values() for a in names}


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


@pytest.mark.parametrize("name", RECORDED)
@pytest.mark.parametrize("mode", ["skeleton", "full"])
def test_every_state_of_the_text_view_is_in_the_html(name: str, mode: str) -> None:
    snap = recorded_snapshot(name)
    found = parsed(render_html(snap, mode).html)
    by_id = {
        int(str(attrs["data-id"])): attrs for _, attrs in found.attrs if attrs.get("data-id") is not None
    }
    for element_id, node in snap.by_id.items():
        if element_id not in by_id:
            continue  # left in a templatized run (full mode)
        facts = control_facts(node, snap)
        for state, names in STATE_ATTRS.items():
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


def test_skeleton_keeps_landmarks_and_headings_only_where_they_hold_controls() -> None:
    snap = page(
        el("h2", text("Nothing to do here"), role="heading", name="Nothing to do here"),
        el("p", text("Prose")),
        el("h2", text("Account"), role="heading", name="Account"),
        el("nav", el("a", text("Home"), attrs={"href": "/", "class": "x"}, role="link", name="Home", bx_id=1),
           role="navigation", name="Main"),
        el("aside", el("p", text("Ads")), role="complementary"),
        el("div", el("div", el("button", text("Go"), role="button", name="Go", bx_id=2, attrs={"style": "x"}))),
    )  # fmt: skip
    html = render_html(snap, "skeleton").html
    assert html == (
        "<h2>Account</h2>\n"
        '<nav aria-label="Main">\n<a data-id="1" href="/">Home</a>\n</nav>\n'
        '<button data-id="2">Go</button>'
    )


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


# -- full ----------------------------------------------------------------------------------------


def test_full_html_filters_attributes_escapes_and_leaves_out_what_is_not_seen() -> None:
    snap = page(
        el("script", text("steal()")),
        el("style", text("body{}")),
        el("p", text("Hidden words", visible=False), visible=False),
        el("div", el("p", text("Seen inside a hidden wrapper")), visible=False),
        el("p", text('Tom & "Jerry" <3')),
        el("img", attrs={"src": "data:image/png;base64," + "A" * 5000, "alt": "Logo", "class": "big"}, role="img",
           name="Logo"),
        el("a", text("Long"), attrs={"href": "/" + "x" * 500, "title": 'say "hi"', "onclick": "1", "data-foo": "bar",
                                     "data-testid": "long-link"}, role="link", name="Long", bx_id=1),
        el("svg", el("path", attrs={"d": "M0 0L10 10"}), el("text", text("chart label")), role="img", name="Chart",
           bx_id=2),
        el("div", text("Star"), tier=2, bx_id=3),
    )  # fmt: skip
    view = render_html(snap, "full")
    html = view.html
    parsed(html)
    for gone in (
        "steal",
        "body{}",
        "Hidden words",
        "data:",
        "AAAA",
        "big",
        "onclick",
        "data-foo",
        "<path",
        "chart label",
    ):
        assert gone not in html, gone
    assert "Seen inside a hidden wrapper" in html
    assert "Tom &amp; &quot;Jerry&quot; &lt;3" in html or 'Tom &amp; "Jerry" &lt;3' in html
    assert 'title="say &quot;hi&quot;"' in html and 'data-testid="long-link"' in html
    href = re.search(r'href="([^"]*)"', html)
    assert href is not None and len(href.group(1)) <= 100 and href.group(1).endswith("…")
    assert '<svg data-id="2" aria-label="Chart"></svg>' in html
    assert '<div data-id="3" data-interactive="yes">Star</div>' in html
    assert view.elements == 3


def test_full_html_of_frames_and_shadow_roots() -> None:
    frames = render_html(recorded_snapshot("snap-frames"), "full").html
    assert '<body data-frame="m.1">' in frames and '<body data-frame="f1">' in frames
    assert '<body data-frame="f2">' in frames
    inner = frames.index('data-frame="f2"')
    assert frames.rfind("<iframe", 0, inner) > frames.index('data-frame="f1"')  # nested in f1's document
    shadow = render_html(recorded_snapshot("snap-shadow"), "full").html
    assert "Closed shadow button" in shadow and "Slotted into closed root" in shadow
    assert "shadow-root" not in shadow


def test_runs_of_alike_siblings_are_templatized_and_short_ones_kept() -> None:
    def item(n: int):  # type: ignore[no-untyped-def]
        return el("li", el("a", text(f"Product {n}"), attrs={"href": f"/p/{n}"}, role="link", name=f"Product {n}",
                              bx_id=100 + n), role="listitem")  # fmt: skip

    snap = page(
        el("ul", *(item(n) for n in range(40)), role="list"),
        el("ol", *(el("li", text(f"Step {n}")) for n in range(5)), role="list"),
    )
    view = render_html(snap, "full")
    assert "Product 2" in view.html and "Product 3" not in view.html
    assert (
        "<!-- 37 more <li> like the above (holding 37 elements with IDs: mode skeleton lists them) -->"
        in view.html
    )
    assert all(f"Step {n}" in view.html for n in range(5))
    assert view.elements == 3
    skeleton = render_html(snap, "skeleton")
    assert skeleton.elements == 40  # the skeleton lists every one


# -- size limit ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["skeleton", "full"])
def test_a_cut_view_stays_within_max_chars_and_ends_with_every_tag_closed(mode: str) -> None:
    snap = recorded_snapshot("snap-controls")
    whole = render_html(snap, mode)
    for limit in (100, 137, 250, 600, 1000, len(whole.html) - 1):
        view = render_html(snap, mode, limit)
        assert len(view.html) <= limit and view.truncated, limit
        assert view.note is not None and str(limit) in view.note
        found = parsed(view.html)
        assert len(found.ids) == view.elements < len(snap.by_id)
    assert render_html(snap, mode, len(whole.html)).html == whole.html


def test_max_chars_is_capped_and_a_bad_mode_is_an_error() -> None:
    # 300,000 characters of text; a word between the paragraphs keeps them from being templatized.
    snap = page(*(node for _ in range(1000) for node in (el("p", text("x" * 300)), text("and"))))
    view = render_html(snap, "full", 10**9)
    assert len(view.html) <= MAX_MAX_CHARS and view.truncated
    with pytest.raises(ValueError, match="mode"):
        render_html(snap, "pretty")


def test_full_html_drops_empty_elements_and_names_what_shows_no_name() -> None:
    snap = page(
        el("div", el("span", el("span")), el("p", text("Kept"))),
        el(
            "button",
            el("span", text("Previous slide", visible=False)),
            role="button",
            name="Previous slide",
            bx_id=1,
        ),
        el("button", el("span", text("Next"), inline=True), role="button", name="Next", bx_id=2),
        el("div", attrs={"id": "spacer"}),
    )
    html = render_html(snap, "full").html
    assert "<span" not in html.replace("<span>Next</span>", "")
    assert '<button data-id="1" aria-label="Previous slide"></button>' in html
    assert '<button data-id="2"><span>Next</span></button>' in html
    assert '<div id="spacer"></div>' in html and "<p>Kept</p>" in html
