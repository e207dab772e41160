"""The ``full`` mode of the ``html`` view (views/html_full.py): attributes filtered, text escaped,
what is not seen left out, frames and shadow roots, templatized runs of alike siblings, empty
elements dropped and names said where the page shows none."""

from __future__ import annotations

import re

from browserx.views.html import render_html
from tests.builders import el, page, parsed_html, recorded_snapshot, text


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
    parsed_html(html)
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
