"""Faults real use throws at the host, survived (real browser, extension and host): a tab closed
while an action runs, two clients acting on one tab at once. Each gets a clear error or a correct
result, and the next request works."""

from __future__ import annotations

import threading
import time
from typing import Any

from browserx import Client
from browserx.errors import BrowserxError
from tests.e2e.conftest import open_page
from tests.e2e.harness import Browser, Servers
from tests.e2e.test_actions import id_of, js


def test_a_tab_closed_mid_action_gives_a_clear_error_and_the_host_keeps_serving(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    driver = browser.driver
    main = driver.current_window_handle
    driver.switch_to.new_window("tab")
    tab = open_page(browser, bx, servers.url("view-mutating.html"))
    outcome: dict[str, Any] = {}

    def wait_long() -> None:
        with Client() as other:
            try:
                outcome["result"] = other.wait(text="never appears anywhere", tab=tab, timeout=20)
            except BrowserxError as exc:
                outcome["error"] = exc

    waiting = threading.Thread(target=wait_long)
    waiting.start()
    time.sleep(1.0)
    driver.close()  # the tab goes away while the wait runs
    driver.switch_to.window(main)
    waiting.join(timeout=25)
    assert not waiting.is_alive(), "the action on a closed tab never returned"
    error = outcome.get("error")
    assert error is not None, f"expected a clear error, got {outcome}"
    assert error.code in ("tab_closed", "unknown_tab", "debugger_detached", "action_timeout"), error.to_dict()
    assert bx.status()["extension_connected"]
    assert "Hello" in bx.snapshot(tab=open_page(browser, bx, servers.url("hello.html")))["text"]


def test_two_clients_acting_on_one_tab_are_serialised_and_both_correct(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("act-controls.html"))
    button = id_of(bx, tab, "Increment")
    errors: list[BaseException] = []

    def clicks() -> None:
        with Client() as other:
            for _ in range(5):
                try:
                    assert other.click(button, tab=tab)["success"]
                    other.snapshot(tab=tab)
                except BaseException as exc:
                    errors.append(exc)

    workers = [threading.Thread(target=clicks) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=60)
    assert not errors, errors
    assert js(browser, "counts.inc") == 10  # every click landed once, none lost or doubled
