"""Site rules held in the browser's network layer (issue 34, item 1), judged by what the browser did:
the request log of a server on a blocked host, never browserx's own answer.

An allowed page (127.0.0.1) whose own scripts try every way there we know of — a same-site link
that answers 302 to the blocked host, a handler that sets ``location``, a form whose ``onsubmit``
rewrites its ``action`` (pressed, and sent by Enter), a link whose ``href`` changes on
``pointerdown``, ``window.open``, ``fetch``, an inserted ``<iframe>``, a timer set by the click —
while the agent acts on it. Not one request reaches the blocked host (127.0.0.2), and an action
whose page the browser refused answers ``site_blocked``. The rules bind the agent only: the
person's own navigation there, between calls, goes through (and shows the server logs requests).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from browserx import Client
from browserx.errors import BrowserxError
from tests.e2e.harness import Browser
from tests.e2e.helpers import id_of, open_page
from tests.e2e.person_pages import Pages, save_options

ATTACK = """<!doctype html><title>Shop</title>
<a href="/redirect?to={b}/redirect-hop">Read the docs</a>
<button onclick="location.href='{b}/by-location'">Open account</button>
<form action="/ok" onsubmit="this.action='{b}/form-action'">
  <input name="q" aria-label="Search"><button>Find</button></form>
<a href="/ok" onpointerdown="this.href='{b}/swapped-link'">Help center</a>
<button onclick="window.open('{b}/popup')">Show offer</button>
<button onclick="fetch('{b}/fetch', {{mode: 'no-cors'}}).catch(() => {{}})">Refresh prices</button>
<button onclick="const f = document.createElement('iframe'); f.src = '{b}/frame'; document.body.append(f)">
  Load widget</button>
<button onclick="setTimeout(() => location.href = '{b}/timer', 150)">Continue later</button>
"""


class _Log:
    def __init__(self) -> None:
        self.paths: list[str] = []
        self.lock = threading.Lock()

    def add(self, path: str) -> None:
        with self.lock:
            self.paths.append(path)

    def take(self) -> list[str]:
        with self.lock:
            out, self.paths = self.paths, []
        return out


def _serve(host: str, handle: Any) -> tuple[ThreadingHTTPServer, str]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            handle(self)

        do_POST = do_GET

    server = ThreadingHTTPServer((host, 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://{host}:{server.server_address[1]}"


def _answer(h: BaseHTTPRequestHandler, status: int, body: str = "", location: str = "") -> None:
    data = body.encode()
    h.send_response(status)
    if location:
        h.send_header("Location", location)
    h.send_header("Content-Type", "text/html; charset=utf-8")
    h.send_header("Content-Length", str(len(data)))
    h.send_header("Cache-Control", "no-store")
    h.end_headers()
    h.wfile.write(data)


@contextlib.contextmanager
def _sites() -> Iterator[tuple[str, str, _Log]]:
    """An allowed shop (127.0.0.1) and a blocked host (127.0.0.2) that logs every request."""
    log = _Log()

    def blocked(h: BaseHTTPRequestHandler) -> None:
        log.add(urlsplit(h.path).path)
        _answer(h, 200, "<!doctype html><title>Blocked site</title><p>Account balance 4,200</p>")

    b_server, b_origin = _serve("127.0.0.2", blocked)

    def shop(h: BaseHTTPRequestHandler) -> None:
        url = urlsplit(h.path)
        if url.path == "/redirect":
            _answer(h, 302, location=parse_qs(url.query)["to"][0])
        elif url.path == "/attack.html":
            _answer(h, 200, ATTACK.format(b=b_origin))
        else:
            _answer(h, 200, "<!doctype html><title>Shop page</title><p>fine</p>")

    a_server, a_origin = _serve("127.0.0.1", shop)
    try:
        yield a_origin, b_origin, log
    finally:
        for s in (a_server, b_server):
            s.shutdown()
            s.server_close()


# (control, how the agent uses it, what answers site_blocked: the action, the next call (the
# page went there after the action ended), or none (the tab stays: a popup, a fetch, a frame))
ATTACKS = [
    ("Read the docs", "click", "action"),
    ("Open account", "click", "action"),
    ("Find", "click", "action"),
    ("Search", "enter", "action"),
    ("Help center", "click", "action"),
    ("Help center", "click_at", "action"),
    ("Show offer", "click", "none"),
    ("Refresh prices", "click", "none"),
    ("Load widget", "click", "none"),
    ("Continue later", "click", "next call"),
]


def _attack(bx: Client, tab: int, name: str, how: str) -> str:
    """Use the control as the agent would; the error code, or "ok"."""
    try:
        if how == "enter":
            box = id_of(bx, tab, "Search")
            bx.type_text(box, "socks", submit=True, tab=tab)
        elif how == "click_at":
            nodes = bx.snapshot(tab=tab, format="semantic")["semantic"]["interactive_tree"]
            (x, y) = next(n["xy"] for n in nodes if n.get("n") == name)
            bx.click_at(x, y, tab=tab)
        else:
            bx.click(id_of(bx, tab, name), tab=tab)
        return "ok"
    except BrowserxError as exc:
        return exc.code


def _close_new_tabs(browser: Browser, kept: set[str]) -> None:
    """Close the tabs the page opened (its popups), back on Selenium's own."""
    driver = browser.driver
    main = driver.current_window_handle
    for handle in set(driver.window_handles) - kept:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(main)


@pytest.mark.parametrize("mode", ["blocked", "listed"])
def test_no_request_of_an_agent_call_reaches_a_blocked_site(
    browser: Browser,
    bx: Client,
    pages: Pages,
    mode: str,
) -> None:
    with _sites() as (shop, blocked, log):
        if mode == "blocked":
            save_options(pages, blocked="127.0.0.2")
        else:
            save_options(pages, mode="listed", allowed="127.0.0.1")
        answers: dict[str, Any] = {}
        kept = set(browser.driver.window_handles)
        try:
            for name, how, _ in ATTACKS:
                tab = open_page(browser, bx, f"{shop}/attack.html")
                code = _attack(bx, tab, name, how)
                time.sleep(0.4)  # the timer's navigation, the popup's first request
                try:
                    then = "ok" if bx.snapshot(tab=tab) else "?"
                except BrowserxError as exc:
                    then = exc.code
                answers[f"{name}/{how}"] = (code, then, log.take())
                _close_new_tabs(browser, kept)
            reached = {k: v for k, v in answers.items() if v[2]}
            assert reached == {}, answers
            expected = {
                f"{name}/{how}": (
                    "site_blocked" if said_by == "action" else "ok",
                    "ok" if said_by == "none" else "site_blocked",
                )
                for name, how, said_by in ATTACKS
            }
            assert {k: v[:2] for k, v in answers.items()} == expected
            # The rules bind the agent only: the person goes there between calls, and the server
            # logs it (so the empty log above is the browser refusing, not a dead server).
            time.sleep(3.5)  # (the rules linger 3 s after the last call)
            browser.driver.get(f"{blocked}/person")
            assert "/person" in log.take()
        finally:
            _close_new_tabs(browser, kept)
            save_options(pages)
