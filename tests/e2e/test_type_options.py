"""``type`` with ``per_char`` paced by ``delay_ms``, and ``blur``: the field is left afterwards
(its change and blur events fire), on real Chromium."""

from __future__ import annotations

import itertools

from browserx import Client
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import js, open_page


def field_id(bx: Client, tab: int) -> int:
    view = bx.snapshot(tab=tab, format="semantic")["semantic"]
    return int(next(e["i"] for e in view["interactive_tree"] if e.get("n") == "Code"))


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
