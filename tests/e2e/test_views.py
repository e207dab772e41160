"""Views for real (Selenium-driven Chromium with the extension and host): page events, deltas,
CSS filters through shadow roots and frames, query-focused and viewport-only views of generated
pages (bench/pages.py), and the stability wait. Token numbers are printed (pytest -s)."""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from bench.pages import generate
from selenium.webdriver.common.by import By

from browserx import Client
from browserx.views.text import parse_controls
from tests.e2e.harness import Browser, Servers, fixture_servers
from tests.e2e.helpers import open_page


@pytest.fixture(scope="module")
def generated() -> Iterator[Servers]:
    with tempfile.TemporaryDirectory(prefix="browserx-gen-") as tmp:
        for size in (20000, 50000):
            (Path(tmp) / f"gen-{size}.html").write_text(generate(size), encoding="utf-8")
        with fixture_servers(Path(tmp)) as servers:
            yield servers


def _id_of(text: str, name: str, role: str | None = None) -> int:
    found = [i for i, (r, n) in parse_controls(text).items() if n == name and role in (None, r)]
    assert found, f"{name!r} not in\n{text}"
    return found[0]


def test_a_toast_that_came_and_went_between_two_views_is_reported(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("view-toast.html"))
    first = bx.snapshot(tab=tab, format="semantic")
    assert first["semantic"]["recent_events"] == []
    browser.driver.find_element(By.ID, "save").click()
    time.sleep(0.8)  # the toast is gone again after 400 ms
    assert not browser.driver.find_elements(By.CSS_SELECTOR, ".toast")
    second = bx.snapshot(tab=tab, format="semantic")["semantic"]
    events = " | ".join(second["recent_events"])
    assert 'success appeared: "Saved successfully"' in events, events
    assert "disappeared" in events
    assert second["has_success"] and not second["has_errors"]
    browser.driver.find_element(By.ID, "fail").click()
    text = bx.snapshot(tab=tab)["text"]
    assert "events since last view:" in text and 'error appeared: "Invalid ZIP code"' in text, text
    # shown once: the next view has no new events
    assert "events since last view" not in bx.snapshot(tab=tab)["text"]


def test_the_watcher_runs_from_a_documents_first_moment(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("hello.html"))
    bx.snapshot(tab=tab)  # observing a tab once puts the watcher into each of its new documents
    tab = open_page(browser, bx, servers.url("view-toast.html"))
    browser.driver.find_element(By.ID, "save").click()
    time.sleep(0.8)  # the toast came and went before browserx first looked at this document
    first = bx.snapshot(tab=tab, format="semantic", stats=True)
    events = " | ".join(first["semantic"]["recent_events"])
    assert 'success appeared: "Saved successfully"' in events, events
    # The DOM has been quiet for ~0.8 s, and the watcher knows it: no 300 ms of watching first
    # (quiet_ms; the margin below it is for a loaded machine).
    assert first["stats"]["stability"]["waited_ms"] < 250, first["stats"]["stability"]


def test_delta_after_typing_shows_the_changed_value_and_new_elements(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("view-form.html"))
    base = bx.snapshot(tab=tab, include_values=True)["text"]
    city = _id_of(base, "City")
    same = bx.snapshot(tab=tab, include_values=True, since_last=True)["text"]
    assert same.startswith("no changes since the last view") and re.search(r"tree [0-9a-f]{8}", same), same
    assert len(same.splitlines()) == 1
    browser.driver.find_element(By.ID, "city").send_keys("Lyon")
    browser.driver.find_element(By.ID, "agree").click()
    browser.driver.find_element(By.ID, "add").click()
    browser.driver.execute_script("document.getElementById('gone').remove()")
    delta = bx.snapshot(tab=tab, include_values=True, since_last=True)["text"]
    assert f'~ [{city}] value — → "Lyon"' in delta, delta
    assert re.search(r"~ \[\d+\] checked no → yes", delta), delta
    assert re.search(r"^\+ .*\[\d+\] button Added later$", delta, re.M), delta
    assert "- removed: [" in delta, delta
    semantic = bx.snapshot(tab=tab, format="semantic", since_last=True)
    assert semantic["semantic"] == semantic["semantic"] | {"mode": "delta", "unchanged": True}


def test_css_filter_reaches_into_shadow_roots_and_frames(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("view-filter.html"))
    text = bx.snapshot(tab=tab, filter="button.pick")["text"]
    names = sorted(name for _, name in parse_controls(text).values())
    assert names == ["Closed pick", "Frame pick", "Light pick", "Shadow pick"], text
    assert "other" not in text, text
    semantic = bx.snapshot(tab=tab, format="semantic", filter=".pick")["semantic"]
    assert sorted(e["n"] for e in semantic["interactive_tree"]) == [
        "Closed pick", "Frame pick", "Light pick", "Shadow pick"]  # fmt: skip
    with pytest.raises(Exception, match="selector"):
        bx.snapshot(tab=tab, filter="button[")


