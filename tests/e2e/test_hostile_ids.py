"""Never act on another element (issue 20, item 1), against a hostile page that changes under the
agent (tests/fixtures/pages/act-hostile-swap.html, driven by its page functions so the test
controls when): swaps, re-renders in place, re-ordered rows, lookalikes in other landmarks, and a
layout shift between the hit test and the mouse event. Every ID-taking action tool declared in
control/tools.py is tried, so a new one is covered the day it is declared; the page's own state
(``acted``, ``deleted``, the title, read through Selenium) proves what was and was not touched."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browserx import Client
from browserx.control.tools import TOOLS
from browserx.errors import Occluded, StaleElement
from tests.e2e.harness import UPLOADS, Browser, Servers
from tests.e2e.helpers import js, open_page

PAGE = "act-hostile-swap.html"
# Every agent action that takes an element ID (a new tool with an ``id`` joins by itself).
ID_TOOLS = [t.name for t in TOOLS if t.acts and "id" in t.params.model_fields]
# What each tool needs besides the ID, and the kind of control it acts on (default: a button).
ARGS: dict[str, dict[str, Any]] = {
    "type": {"text": "yes"},
    "select": {"value": "Yes"},
    "key": {"key": "Enter"},
    "scroll": {"direction": "down"},
    "upload": {"paths": [str(UPLOADS / "note.txt")]},
    "drag": {"x": 5, "y": 5},
}
KIND = {"type": "textbox", "select": "combobox", "check": "checkbox"}
FILE_TOOLS = {"upload"}  # act on the file input (a button too, of type file)


def test_every_id_taking_action_tool_is_covered() -> None:
    assert {"click", "type", "select", "check", "hover", "scroll", "key"} <= set(ID_TOOLS)


@pytest.fixture
def tab(browser: Browser, bx: Client, servers: Servers) -> Iterator[int]:
    yield open_page(browser, bx, servers.url(PAGE))


def ids_of(bx: Client, tab: int, name: str) -> list[dict[str, Any]]:
    """Every control named ``name`` in a fresh json snapshot, in document order (id, role)."""
    out: list[dict[str, Any]] = []

    def walk(node: dict[str, Any]) -> None:
        if "id" in node and node.get("name") == name:
            out.append(node)
        for child in node.get("children", []):
            walk(child)

    walk(bx.snapshot(tab=tab, format="json")["json"]["page"]["body"])
    return out


def confirm_id(bx: Client, tab: int, tool: str) -> int:
    role = KIND.get(tool, "button")
    found = [
        n
        for n in ids_of(bx, tab, "Confirm")
        if n.get("role") == role and (n.get("type") == "file") == (tool in FILE_TOOLS)
    ]
    assert len(found) == 1, found
    return int(found[0]["id"])


def act(bx: Client, tool: str, element_id: int, tab: int) -> dict[str, Any]:
    result: dict[str, Any] = bx.call(tool, id=element_id, tab=tab, **ARGS.get(tool, {}))
    return result


@pytest.mark.parametrize("tool", ID_TOOLS)
def test_the_old_confirm_answers_stale_id_and_no_account_is_deleted(
    browser: Browser, bx: Client, tab: int, tool: str
) -> None:
    old = confirm_id(bx, tab, tool)
    js(browser, "swap()")  # the form goes; a "Delete account" dialog with a Confirm comes
    with pytest.raises(StaleElement) as err:
        act(bx, tool, old, tab)
    # The candidates are listed, with their new IDs and where they are, for the agent to choose.
    candidates = err.value.details["candidates"]
    assert candidates and all('in dialog "Delete account"' in c["context"] for c in candidates)
    assert all(c["id"] != old for c in candidates)  # the old ID did not move to the lookalike
    assert 'in dialog "Delete account"' in err.value.message
    assert js(browser, "[window.deleted, document.title]") == [False, "Account"]
    assert js(browser, "acted.filter(a => a[0] === 'dialog' && a[1] !== 'focus')") == []


@pytest.mark.parametrize("tool", ID_TOOLS)
def test_a_re_render_in_place_heals_and_acts_on_the_same_control(
    browser: Browser, bx: Client, tab: int, tool: str
) -> None:
    old = confirm_id(bx, tab, tool)
    js(browser, "rerender()")  # the same controls made again, in the same form, same place
    result = act(bx, tool, old, tab)
    assert result["success"] is True and result["recovered_from"] == old
    assert js(browser, "window.deleted") is False


def test_re_ordered_rows_never_hit_another_rows_button(browser: Browser, bx: Client, tab: int) -> None:
    deletes = ids_of(bx, tab, "Delete")
    bob = int(deletes[1]["id"])
    js(browser, "rows(['Carol', 'Bob', 'Alice'])")  # re-created, re-ordered
    bx.click(bob, tab=tab)  # healed to the row that still says "Bob", or refused
    js(browser, "rows(['Carol', 'Alice', 'Dave'])")
    carol_first = int(ids_of(bx, tab, "Delete")[0]["id"])
    js(browser, "rows(['Alice', 'Dave', 'Carol'])")  # Carol's row moved: her button follows her
    bx.click(carol_first, tab=tab)
    js(browser, "rows(['Erin', 'Frank', 'Gina'])")
    with pytest.raises(StaleElement):  # no row says Carol any more: nothing to heal to
        bx.click(carol_first, tab=tab)
    assert js(browser, "acted.filter(a => a[0] === 'row')") == [["row", "Bob"], ["row", "Carol"]]


def test_a_lookalike_in_another_landmark_is_not_the_control(browser: Browser, bx: Client, tab: int) -> None:
    saves = ids_of(bx, tab, "Save")
    assert len(saves) == 2
    nav_save = int(saves[0]["id"])
    js(browser, "document.getElementById('nav-save').remove()")
    with pytest.raises(StaleElement) as err:
        bx.click(nav_save, tab=tab)
    assert [c["id"] for c in err.value.details["candidates"]] == [int(saves[1]["id"])]
    assert 'in main "Editor"' in err.value.message
    assert js(browser, "acted") == []


def test_a_layout_shift_at_dispatch_is_caught_and_retried_once(
    browser: Browser, bx: Client, tab: int
) -> None:
    keep = int(ids_of(bx, tab, "Keep")[0]["id"])
    result = bx.click(keep, tab=tab)  # "Erase" jumps under the pointer as it arrives: once
    assert result["success"] is True
    assert js(browser, "[acted, window.deleted]") == [[["keep", "click"]], False]


def test_a_page_that_keeps_shifting_gets_no_click(browser: Browser, bx: Client, tab: int) -> None:
    keep = int(ids_of(bx, tab, "Keep")[0]["id"])
    js(browser, "shiftAlways = true")
    with pytest.raises(Occluded) as err:
        bx.click(keep, tab=tab)
    assert err.value.details.get("intercepted") is True and "nothing was clicked" in err.value.message
    assert js(browser, "[acted, window.deleted]") == [[], False]
