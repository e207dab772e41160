"""console end to end: the messages and uncaught errors a page produced, from Chrome's own record
(replayed when the tool looks), with levels, sources and the redaction of every output; and the
Runtime domain off again afterwards, as the page itself can tell (tests/fixtures/pages/console.html)."""

from __future__ import annotations

import time

from browserx import Client
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import id_of, js, open_page


def test_console_lists_what_the_page_logged_and_threw(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("console.html"))
    js(browser, "window.probe()")
    assert js(browser, "window.detected") is False  # browserx keeps Runtime off
    time.sleep(0.2)  # the page's timer throws
    out = bx.console(tab=tab)
    got = [(m["level"], m["kind"], m["text"]) for m in out["messages"] if "probe" not in m["text"]]
    assert got[:2] == [("log", "console", "ready 42 true"), ("warning", "console", "slow network")]
    failed = got[2][2]
    assert got[2][:2] == ("error", "console") and failed.startswith("failed: https://api.example/orders")
    assert "s3cr3t" not in failed and "4111" not in failed  # masked like every output
    assert got[3][:2] == ("error", "exception") and "boom at load" in got[3][2]
    assert all(m["source"].startswith(servers.url("console.html")) for m in out["messages"][:4])
    assert out["errors"] == 2

    bx.click(id_of(bx, tab, "Save"), tab=tab)
    errors = bx.console(tab=tab, level="error")["messages"]
    assert [m["text"] for m in errors][-2:][0] == "save failed"
    assert "no network" in errors[-1]["text"] and errors[-1]["kind"] == "exception"
    assert all(m["level"] == "error" for m in errors)
    assert len(bx.console(tab=tab, limit=1)["messages"]) == 1

    # Off again: a page probing for a debugger's Runtime finds none.
    js(browser, "window.detected = false; window.probe()")
    assert js(browser, "window.detected") is False
