"""A control a person sees under a sticky header or a fixed footer is scrolled clear before any
input, as a person (or Playwright) would; what truly covers it (a modal's backdrop, which no scroll
clears) still fails the action as ``occluded``. Judged by the page's own state, on real Chromium."""

from __future__ import annotations

import pytest

from browserx import Client
from browserx.errors import Occluded
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import js, open_page


def checkbox_id(bx: Client, tab: int, name: str) -> int:
    view = bx.snapshot(tab=tab, format="semantic")["semantic"]
    return int(next(e["i"] for e in view["interactive_tree"] if e.get("n") == name))


def covered_at(browser: Browser, element: str) -> str:
    """What the page hits at the checkbox's center: the bar a person sees over it."""
    return str(
        js(
            browser,
            f"""(() => {{
        const r = document.getElementById('{element}').getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit ? hit.localName : '';
    }})()""",
        )
    )


@pytest.mark.parametrize(
    "name,element,y,bar",
    [("Publish on save", "under-footer", -50, "footer"), ("Allow comments", "under-header", 20, "header")],
)
@pytest.mark.parametrize("tool", ["check", "click"])
def test_a_control_under_a_pinned_bar_is_scrolled_clear_and_acted_on(
    browser: Browser, bx: Client, servers: Servers, name: str, element: str, y: int, bar: str, tool: str
) -> None:
    tab = open_page(browser, bx, servers.url("act-pinned-bars.html"))
    target = checkbox_id(bx, tab, name)
    js(browser, f"place('{element}', {y})")
    assert covered_at(browser, element) in (bar, "button", "a")  # the bar, or a control on it
    result = bx.call(tool, tab=tab, id=target)
    assert result["success"], result
    assert js(browser, f"document.getElementById('{element}').checked") is True
    assert js(browser, "window.saved || 0") == 0  # the bar's own button was never pressed
    assert covered_at(browser, element) == "input"  # in the clear now


def test_a_modal_backdrop_still_occludes_whatever_the_scroll(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("act-pinned-bars.html"))
    target = checkbox_id(bx, tab, "Publish on save")
    js(browser, "place('under-footer', 300)")
    js(browser, "document.body.classList.add('modal')")
    assert covered_at(browser, "under-footer") == "div"  # the backdrop
    with pytest.raises(Occluded):
        bx.call("check", tab=tab, id=target)
    assert js(browser, "document.getElementById('under-footer').checked") is False
