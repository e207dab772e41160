"""No answer grows with what a page controls (real browser, extension and host): a page whose
title, a control's name, a text, an option, a field's value, a link's address and a tooltip are each
a megabyte long. Every agent tool, in every format and mode, answers within a bound that does not
depend on them (before: a 1 MB title gave a 2 MB snapshot despite max_tokens 6000). Left out: the
answers that carry a picture, and snapshots asked for with no budget (``max_tokens`` 0)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from browserx import Client
from browserx.control.tools import TOOLS_BY_NAME
from tests.e2e.every_tool import calls_for_every_tool, run_calls
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import controls, id_of, tab_of_its_own

# Far above any answer of this small page, far below the megabyte its strings hold.
BOUND = 64 * 1024


@pytest.fixture
def own_tab(browser: Browser, bx: Client, servers: Servers) -> Iterator[int]:
    """The page in a tab of its own, closed afterwards: its megabyte-long address in the shared
    tab's history would ride along every later Page.getNavigationHistory of the session's tests
    (the whole e2e run took three times as long)."""
    with tab_of_its_own(browser, bx, servers.url("hostile-sizes.html")) as tab:
        yield tab


def test_no_answer_of_any_tool_grows_with_the_pages_strings(
    bx: Client, servers: Servers, own_tab: int
) -> None:
    tab = own_tab
    found = controls(bx, tab)  # one snapshot for the three (each a second on this page)
    ids = [int(found[name]["id"]) for name in ("Field", "Pick", "Far")]  # Far: to a megabyte-long address
    calls = [
        (name, params)
        for name, params in calls_for_every_tool(
            ids, (30.0, 30.0), servers.url("hostile-sizes.html"), "Short"
        )
        # A picture's size is its pixels' (screenshot, hybrid's JPEG); max_tokens 0 asks for no budget.
        if not TOOLS_BY_NAME[name].binary
        and params.get("format") != "hybrid"
        and params.get("max_tokens") != 0
    ]
    answers = run_calls(bx, calls, tab)
    # The host held for minutes on the address (redaction's patterns were quadratic): timeouts then.
    broken = [(n, a[:120]) for n, _, a in answers if any(f'"{c}"' in a for c in ("timeout", "internal"))]
    assert not broken, broken
    sizes = sorted(((len(answer), name, str(params)[:80]) for name, params, answer in answers), reverse=True)
    assert sizes[0][0] < BOUND, f"largest answers: {sizes[:3]}"
    assert {name for _, name, _ in sizes} >= {"snapshot", "html", "type", "select", "click", "tabs", "dialog"}


# -- depth and breadth: 2,000 nested elements, a million elements -----------------------------------


def _page_title(browser: Browser, url: str, wanted: str, timeout: float = 5.0) -> str:
    """The title of the tab showing ``url`` as Chrome lists its targets (read through Selenium's
    CDP, not browserx, and without switching Selenium to that tab, which would put it in the
    background where Chrome paints no frame for a screenshot to wait on), once it is ``wanted``
    or ``timeout`` passed."""
    deadline = time.monotonic() + timeout
    while True:
        targets = browser.driver.execute_cdp_cmd("Target.getTargets", {})["targetInfos"]
        titles = [t["title"] for t in targets if t["type"] == "page" and t["url"] == url]
        assert titles, f"no tab shows {url}"
        if titles[0] == wanted or time.monotonic() > deadline:
            return str(titles[0])
        time.sleep(0.05)


def _host_rss_mb(bx: Client) -> float:
    """The resident memory of the host serving ``bx`` now (an earlier test may have restarted it)."""
    with open(f"/proc/{bx.status()['pid']}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_a_page_nested_2000_deep_answers_every_tool(browser: Browser, bx: Client, servers: Servers) -> None:
    """Before: every view and every action raised an internal RecursionError. (Chromium itself
    hangs or loses the renderer past about 3,000 nested divs, so 2,000 is the test's depth.)"""
    url = servers.url("deep-page.html")
    with tab_of_its_own(browser, bx, url) as tab:
        deep = id_of(bx, tab, "Deep button")
        calls = [(name, params) for name, params in calls_for_every_tool([deep], (30.0, 30.0), url, "Deep")
                 if not TOOLS_BY_NAME[name].binary]  # fmt: skip
        # The first click is the first call that presses the button (the views before it read):
        # the page's own title says it landed, then the other calls go on in the same tab.
        first_click = next(i for i, (name, _) in enumerate(calls) if name == "click") + 1
        assert _page_title(browser, url, "Deep page") == "Deep page"
        answers = run_calls(bx, calls[:first_click], tab)
        assert _page_title(browser, url, "Deep button pressed") == "Deep button pressed"
        answers += run_calls(bx, calls[first_click:], tab)
    broken = [(n, a[:160]) for n, _, a in answers if any(f'"{c}"' in a for c in ("timeout", "internal"))]
    assert not broken, broken


def test_a_page_past_the_node_budget_is_read_in_part_and_its_memory_returned(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    """300,000 elements made by the page's script, past the collector's 200,000-node budget. Before:
    a million made the snapshot time out, and the host kept 678 MB once the tab was closed."""
    url = servers.url("huge-page.html?n=300000")
    with tab_of_its_own(browser, bx, servers.url("deep-page.html?depth=10")) as small:
        bx.snapshot(tab=small)  # the baseline: a host that has snapshotted a page and let it go
    time.sleep(1)
    baseline = _host_rss_mb(bx)
    with tab_of_its_own(browser, bx, url, load_s=60) as tab:
        text = bx.snapshot(tab=tab, max_tokens=2000)["text"]
        assert "page too large: browserx read its first 200,000 nodes" in text
        # One json view (each takes seconds here) for its stats and the button's ID.
        view = bx.snapshot(tab=tab, format="json")["json"]["page"]
        assert view["context"]["stats"]["cut_frames"] == 1
        bx.click(_id_named(view["body"], "Top button"), tab=tab)
        assert _page_title(browser, url, "Top button pressed") == "Top button pressed"
        peak = _host_rss_mb(bx)
    for _ in range(100):  # the tab's memory is freed once its disposal ran (tabs/registry.py)
        after = _host_rss_mb(bx)
        if after < baseline + 50:
            break
        time.sleep(0.2)
    assert after < baseline + 50, (
        f"host RSS {baseline:.0f} MB before, {peak:.0f} MB open, {after:.0f} MB after"
    )


def _id_named(body: dict[str, Any], name: str) -> int:
    """The ID of a node named ``name`` in a json view's body."""
    stack = [body]
    while stack:
        node = stack.pop()
        if node.get("name") == name and isinstance(node.get("id"), int):
            return int(node["id"])
        stack.extend(node.get("children", []))
    raise AssertionError(f"no {name!r} with an ID in the view")
