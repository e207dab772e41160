"""``type`` with ``per_char`` paced by ``delay_ms``, and ``blur``: the field is left afterwards
(its change and blur events fire); plain text goes in with the call that focuses the field, held
by the extension until that call says the field took the focus, and never into a field that took
the focus from it, on real Chromium."""

from __future__ import annotations

import itertools

import pytest

from browserx import Client
from browserx.errors import NotInteractable
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import js, open_page


def field_id(bx: Client, tab: int, name: str = "Code") -> int:
    view = bx.snapshot(tab=tab, format="semantic")["semantic"]
    return int(next(e["i"] for e in view["interactive_tree"] if e.get("n") == name))


def test_per_char_typing_waits_delay_ms_between_characters(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("type-options.html"))
    result = bx.call("type", tab=tab, id=field_id(bx, tab), text="abcd", per_char=True, delay_ms=120)
    assert result["success"] and result["changes"]["value_changed"]
    assert js(browser, "document.getElementById('code').value") == "abcd"
    keys = js(browser, "keys")
    assert len(keys) == 4
    gaps = [b - a for a, b in itertools.pairwise(keys)]
    assert min(gaps) >= 100, gaps  # (a little under 120: the page's clock and the host's sleep differ)
    assert js(browser, "events") == []  # still in the field: no blur, no change yet
    assert result["changes"]["focused"] is True


def test_blur_leaves_the_field(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("type-options.html"))
    result = bx.call("type", tab=tab, id=field_id(bx, tab), text="42", blur=True)
    assert result["success"]
    assert js(browser, "document.getElementById('code').value") == "42"
    assert js(browser, "events") == ["change", "blur"]
    assert js(browser, "document.activeElement === document.getElementById('code')") is False
    assert result["changes"]["focused"] is False  # the result says the field was left


def test_text_goes_in_with_the_focus_call_and_never_into_a_field_that_took_the_focus(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("type-options.html"))
    result = bx.call("type", tab=tab, id=field_id(bx, tab), text="42")
    assert result["success"] and js(browser, "document.getElementById('code').value") == "42"
    assert result["round_trips"] == 1  # the text and its read-back rode with the lookup
    # The page hands the focus on to "Decoy" whenever "Note" gets it (DOM.focus, then a click).
    with pytest.raises(NotInteractable, match="does not keep the focus"):
        bx.call("type", tab=tab, id=field_id(bx, tab, "Note"), text="secret")
    assert js(browser, "[document.getElementById('note').value, document.getElementById('decoy').value]") == [
        "",
        "",
    ]


@pytest.mark.parametrize("name,element", [("Handle", "a"), ("Tags", "b"), ("Plain", "c"), ("Shouting", "d"),
                                          ("Search", "e")])  # fmt: skip
def test_an_input_is_typed_into_by_the_state_the_browser_gives_it(
    browser: Browser, bx: Client, servers: Servers, name: str, element: str
) -> None:
    """An unknown or missing ``type`` (and one the browser reads as another: case, spaces) is the
    Text state: typed into as Playwright's fill does; judged by the field's value in the page."""
    tab = open_page(browser, bx, servers.url("input-states.html"))
    state = js(browser, f"document.getElementById('{element}').type")
    result = bx.call("type", tab=tab, id=field_id(bx, tab, name), text="hello")
    assert result["success"], result
    assert js(browser, f"document.getElementById('{element}').value") == "hello", state


def test_an_input_whose_state_takes_no_text_is_still_refused(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("input-states.html"))
    with pytest.raises(NotInteractable):
        bx.call("type", tab=tab, id=field_id(bx, tab, "Agree"), text="yes")
    assert js(browser, "[document.getElementById('f').value, document.getElementById('f').checked]") == [
        "on",
        False,
    ]
