"""The URL allowlist in a real browser (real extension, host and Chromium): every scheme and
browser page Chrome knows, sent through every door (navigate, new_tab, the grammar's navigate, the
raw cdp Page.navigate, the agent loop), is refused with url_not_allowed before it reaches Chrome,
and afterwards the browser, the tab and the tab count are as they were. Links to such URLs are
refused before any input reaches them. The rule itself: tests/test_url_policy.py."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from browserx import Client
from browserx.errors import BrowserxError
from browserx.interfaces.grammar import run_action
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import js, open_page

# Every scheme and about:/chrome: page that could hurt: some crash the whole browser when opened by
# CDP (about:version did), some hand the tab to another app (mailto:), some expose the computer.
WALK = [
    "about:version", "about:settings", "about:about", "about:srcdoc", "about:crash", "about:kill",
    "about:hang", "about:gpucrash", "about:inducebrowsercrashforrealz", "about:flags", "about:newtab",
    "chrome://version", "chrome://crash", "chrome://kill", "chrome://hang", "chrome://gpucrash",
    "chrome://inducebrowsercrashforrealz", "chrome://settings", "chrome://extensions", "chrome://restart",
    "chrome://quit", "CHROME://VERSION", "  chrome://version", "chrome-extension://abcdefghijklmnopabcdefghijklmnop/x.html",
    "devtools://devtools/bundled/inspector.html", "view-source:http://127.0.0.1/", "javascript:alert(1)",
    "jAvAsCrIpT:alert(1)", "java\tscript:alert(1)", "data:text/html,<h1>x</h1>", "blob:http://127.0.0.1/x",
    "filesystem:http://127.0.0.1/temporary/x", "mailto:a@example.com", "tel:+15550100", "sms:+15550100",
    "ftp://127.0.0.1/x", "ws://127.0.0.1/", "wss://127.0.0.1/", "intent://x#Intent;end",
    "chrome-untrusted://terminal/", "chrome-search://local-ntp/", "edge://settings", "brave://settings",
    "file:///etc/passwd", "about:blank/../version",
]  # fmt: skip


def _refused(call: Any) -> BrowserxError | str:
    try:
        return f"answered: {call()}"
    except BrowserxError as exc:
        return exc


def _alive(browser: Browser, bx: Client, tab: int, handles: int, tabs: int) -> None:
    """The browser, the tab and the tab count as they were."""
    assert "Hello fixture" in bx.snapshot(tab=tab)["text"]
    assert browser.driver.title == "Hello fixture"  # Selenium still answers, on the same page
    assert len(browser.driver.window_handles) == handles
    assert len(bx.tabs()) == tabs


@pytest.mark.parametrize("door", ["navigate", "new_tab", "grammar", "cdp"])
def test_the_scheme_walk_refuses_every_door_and_the_browser_and_tab_survive(
    browser: Browser, bx: Client, servers: Servers, door: str
) -> None:
    tab = open_page(browser, bx, servers.url("hello.html"))
    handles, tabs = len(browser.driver.window_handles), len(bx.tabs())
    calls = {
        "navigate": lambda url: bx.navigate(url, tab=tab),
        "new_tab": lambda url: bx.new_tab(url=url),
        "grammar": lambda url: run_action(bx, f"navigate({_quoted(url)})", tab=tab),
        "cdp": lambda url: bx.cdp("Page.navigate", {"url": url}, tab=tab),
    }
    started = time.monotonic()
    got = {url: _refused(lambda url=url: calls[door](url)) for url in WALK}
    wrong = {u: (v.to_dict() if isinstance(v, BrowserxError) else v) for u, v in got.items()
             if not (isinstance(v, BrowserxError) and v.code == "url_not_allowed")}  # fmt: skip
    assert not wrong, f"{door}: not refused with url_not_allowed: {wrong}"
    assert all(
        ("http" in v.message or "allow_file_urls" in v.message)
        for v in got.values()
        if isinstance(v, BrowserxError)
    )
    assert time.monotonic() - started < 20  # refused before Chrome: nothing waited on a page
    _alive(browser, bx, tab, handles, tabs)
    # and a web page still opens through the same door
    if door == "navigate":
        assert bx.navigate(servers.url("hello.html?again"), tab=tab)["success"]
        assert browser.driver.current_url.endswith("hello.html?again")


def _quoted(url: str) -> str:
    return '"' + url.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'


def _link_ids(bx: Client, tab: int) -> dict[str, int]:
    return {
        n["name"]: int(n["id"]) for n in _nodes(bx.snapshot(tab=tab, format="json")["json"]["page"]["body"])
    }


def _nodes(node: dict[str, Any]) -> list[dict[str, Any]]:
    out = [node] if "id" in node and node.get("name") else []
    for child in node.get("children", []):
        out += _nodes(child)
    return out


def _act(browser: Browser, bx: Client, tab: int, how: str, name: str, element_id: int) -> Any:
    if how == "click":
        return bx.click(element_id, tab=tab)
    if how == "middle click":  # opens the link in a new tab
        return bx.click(element_id, tab=tab, button="middle")
    if how == "enter on it":
        return bx.key("Enter", tab=tab, id=element_id)
    browser.driver.execute_script(
        "[...document.querySelectorAll('a')].find(a => a.textContent.trim() === arguments[0]).focus()", name
    )
    return bx.key("Enter", tab=tab)


def test_links_outside_the_allowlist_are_refused_before_any_input(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("url-links.html"))
    handles, tabs = len(browser.driver.window_handles), len(bx.tabs())
    ids = _link_ids(bx, tab)
    for name in (
        "Browser version",
        "Settings",
        "Write mail",
        "Call",
        "Source",
        "Data page",
        "Wrapped version",
    ):
        for how in ("click", "middle click", "enter on it", "enter when focused"):
            got = _refused(lambda name=name, how=how: _act(browser, bx, tab, how, name, ids[name]))
            assert isinstance(got, BrowserxError) and got.code == "url_not_allowed", (name, how, got)
            assert "Nothing was clicked" in got.message
    assert js(browser, "window.hits") == [], "input reached a refused link"
    assert browser.driver.current_url.endswith("url-links.html")
    assert len(browser.driver.window_handles) == handles and len(bx.tabs()) == tabs
    # the page's own script links and web links are followed
    assert bx.click(ids["Script"], tab=tab)["success"]
    assert bx.click(ids["Hello page"], tab=tab)["changes"]["navigated"]
    assert browser.driver.title == "Hello fixture"


def test_the_agent_loop_reports_a_refused_navigation_and_the_browser_survives(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    from tests.e2e.test_agent import agent, fake_backend

    tab = open_page(browser, bx, servers.url("hello.html"))
    handles, tabs = len(browser.driver.window_handles), len(bx.tabs())

    def script(bodies: list[dict[str, Any]]) -> dict[str, Any]:
        if len(bodies) == 1:
            return {"success": True, "data": {"thought": "Look.", "action": 'navigate("about:version")',
                                              "taskId": "t-url"}}  # fmt: skip
        return {"success": True, "data": {"thought": "Done.", "action": 'finish("ok")', "taskId": "t-url"}}

    with fake_backend(script) as backend:
        out = agent(backend, tab, "Open the browser's version page")
    assert out.returncode == 0, (out.stdout, out.stderr)
    after = backend.bodies[1]
    assert after["lastActionStatus"] == "failure", after
    assert "url_not_allowed" in json.dumps(after["lastActionResult"]), after["lastActionResult"]
    _alive(browser, bx, tab, handles, tabs)
