"""A page that makes a browserx snippet throw (real browser, extension and host): the client gets
``page_script_error`` naming the snippet's file and the page's message, the host log names the
file too, the page's own stack trace names it (sourceURL) — never a silent "no value" (a wait that
would have polled until its timeout)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from browserx import Client
from browserx.errors import BrowserxError
from browserx.runtime import live_hosts
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import open_page

# The main world's innerText, broken by the page: navigation_wait.js reads it there.
BREAK_INNER_TEXT = (
    "Object.defineProperty(HTMLElement.prototype, 'innerText', "
    "{get() { throw new Error('innerText is off limits here'); }, configurable: true});"
)


def test_a_snippet_the_page_makes_throw_is_a_clear_error_naming_its_file(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("hello.html"))
    log = Path(live_hosts()[0].log or "")
    browser.driver.execute_script(BREAK_INNER_TEXT)
    started = time.monotonic()
    with pytest.raises(BrowserxError) as raised:
        bx.wait(text="Hello", tab=tab, timeout=10)
    assert time.monotonic() - started < 5, "the wait polled on instead of failing"
    err = raised.value
    assert err.code == "page_script_error", err.to_dict()
    assert err.details["snippet"] == "actions/navigation_wait.js"
    assert "innerText is off limits here" in err.details["page_message"]
    assert "browserx/actions/navigation_wait.js" in err.details["page_message"]  # the page's stack
    assert "actions/navigation_wait.js" in err.message
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        text = log.read_text(encoding="utf-8", errors="replace")
        if "page_script_error" in text and "actions/navigation_wait.js" in text:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the host log does not name the snippet that threw")
    # browserx's isolated world is out of the page's reach: a snapshot still reads the page.
    assert "Hello" in bx.snapshot(tab=tab)["text"]
