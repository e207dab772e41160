"""Patterns of Vue component libraries and data grids (issue 21): transparent focus inputs of
selects, controls inside grid cells, hover-revealed row actions, containers whose framework
listeners do nothing for a person. Judged by Chrome's accessibility tree (test_patterns.py's
oracle) and by the page's own state after acting by ID."""

from __future__ import annotations

import re
from typing import Any

from browserx import Client
from tests.e2e.harness import Browser
from tests.e2e.helpers import js
from tests.e2e.test_patterns import act, assert_clean, compare_with_chrome, go, observe, show

__all__ = ["go"]  # the fixture, shared with test_patterns.py

SELECTS = "patterns-vue-select.html"
GRIDS = "patterns-grid-cells.html"


def test_select_fields_with_a_transparent_focus_input_are_comboboxes(
    browser: Browser, bx: Client, go: Any
) -> None:
    tab = go(SELECTS)
    obs = observe(bx, tab, SELECTS)
    compare_with_chrome(obs, browser.driver)
    for name, value in [("Quiet from", "22:00"), ("Quiet until", "07:00"), ("Digest frequency", "Weekly"),
                        ("Time zone", "Europe/Paris")]:  # fmt: skip
        found = obs.one(name, "combobox")
        obs.expect(
            found.get("value") == value and found.get("expanded") is False and "readonly" not in found,
            f"{name!r}: the field stands for its select (value {value!r}, collapsed): {show(found, obs.text)}",
        )
        obs.expect(
            found["tag"] in ("div",), f"{name!r} is the field a person clicks: {show(found, obs.text)}"
        )
    # Acting on it clicks the field: the select's menu opens, an option is chosen.
    quiet = obs.one("Quiet from", "combobox")
    act(obs, "click combobox 'Quiet from'", lambda: bx.click(quiet["id"], tab=tab))
    opened = observe(bx, tab, f"{SELECTS} (Quiet from open)")
    compare_with_chrome(opened, browser.driver)
    opened.expect(opened.one("Quiet from", "combobox").get("expanded") is True, "'Quiet from' shows expanded")
    option = opened.one("23:00", "option")
    act(opened, "click option '23:00'", lambda: bx.click(option["id"], tab=tab))
    assert_clean(obs, opened)
    assert js(browser, "window.chosen.from") == "23:00"
    after = observe(bx, tab, f"{SELECTS} (23:00 chosen)")
    after.expect(after.one("Quiet from", "combobox").get("value") == "23:00", "the new value shows")
    assert_clean(after)


def test_containers_whose_listeners_do_nothing_for_a_person_are_text(
    browser: Browser, bx: Client, go: Any
) -> None:
    tab = go(SELECTS)
    obs = observe(bx, tab, SELECTS)
    assert js(browser, "document.querySelector('.md')._vei.onClick !== undefined")  # they do listen
    for words in ("Notification settings", "channels", "rules", "muted", "About quiet hours",
                  "During quiet hours", "Applies to push", "Digests summarise", "Weekly digests arrive"):  # fmt: skip
        listed = [c for c in obs.controls if words in str(c.get("name", ""))]
        obs.expect(not listed, f"{words!r} is text, not a control: {[show(c, obs.text) for c in listed]}")
        lines = [line for line in obs.text.splitlines() if words in line]
        obs.expect(
            bool(lines) and not any("[" in line for line in lines), f"{words!r} prints as text: {lines}"
        )
    # The link inside a pane stays a control.
    obs.one("digest guide", "link")
    assert_clean(obs)


def test_grid_cell_checkboxes_keep_their_ids_states_and_clicks(browser: Browser, bx: Client, go: Any) -> None:
    tab = go(GRIDS)
    obs = observe(bx, tab, GRIDS)
    compare_with_chrome(obs, browser.driver)
    select_all = obs.one("Select all runs", "checkbox")
    for run in ("run-41", "run-42"):
        obs.one(f"Select {run}", "checkbox")
    listed = [
        c for c in obs.controls if "Pin" in str(c.get("name", "")) or c.get("name") in ("run-41", "run-42")
    ]
    obs.expect(not listed, f"the hidden 'Pin run' checkboxes stay out: {[show(c, obs.text) for c in listed]}")
    obs.expect("Pin run" not in obs.text, "'Pin run' (visibility: hidden) is nowhere in the text view")
    act(obs, "click 'Select all runs'", lambda: bx.click(select_all["id"], tab=tab))
    assert_clean(obs)
    assert js(
        browser, "[...document.querySelectorAll('.ag-row .ag-checkbox-input')].map((b) => b.checked)"
    ) == [
        True,
        True,
    ]
    assert js(browser, "[...document.querySelectorAll('.pin-native')].some((b) => b.checked)") is False
    after = observe(bx, tab, f"{GRIDS} (all selected)")
    compare_with_chrome(after, browser.driver)
    for name in ("Select all runs", "Select run-41", "Select run-42"):
        after.expect(after.one(name, "checkbox").get("checked") is True, f"{name!r} shows checked")
    one = after.one("Select run-42", "checkbox")
    act(after, "click 'Select run-42'", lambda: bx.click(one["id"], tab=tab))
    assert_clean(after)
    assert js(browser, "document.querySelectorAll('.ag-row .ag-checkbox-input')[1].checked") is False
    last = observe(bx, tab, f"{GRIDS} (run-42 unselected)")
    compare_with_chrome(last, browser.driver)
    last.expect(last.one("Select all runs", "checkbox").get("checked") == "mixed", "select-all shows mixed")
    assert_clean(last)


def test_hover_revealed_row_actions_are_listed_and_clicked_after_a_hover(
    browser: Browser, bx: Client, go: Any
) -> None:
    tab = go(GRIDS)
    browser.driver.execute_script("""
      for (const b of document.querySelectorAll('.q-btn')) b.addEventListener('click', () => {
        window.hovered = b.closest('tr').matches(':hover');
      });""")
    obs = observe(bx, tab, GRIDS)
    compare_with_chrome(obs, browser.driver)  # 'Archive everything' (transparent, no hover rule) is out
    for name in ("Rerun nightly-build", "Delete nightly-build", "Rerun deploy-docs", "Delete deploy-docs"):
        found = obs.one(name, "button")
        obs.expect(found.get("on_hover") is True, f"{name!r} says it shows on hover: {show(found, obs.text)}")
        obs.expect("shows on hover" in show(found, obs.text), f"{name!r} text line: {show(found, obs.text)}")
    for name in ("Select nightly-build", "Select run-41"):
        obs.expect("on_hover" not in obs.one(name), f"{name!r} is always shown")
    rerun = obs.one("Rerun deploy-docs", "button")
    act(obs, "click 'Rerun deploy-docs'", lambda: bx.click(rerun["id"], tab=tab))
    assert_clean(obs)
    assert js(browser, "window.fired") == ["Rerun deploy-docs"]
    assert js(browser, "window.hovered") is True  # the row was hovered when the click landed


def test_filter_matches_a_control_inside_a_row_line(bx: Client, go: Any) -> None:
    tab = go(GRIDS)
    text = bx.snapshot(tab=tab, filter="tr:nth-child(2) .q-checkbox")["text"]
    rows = [line for line in text.splitlines() if re.search(r"\[\d+\] checkbox Select deploy-docs", line)]
    assert len(rows) == 1, text
    assert "deploy-docs | ben" in rows[0], text  # the whole row line, with its control's ID
    assert "nightly-build" not in text, text
