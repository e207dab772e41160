"""Tab tools end to end: open a tab, act in it, release it (the debugger lets go), use it again
(attached again), bring another to the front, close it; pages browserx must not open are refused
and leave the tab usable."""

from __future__ import annotations

import time

import pytest

from browserx import Client
from browserx.errors import BrowserxError
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import id_of, js, open_page


def test_open_act_release_reattach_activate_and_close_a_tab(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    main_tab = open_page(browser, bx, servers.url("hello.html"))
    opened = bx.new_tab(servers.url("act-controls.html"))
    tab = opened["tab"]
    assert opened["success"] and opened["changes"]["navigated"]
    listed = {t["tab"]: t for t in bx.tabs()}
    assert listed[tab]["url"] == servers.url("act-controls.html") and listed[tab]["active"]
    assert bx.click(id_of(bx, tab, "Increment"), tab=tab)["success"]
    assert tab in bx.status()["attached_tabs"]

    assert bx.release_tab(tab) == {"tab": tab, "released": True}
    assert tab not in bx.status()["attached_tabs"]  # the debugger (and its banner) let go
    assert "Increment" in bx.snapshot(tab=tab)["text"]  # the next request attaches again
    assert tab in bx.status()["attached_tabs"]

    assert bx.activate_tab(main_tab)["active"]
    assert {t["tab"]: t for t in bx.tabs()}[main_tab]["active"]

    assert bx.close_tab(tab) == {"tab": tab, "closed": True}
    assert tab not in {t["tab"] for t in bx.tabs()}
    with pytest.raises(BrowserxError) as closed:
        bx.snapshot(tab=tab)
    assert closed.value.code in ("unknown_tab", "tab_closed")


def test_a_new_blank_tab_then_navigate(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = bx.new_tab()["tab"]
    try:
        assert bx.navigate(servers.url("hello.html"), tab=tab)["success"]
        assert "Hello fixture" in bx.snapshot(tab=tab)["text"]
    finally:
        bx.close_tab(tab)


@pytest.mark.parametrize(
    "url", ["chrome://settings", "view-source:http://example.com", "javascript:alert(1)"]
)
def test_pages_browserx_must_not_open_are_refused_and_the_tab_stays_usable(
    browser: Browser, bx: Client, servers: Servers, url: str
) -> None:
    tab = open_page(browser, bx, servers.url("hello.html"))
    with pytest.raises(BrowserxError) as refused:
        bx.navigate(url, tab=tab)
    assert refused.value.code == "url_not_allowed", refused.value.to_dict()
    with pytest.raises(BrowserxError) as refused:
        bx.new_tab(url)
    assert refused.value.code == "url_not_allowed", refused.value.to_dict()
    assert "Hello fixture" in bx.snapshot(tab=tab)["text"]


def test_a_tab_on_a_browser_page_says_so_and_navigate_leaves_it(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    # Where a person (or a fresh tab's chrome://newtab) left the tab: chrome.debugger may not attach.
    browser.driver.get("chrome://version")
    tab = next(int(t["tab"]) for t in bx.tabs() if t["url"].startswith("chrome://version"))
    with pytest.raises(BrowserxError) as off:
        bx.snapshot(tab=tab)
    assert off.value.code == "page_off_limits" and "Navigate" in off.value.message
    assert bx.navigate(servers.url("hello.html"), tab=tab)["success"]
    assert "Hello fixture" in bx.snapshot(tab=tab)["text"]


def test_a_tab_or_popup_an_action_opens_is_named_in_its_result_and_its_closing_in_the_next(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    driver = browser.driver
    tab = open_page(browser, bx, servers.url("popups.html"))
    main, before = driver.current_window_handle, set(driver.window_handles)
    try:
        result = bx.click(id_of(bx, tab, "Open help"), tab=tab)
        (opened,) = result["opened_tabs"]
        assert opened["url"] == servers.url("hello.html") and opened.get("usable", True) is True
        assert len(set(driver.window_handles) - before) == 1  # the browser did open one tab
        assert "Hello" in bx.snapshot(tab=opened["tab"])["text"]  # acted in by its id, no `tabs` first
        bx.close_tab(opened["tab"])

        result = bx.click(id_of(bx, tab, "Sign in"), tab=tab)
        (popup,) = result["opened_tabs"]
        assert popup["tab"] != opened["tab"] and "closed_tabs" not in result
        deadline = time.monotonic() + 10
        while set(driver.window_handles) - before and time.monotonic() < deadline:
            time.sleep(0.1)  # the popup closes itself
        assert not set(driver.window_handles) - before
        after = bx.click(id_of(bx, tab, "Nothing"), tab=tab)
        assert after["closed_tabs"] == [popup["tab"]] and "opened_tabs" not in after
        assert js(browser, "window.signedIn") is True
        assert "closed_tabs" not in bx.click(id_of(bx, tab, "Nothing"), tab=tab)  # said once
    finally:
        for handle in set(driver.window_handles) - before:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(main)
