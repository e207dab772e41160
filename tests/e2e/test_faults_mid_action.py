"""Faults in the middle of an action (real browser, extension and host): a renderer that dies while
a click is under way fails the click with page_crashed within 2 s (it blocked 32.6 s, then said
success); a page that navigates away while ``type --per-char`` types ends the typing with a result
that says it navigated and how many characters went in (no raw CDP error)."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browserx import Client
from browserx.errors import BrowserxError
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import id_of, open_page, tab_of_its_own


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def _cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def _spinning_renderer(browser: Browser, timeout: float = 10.0) -> int:
    """The pid of this browser's renderer that is busy on a CPU (the page's click handler spins)."""
    root = browser.driver.service.process.pid
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        renderers = [
            p for p in _descendants(root)
            if b"--type=renderer" in Path(f"/proc/{p}/cmdline").read_bytes()
        ] if Path(f"/proc/{root}").exists() else []  # fmt: skip
        before = {p: _cpu_ticks(p) for p in renderers}
        time.sleep(0.5)
        busy = {p: _cpu_ticks(p) - t for p, t in before.items()}
        if busy and max(busy.values()) >= 30:  # ≥ 60 % of a CPU over 0.5 s (100 ticks/s)
            return max(busy, key=lambda p: busy[p])
    raise AssertionError("no renderer of this browser is busy")


@pytest.fixture
def own_tab(browser: Browser, bx: Client, servers: Servers) -> Iterator[int]:
    """A tab of another site than the main one (a renderer of its own, so a crash takes no other
    page along) that Selenium never drives; closed afterwards."""
    with tab_of_its_own(browser, bx, f"{servers.xorigin}/fault-crash.html") as tab:
        bx.activate_tab(tab)  # in front: a background tab's timers are throttled to once a second
        yield tab


@pytest.mark.parametrize("name", ["Busy work", "Busy after the click"])
def test_a_renderer_that_dies_during_a_click_fails_it_with_page_crashed_within_2_s(
    browser: Browser, bx: Client, own_tab: int, name: str
) -> None:
    """While the click's input is sent, and after it (while the action waits for the page)."""
    tab = own_tab
    button = id_of(bx, tab, name)
    outcome: dict[str, Any] = {}

    def click() -> None:
        with Client() as other:
            try:
                outcome["result"] = other.click(button, tab=tab)
            except BrowserxError as exc:
                outcome["error"] = exc
        outcome["at"] = time.monotonic()

    clicking = threading.Thread(target=click)
    clicking.start()
    # The handler spins (as a page allocating itself to death does); the kernel then kills it, as
    # the out-of-memory killer would.
    renderer = _spinning_renderer(browser)
    assert clicking.is_alive(), outcome
    killed = time.monotonic()
    os.kill(renderer, signal.SIGKILL)
    clicking.join(timeout=40)
    assert not clicking.is_alive(), "the click never returned"
    error = outcome.get("error")
    assert error is not None, f"a click whose renderer died reported {outcome}"
    assert error.code == "page_crashed", error.to_dict()
    assert outcome["at"] - killed < 2.0, f"answered {outcome['at'] - killed:.1f} s after the renderer died"
    assert bx.reload(tab=tab)["success"]  # and the tab comes back
    assert "Busy work" in bx.snapshot(tab=tab)["text"]


@pytest.mark.parametrize("per_char", [True, False])
def test_a_page_that_navigates_while_typing_ends_it_saying_so_and_how_much_went_in(
    browser: Browser, bx: Client, servers: Servers, per_char: bool
) -> None:
    """Per character, the page leaves after 5 of 10: page_navigated, typed 5 (or 6: the key sent
    before the news arrived, into the page still there). All at once, the whole text goes in, then
    the page leaves: a success that says it navigated."""
    after = 5 if per_char else 10
    tab = open_page(browser, bx, servers.url(f"fault-crash.html?navigate_after={after}"))
    field = id_of(bx, tab, "Search")
    text = "abcdefghij"
    try:
        got: Any = bx.type_text(field, text, tab=tab, per_char=per_char)
    except BrowserxError as exc:
        got = exc
    if per_char:
        assert isinstance(got, BrowserxError), f"typing into a page that left reported {got}"
        assert got.code == "page_navigated", got.to_dict()
        assert "Cannot find context" not in got.message and "navigated" in got.message
        typed = got.details["typed"]
        assert got.details["of"] == len(text) and after <= typed <= after + 1, got.to_dict()
        assert f"{typed} of {len(text)} characters went in" in got.message
    else:
        assert not isinstance(got, BrowserxError), got.to_dict()
        assert got["success"] and got["changes"]["navigated"], got
    # the new page is there, and nothing more was typed anywhere
    deadline = time.monotonic() + 10
    while not browser.driver.current_url.endswith(f"typed={after}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert browser.driver.title == "Hello fixture"
    assert "Hello" in bx.snapshot(tab=tab)["text"]
