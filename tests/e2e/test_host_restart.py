"""IDs stay unique across host restarts within the browser's life (real browser, extension and
host): the extension keeps each tab's highest ID in chrome.storage.session and hands it to the
host it restarts, whose IDs start above it; an ID from before the restart answers stale_id and
never acts on another element."""

from __future__ import annotations

from typing import Any

import pytest

from browserx import Client
from browserx.errors import BrowserxError
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import js, open_page
from tests.e2e.test_faults import _kill_host_and_wait_for_the_next


def all_ids(bx: Client, tab: int) -> dict[int, str]:
    """ID → name of every node with an ID in a fresh json view of the tab."""
    out: dict[int, str] = {}

    def walk(node: dict[str, Any]) -> None:
        if "id" in node:
            out[int(node["id"])] = str(node.get("name", ""))
        for child in node.get("children", []):
            walk(child)

    walk(bx.snapshot(tab=tab, format="json")["json"]["page"]["body"])
    return out


def test_ids_never_repeat_after_the_host_restarts_and_an_old_id_answers_stale_id(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("act-controls.html"))
    before = all_ids(bx, tab)
    increment = next(i for i, name in before.items() if name == "Increment")
    counts = js(browser, "counts.inc")
    seen = set(before)
    for _ in range(2):  # each new host learns the watermark and keeps handing it on
        _kill_host_and_wait_for_the_next()
        with Client() as fresh:
            after = all_ids(fresh, tab)
            assert after and seen.isdisjoint(after), sorted(seen & set(after))
            assert min(after) > max(seen)
            with pytest.raises(BrowserxError) as info:
                fresh.click(increment, tab=tab)
            assert info.value.code == "stale_id", info.value.to_dict()
            assert "before the browserx host restarted" in info.value.message
            assert js(browser, "counts.inc") == counts  # nothing was clicked
            seen |= set(after)
            new_increment = next(i for i, name in after.items() if name == "Increment")
            assert fresh.click(new_increment, tab=tab)["success"]
            counts += 1
            assert js(browser, "counts.inc") == counts