def test_query_view_of_a_generated_page_holds_the_named_button_within_budget(
    browser: Browser, bx: Client, generated: Servers
) -> None:
    tab = open_page(browser, bx, generated.url("gen-20000.html"))
    for query in ("Buy 500-3", "Send 302"):
        result = bx.snapshot(tab=tab, query=query, max_tokens=1500, stats=True)
        text = result["text"]
        print(f"\nquery {query!r} on 20k: {result['stats']['tokens']} tokens")
        assert result["stats"]["tokens"] <= 1500
        assert _id_of(text, query, "button"), text
        assert "filtered out" in text


def test_viewport_only_and_default_budget_on_long_pages(
    browser: Browser, bx: Client, generated: Servers
) -> None:
    for size in (20000, 50000):
        tab = open_page(browser, bx, generated.url(f"gen-{size}.html"))
        viewport = bx.snapshot(tab=tab, viewport_only=True, stats=True)
        default = bx.snapshot(tab=tab, stats=True)
        semantic = bx.snapshot(tab=tab, format="semantic", viewport_only=True, stats=True)
        print(f"\n{size}: viewport_only {viewport['stats']['tokens']} tokens, default {default['stats']['tokens']}, "
              f"semantic viewport_only {semantic['stats']['tokens']}")  # fmt: skip
        assert viewport["stats"]["tokens"] <= 1500
        assert semantic["stats"]["tokens"] <= 1500
        assert default["stats"]["tokens"] <= 6000
        assert "scroll down to see them" in default["text"]
        if size == 50000:
            query = bx.snapshot(tab=tab, query="Buy 500-3", max_tokens=2000, stats=True)
            print(f"query 'Buy 500-3' on 50k: {query['stats']['tokens']} tokens")
            assert query["stats"]["tokens"] <= 2000
            assert _id_of(query["text"], "Buy 500-3", "button"), query["text"]


def test_stability_wait_reports_the_time_waited(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("view-mutating.html"))
    first = bx.snapshot(tab=tab, stats=True)
    waited = first["stats"]["stability"]
    assert waited["stable"] and waited["waited_ms"] >= 400, waited
    assert "Item 12" in first["text"], first["text"]  # the wait outlasted every mutation
    again = bx.snapshot(tab=tab, stats=True)["stats"]["stability"]
    assert again["waited_ms"] < 250, again  # quiet since: not the 300 ms (quiet_ms) of watching
    off = bx.snapshot(tab=tab, stats=True, wait_stable=False)["stats"]["stability"]
    assert off == {"waited_ms": 0.0, "stable": True, "ticking": False, "enabled": False}


def test_a_page_that_never_stops_is_not_waited_for_but_an_actions_effect_is(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    """A price and a clock ticking, a table's rows re-created, for ever: once the page has been at it
    for a while, its ticks do not hold the stability wait (it would last its whole timeout); what
    a click sets in motion elsewhere still does."""
    tab = open_page(browser, bx, servers.url("view-ticking.html"))
    time.sleep(2.5)
    for _ in range(3):
        stability = bx.snapshot(tab=tab, stats=True)["stats"]["stability"]
        assert stability["stable"] and stability["ticking"] and stability["waited_ms"] < 250, stability
    browser.driver.find_element(By.ID, "open").click()  # the panel comes 150 ms later
    after = bx.snapshot(tab=tab, stats=True)
    assert "Close details" in after["text"], after["text"]
    assert after["stats"]["stability"]["waited_ms"] >= 100, after["stats"]["stability"]


def test_events_of_the_previous_page_say_so_in_the_next_pages_first_view(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("view-toast.html"))
    text = bx.snapshot(tab=tab)["text"]
    # The click shows "Invalid ZIP code"; checking for it reads the page's events into the tab's log.
    expect = {"element_appears": {"text": "Invalid ZIP code"}}
    result = bx.click(_id_of(text, "Submit", "button"), tab=tab, expect=expect)
    assert result["success"], result
    browser.driver.get(servers.url("hello.html"))
    after = bx.snapshot(tab=tab)["text"]
    assert 'error appeared on the previous page: "Invalid ZIP code"' in after, after
    semantic = bx.snapshot(tab=tab, format="semantic")["semantic"]
    assert semantic["recent_events"] == []  # shown once
    # Events of the page itself are not marked.
    browser.driver.get(servers.url("view-toast.html"))
    bx.snapshot(tab=tab)
    browser.driver.find_element(By.ID, "save").click()
    same = bx.snapshot(tab=tab)["text"]
    assert 'success appeared: "Saved successfully"' in same and "previous page" not in same, same
