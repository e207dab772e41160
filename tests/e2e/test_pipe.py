"""The whole pipe, for real: CLI/Client → control socket → host → extension → chrome.debugger."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from browserx import Client
from browserx.errors import BrowserxError, MethodNotAllowed, TabNotFound
from browserx.runtime import live_hosts
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import open_page, run_cli


def test_cli_lists_the_tab_with_url_and_title(browser: Browser, bx: Client, servers: Servers) -> None:
    url = servers.url("hello.html")
    open_page(browser, bx, url)
    out = run_cli("tabs", "--json")
    assert out.returncode == 0, out.stderr
    tabs = json.loads(out.stdout)
    assert any(t["url"] == url and t["title"] == "Hello fixture" for t in tabs), tabs


def test_status_reports_connected_extension(browser: Browser, bx: Client) -> None:
    status = bx.status()
    assert status["extension_connected"] is True
    assert status["extension"]["id"] == "bdmcchjakioickidfhiggdbapfpibgdc"
    assert status["pid"] == live_hosts()[0].pid
    # The host Chrome launched runs the compiled passes whenever a build exists (`make test` makes one).
    from browserx import _native

    assert status["compiled"] is (_native.MANIFEST.exists() and _native.up_to_date())
    out = run_cli("status")
    assert out.returncode == 0 and f"pid {status['pid']}" in out.stdout, out
    assert ("(compiled)" in out.stdout) is status["compiled"]


def test_cdp_round_trip_main_frame_and_cross_origin_iframe(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("oopif.html"))
    main = bx.cdp("Runtime.evaluate", {"expression": "location.href", "returnByValue": True}, tab=tab)
    assert main["result"]["value"] == servers.url("oopif.html")

    # The cross-site child and the nested iframe inside it arrive as auto-attached child sessions;
    # ask each where it is (a target's URL is only known once it has loaded).
    deadline = time.monotonic() + 10
    sessions: list[dict[str, str]] = []
    while time.monotonic() < deadline:
        sessions = []
        for s in bx.targets(tab):
            if s["type"] != "iframe":
                continue
            try:
                href = bx.cdp(
                    "Runtime.evaluate",
                    {"expression": "location.href", "returnByValue": True},
                    tab=tab,
                    session_id=s["session_id"],
                )["result"]["value"]
            except BrowserxError:
                continue  # a session of a frame that is already gone
            sessions.append({**s, "url": href})
        if {"oopif-child.html", "nested-child.html"} <= {s["url"].rsplit("/", 1)[-1] for s in sessions}:
            break
        time.sleep(0.1)
    child = next(s for s in sessions if "oopif-child.html" in s["url"])
    value = bx.cdp(
        "Runtime.evaluate",
        {"expression": "document.querySelector('#child-button').textContent", "returnByValue": True},
        tab=tab,
        session_id=child["session_id"],
    )
    assert value["result"]["value"] == "Child button"
    where = bx.cdp(
        "Runtime.evaluate",
        {"expression": "location.origin", "returnByValue": True},
        tab=tab,
        session_id=child["session_id"],
    )
    assert where["result"]["value"] == servers.xorigin
    nested = next(s for s in sessions if "nested-child.html" in s["url"])
    text = bx.cdp(
        "Runtime.evaluate",
        {"expression": "document.body.innerText", "returnByValue": True},
        tab=tab,
        session_id=nested["session_id"],
    )
    assert "Nested button" in text["result"]["value"]


def test_refused_and_unknown_inputs_get_structured_errors(browser: Browser, bx: Client) -> None:
    with pytest.raises(MethodNotAllowed):
        bx.cdp("Browser.close")
    with pytest.raises(TabNotFound) as info:
        bx.cdp("Runtime.evaluate", {"expression": "1"}, tab=987654321)
    assert "browserx tabs" in info.value.message
    # the same connection keeps working
    assert bx.tabs()


def test_garbage_on_control_socket_gets_error_and_others_keep_working(browser: Browser, bx: Client) -> None:
    path = bx.socket_path
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as raw:
        raw.settimeout(10)
        raw.connect(path)
        raw.sendall(b"\x00\xffnot json at all\n")
        reply = json.loads(raw.makefile("rb").readline())
        assert reply["ok"] is False and reply["error"]["code"] == "bad_request"
        raw.sendall(b'{"id": 7, "method": "nope"}\n')
        reply = json.loads(raw.makefile("rb").readline())
        assert reply["id"] == 7 and reply["error"]["code"] == "unknown_method"
        with Client() as other:
            assert other.status()["extension_connected"]
        raw.sendall(b'{"id": 8, "method": "status"}\n')
        assert json.loads(raw.makefile("rb").readline())["ok"] is True
    assert bx.status()["extension_connected"]


def test_killed_host_is_restarted_by_the_extension(browser: Browser, bx: Client, servers: Servers) -> None:
    open_page(browser, bx, servers.url("hello.html"))
    old = live_hosts()[0]
    os.kill(old.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    tabs = None
    while time.monotonic() < deadline:
        hosts = [h for h in live_hosts() if h.pid != old.pid]
        if hosts:
            out = run_cli("tabs", "--json")
            if out.returncode == 0:
                tabs = json.loads(out.stdout)
                break
        time.sleep(0.2)
    assert tabs is not None, "no new host answered `browserx tabs` within 10 s"
    assert any(t["url"] == servers.url("hello.html") for t in tabs)


def test_ctrl_c_on_a_waiting_cli_exits_130_quietly_and_the_host_drops_the_wait(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    """Ctrl-C on a read (a wait, a snapshot): exit 130 with no traceback, and the host cancels the
    work nobody waits for, freeing the tab at once (it held the tab until its timeout)."""
    tab = open_page(browser, bx, servers.url("hello.html"))
    log = Path(live_hosts()[0].log or "")
    process = subprocess.Popen(
        [sys.executable, "-m", "browserx.interfaces.cli", "wait", "--tab", str(tab), "--text", "never shown",
         "--timeout", "30"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ.copy(),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    time.sleep(1.5)  # the wait is running on the host
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=10)
    assert (process.returncode, out, err) == (130, b"", b"")
    started = time.monotonic()
    bx.snapshot(tab=tab)  # the tab is free: no 30 s wait behind the abandoned one
    assert time.monotonic() - started < 10
    deadline = time.monotonic() + 5
    while '"client_gone"' not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert '"cancelled": 1' in log.read_text()
