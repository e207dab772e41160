"""The ``skeleton`` mode of the ``html`` view (views/html_skeleton.py): only controls, with the
attributes that name or place them, and only the context that holds them."""

from __future__ import annotations

from browserx.views.html import render_html
from tests.builders import HTML_STATE_ATTRS, el, page, parsed_html, recorded_snapshot, text

STATE_ATTRS_ALL = {a for names in HTML_STATE_ATTRS.values() for a in names}


def test_skeleton_of_a_form_is_small_and_keeps_only_the_seed_attributes() -> None:
    snap = recorded_snapshot("snap-controls")
    view = render_html(snap, "skeleton")
    assert len(view.html) < 2000 < len(render_html(snap, "full").html)
    found = parsed_html(view.html)
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
