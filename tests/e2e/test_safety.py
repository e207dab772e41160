"""The privacy promises, for every way in (real browser, real host): a page that says
``data-no-ai`` refuses every method, with nothing of its content in the error; ``navigate``
refuses URLs that would expose the computer or the browser's own pages, and the tab stays usable;
typed values come back only on request; the host's logs never hold what was typed."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from browserx import Client
from browserx.errors import BadRequest, MethodNotAllowed, PageOptedOut
from browserx.setup.assets import EXTENSION_DIR
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import controls, id_of, js, open_page

SECRET = "zebra-7731-quokka"  # typed below; must never reach a log


def _refusals(bx: Client, tab: int, element_id: int) -> dict[str, Any]:
    calls: dict[str, Any] = {
        "snapshot": lambda: bx.snapshot(tab=tab),
        "click": lambda: bx.click(element_id, tab=tab),
        "type": lambda: bx.type_text(element_id, "x", tab=tab),
        "key": lambda: bx.key("Enter", tab=tab, id=element_id),
        "scroll": lambda: bx.scroll(None, tab=tab),
        "select": lambda: bx.select(element_id, "x", tab=tab),
        "check": lambda: bx.check(element_id, tab=tab),
        "hover": lambda: bx.hover(element_id, tab=tab),
        "wait": lambda: bx.wait(text="Transfer", tab=tab, timeout=1),
        "cdp": lambda: bx.cdp("Runtime.evaluate", {"expression": "document.body.innerText"}, tab=tab),
    }
    out: dict[str, Any] = {}
    for name, call in calls.items():
        try:
            call()
            out[name] = "answered"
        except PageOptedOut as exc:
            out[name] = exc
        except Exception as exc:
            out[name] = f"{type(exc).__name__}: {exc}"
    return out


def test_an_opted_out_page_refuses_every_method_before_any_id_lookup(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("act-controls.html"))
    button = id_of(bx, tab, "Increment")  # an ID the page had before it opted out
    browser.driver.execute_script("document.body.setAttribute('data-no-ai', '')")
    got = _refusals(bx, tab, button)
    wrong = {k: v for k, v in got.items() if not isinstance(v, PageOptedOut)}
    assert not wrong, f"methods that did not refuse with page_opted_out: {wrong}"
    for exc in got.values():
        assert "Increment" not in exc.message and "Transfer" not in exc.message
    assert js(browser, "window.counts.inc") == 0  # the click never happened
    # An ID unknown to the tab gets the same answer: the opt-out is checked first.
    assert isinstance(_refusals(bx, tab, 987_654)["click"], PageOptedOut)
    # Leaving the page reads nothing of it: allowed.
    bx.navigate(servers.url("hello.html"), tab=tab)
    assert bx.snapshot(tab=tab)["text"]


@pytest.mark.parametrize(
    "url",
    ["file:///etc/passwd", "FILE:///etc/hostname", "javascript:alert(1)", "data:text/html,<h1>hi</h1>",
     "chrome://settings", "chrome-extension://bdmcchjakioickidfhiggdbapfpibgdc/manifest.json",
     "devtools://devtools/bundled/inspector.html", "view-source:http://127.0.0.1/", "edge://settings",
     "brave://settings"],
)  # fmt: skip
def test_navigate_refuses_what_would_expose_the_computer_or_the_browser(
    browser: Browser, bx: Client, servers: Servers, url: str
) -> None:
    tab = open_page(browser, bx, servers.url("hello.html"))
    with pytest.raises(BadRequest) as info:
        bx.navigate(url, tab=tab)
    assert "passwd" not in str(info.value.details)
    assert browser.driver.current_url == servers.url("hello.html")  # the tab never moved
    assert "Hello" in bx.snapshot(tab=tab)["text"]  # and is still usable


def test_the_hosts_own_cdp_machinery_is_not_a_passthrough(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("hello.html"))
    with pytest.raises(MethodNotAllowed):
        bx.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": "1"}, tab=tab)
    with pytest.raises(BadRequest):
        bx.cdp("Page.navigate", {"url": "file:///etc/passwd"}, tab=tab)
    bx.snapshot(tab=tab)  # browserx's isolated world exists now
    for name in ("contextId", "uniqueContextId"):  # never into it, by any guessed context
        for context in range(1, 40) if name == "contextId" else ["1.2"]:
            with pytest.raises(MethodNotAllowed):
                bx.cdp("Runtime.evaluate", {"expression": "Object.keys(globalThis)", name: context}, tab=tab)
    assert (
        bx.cdp("Runtime.evaluate", {"expression": "1 + 1"}, tab=tab)["result"]["value"] == 2
    )  # its own world


def test_typed_values_come_back_only_on_request_and_never_reach_the_logs(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("act-controls.html"))
    ids = controls(bx, tab)
    plain = bx.type_text(ids["Full name"]["id"], SECRET, tab=tab, clear=True)
    assert plain["changes"]["new_value"] is None and plain["changes"]["value_length"] == len(SECRET)
    asked = bx.type_text(ids["Full name"]["id"], SECRET, tab=tab, clear=True, include_values=True)
    assert asked["changes"]["new_value"] == SECRET
    bx.type_text(id_of(bx, tab, "Secret"), SECRET, tab=tab, include_values=True)
    assert SECRET in bx.snapshot(tab=tab, include_values=True, format="json").__repr__()
    assert SECRET not in bx.snapshot(tab=tab)["text"]  # values are off unless asked for
    logs = sorted(browser.runtime_dir.glob("host-*.log"))
    assert logs, f"no host log in {browser.runtime_dir}"
    for log in logs:
        assert SECRET not in log.read_text(encoding="utf-8", errors="replace"), f"{log} holds typed text"


def test_effects_are_drawn_without_a_content_script_on_every_site(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    manifest = json.loads((EXTENSION_DIR / "manifest.json").read_text())
    assert "content_scripts" not in manifest and "scripting" not in manifest["permissions"]
    tab = open_page(browser, bx, servers.url("act-controls.html"))
    assert js(browser, "document.querySelector('browserx-overlay') === null")  # nothing until browserx acts
    bx.click(id_of(bx, tab, "Increment"), tab=tab)
    # The ripple was drawn by the host in its isolated world: one overlay host, hidden from
    # assistive tech, in the page's DOM (its content sits in a closed shadow root).
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and js(browser, "document.querySelector('browserx-overlay') === null"):
        time.sleep(0.05)
    assert js(browser, "document.querySelector('browserx-overlay').getAttribute('aria-hidden')") == "true"
    assert js(browser, "document.querySelector('browserx-overlay').shadowRoot") is None  # closed
