"""Scroll containers are part of the page (issue 21, item 2), for real: an app shell whose document
never scrolls (tests/fixtures/pages/app-scroll-shell.html: a fixed-height shell with overflow:
hidden, a scrolling <main> holding cards, tabs, a form, a nested scrolling list, a carousel and a
wide table below its fold, and a chat pane opened at its newest message, with the older ones
above). Everything a person reaches by scrolling a container is listed with an ID and marked
where it is, the budgeted view says how to reach what it leaves out, viewport_only keeps to what
is in view, and acting on an element below an inner fold scrolls it in and lands (judged by the
page's own state). Content clipped by boxes that do not scroll stays out."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browserx import Client
from browserx.views.text import parse_controls
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import controls, js, open_page

PAGE = "app-scroll-shell.html"

# Where each button is in the page, by the boxes the browser draws: the innermost of the
# named scroll containers whose box it lies wholly outside of, and on which side.
TRUTH_JS = r"""
const R = (el) => el.getBoundingClientRect();
const apart = (a, b) => a.right <= b.left || a.bottom <= b.top || a.left >= b.right || a.top >= b.bottom;
const side = (a, b) => a.bottom <= b.top ? "above" : a.top >= b.bottom ? "below" : a.right <= b.left ? "left" : "right";
const out = {};
for (const b of document.querySelectorAll("button")) {
  const box = R(b);
  let where = null;
  for (let s = b.parentElement; s; s = s.parentElement) {
    if (!["main", "files", "carousel", "wide", "messages"].includes(s.id)) continue;
    if (apart(box, R(s))) { where = [side(box, R(s)), s.id]; break; }
  }
  out[b.textContent.trim()] = where;
}
return out;
"""

BELOW_MAIN = ["Apply filters", "Open slide 1", "Delete dashboard"]
HIDDEN = ["Clipped away button", "Clipped sideways button"]


def _zones(text: str) -> dict[str, str]:
    """Control name → the marker zone its line is in ("in view", "below in scroll container 6")."""
    zone, out = "in view", dict[str, str]()
    for line in text.splitlines():
        marker = re.fullmatch(r"\s*-- (.*) --", line)
        if marker:
            zone = marker.group(1)
            continue
        for _, name in parse_controls(line).values():
            out.setdefault(name, zone)
    return out


def _ids(text: str) -> dict[str, int]:
    return {name: i for i, (_, name) in parse_controls(text).items()}


def _containers(bx: Client, tab: int) -> dict[str, int]:
    """Page id of each scroll container → its browserx ID (json view, boxes matched by role)."""
    body = bx.snapshot(tab=tab, format="json", max_tokens=0)["json"]["page"]["body"]
    found: list[dict[str, Any]] = []

    def walk(node: dict[str, Any]) -> None:
        if "scroll" in node and "id" in node:
            found.append(node)
        for child in node.get("children", []):
            walk(child)

    walk(body)
    names = {n.get("name", ""): n["id"] for n in found}
    unnamed = [n["id"] for n in found if not n.get("name")]
    # The fixture's order: main, files, carousel, wide, messages; the named ones by name.
    assert len(found) == 5, found
    return {"main": unnamed[0], "files": names["Recent files"], "carousel": names["Highlights"],
            "wide": unnamed[1], "messages": unnamed[2]}  # fmt: skip


@pytest.mark.parametrize("variant", ["", "?html-visible"])
def test_the_whole_page_lists_what_every_scroll_container_scrolls_to(
    browser: Browser, bx: Client, servers: Servers, variant: str
) -> None:
    tab = open_page(browser, bx, servers.url(PAGE + variant))
    assert js(browser, "document.scrollingElement.scrollHeight <= innerHeight")  # the document never scrolls
    ids = _containers(bx, tab)
    truth = browser.driver.execute_script(TRUTH_JS)
    for text in (bx.snapshot(tab=tab, max_tokens=0)["text"], bx.snapshot(tab=tab)["text"]):
        listed, zones = _ids(text), _zones(text)
        for name in HIDDEN:  # clipped by boxes that do not scroll: nobody sees them
            assert name not in listed, text
        for name, where in truth.items():
            if name in HIDDEN:
                continue
            assert name in listed, (name, text)
            if where is None:
                assert zones[name] == "in view" or "scroll container" not in zones[name], (name, text)
            elif where[1] == "wide":  # a table row is one line, and the line is where the row is
                assert zones[name] == f"below in scroll container {ids['main']}", (name, text)
            else:
                assert zones[name] == f"{where[0]} in scroll container {ids[where[1]]}", (name, where, text)
        # The cases the issue names, spelled out.
        for name in BELOW_MAIN:
            assert zones[name] == f"below in scroll container {ids['main']}", (name, text)
        assert zones["Open file 12"] == f"below in scroll container {ids['files']}", text
        assert zones["Open slide 5"] == f"right in scroll container {ids['carousel']}", text
        assert zones["Reply to 1"] == f"above in scroll container {ids['messages']}", text
        assert zones["Refresh data"] == "in view" and zones["Send"] == "in view", text
    # The json view places each control itself, the one in a row too.
    positions = {name: node.get("position") for name, node in controls(bx, tab).items()}
    for name, where in truth.items():
        if name not in HIDDEN:
            expected = None if where is None else {"offscreen": where[0], "scroll_container": ids[where[1]]}
            assert positions[name] == expected, (name, positions[name], where)


def test_viewport_only_and_the_budget_say_how_to_reach_an_inner_fold(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url(PAGE))
    ids = _containers(bx, tab)
    seen = bx.snapshot(tab=tab, viewport_only=True)["text"]
    listed = _ids(seen)
    assert "Refresh data" in listed and "Europe" in listed and "Reply to 19" in listed, seen
    for name in ("Apply filters", "Open file 1", "Open slide 1", "Delete dashboard", "Reply to 1"):
        assert name not in listed, (name, seen)
    main = ids["main"]
    assert f"below in scroll container {main} — scroll container {main} to see them" in seen, seen
    assert f"above in scroll container {ids['messages']}" in seen, seen
    budget = bx.snapshot(tab=tab, max_tokens=600, stats=True)
    text = budget["text"]
    assert budget["stats"]["tokens"] <= 600, budget["stats"]
    assert "Refresh data" in _ids(text), text
    assert "Delete dashboard" not in _ids(text), text
    assert re.search(
        rf"… .*\bbuttons?\b.* below in scroll container {main} — scroll container {main} to see them", text
    ), text


def test_acting_below_an_inner_fold_scrolls_it_in_and_lands(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url(PAGE))
    text = bx.snapshot(tab=tab, max_tokens=0)["text"]
    ids = _ids(text)
    assert js(browser, "document.getElementById('main').scrollTop") == 0
    typed = bx.type_text(ids["From"], "2024-01-01", tab=tab)
    assert typed["success"], typed
    clicked = bx.click(ids["Apply filters"], tab=tab)
    assert clicked["success"], clicked
    assert js(browser, "document.getElementById('applied').textContent") == "Applied: 2024-01-01"
    assert js(browser, "document.getElementById('main').scrollTop") > 0
    # Nested: below the fold of a list that is itself below main's fold.
    assert bx.click(ids["Open file 12"], tab=tab)["success"]
    assert js(browser, "document.getElementById('last-state').textContent") == "Opened file 12"
    # Sideways in a carousel, and above the fold of a chat opened at its newest message.
    assert bx.click(ids["Open slide 5"], tab=tab)["success"]
    assert js(browser, "document.getElementById('carousel').scrollLeft") > 0
    assert bx.click(ids["Reply to 1"], tab=tab)["success"]
    assert js(browser, "document.getElementById('msg').value") == "@1 "
    assert bx.click(ids["Delete dashboard"], tab=tab)["success"]
    assert js(browser, "document.getElementById('last-state').textContent") == "Dashboard deleted"
    # What scrolled in is now in view.
    seen = _ids(bx.snapshot(tab=tab, viewport_only=True)["text"])
    assert "Delete dashboard" in seen and "Refresh data" not in seen


def test_scroll_on_the_container_and_to_an_element_inside_it(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url(PAGE))
    ids = _containers(bx, tab)
    scrolled = bx.scroll(ids["main"], tab=tab)
    assert scrolled["success"], scrolled
    top = js(browser, "document.getElementById('main').scrollTop")
    assert top > 300, top
    seen = _ids(bx.snapshot(tab=tab, viewport_only=True)["text"])
    assert "Apply filters" in seen and "Refresh data" not in seen, seen
    # An element below the fold of a list below main's fold: both scroll.
    whole = _ids(bx.snapshot(tab=tab, max_tokens=0)["text"])
    assert bx.scroll(tab=tab, to_id=whole["Open file 12"])["success"]
    inside = browser.driver.execute_script(
        "const b = [...document.querySelectorAll('#files button')].pop().getBoundingClientRect();"
        "const f = document.getElementById('files').getBoundingClientRect();"
        "const m = document.getElementById('main').getBoundingClientRect();"
        "return b.top >= f.top - 1 && b.bottom <= f.bottom + 1 && f.top >= m.top - 1 && f.bottom <= m.bottom + 1"
    )
    assert inside
    assert "Open file 12" in _ids(bx.snapshot(tab=tab, viewport_only=True)["text"])
    # Scrolling a container out of view (the carousel below the fold) brings it in first.
    bx.scroll(ids["main"], tab=tab, direction="up", amount=5000)
    assert bx.scroll(ids["carousel"], tab=tab, direction="right")["success"]
    assert js(browser, "document.getElementById('carousel').scrollLeft") > 0
    assert "Open slide 4" in _ids(bx.snapshot(tab=tab, viewport_only=True)["text"])
