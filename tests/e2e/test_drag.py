"""drag end to end, judged by the page's own state (its lists' order, what its handlers logged):
an HTML5 list, a kanban board moved by pointer events and a pin dropped at a point, written as
page authors do (tests/fixtures/pages/drag.html); then third-party libraries from npm served
locally — SortableJS in its HTML5 mode and in its pointer mode across two lists, jQuery UI's
sortable (tests/e2e/apps/static/sortable.html)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from browserx import Client
from browserx.errors import BadRequest
from tests.e2e.apps.corpus import serve_static
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import id_of, js, open_page


@pytest.fixture(scope="module")
def library_base() -> Iterator[str]:
    with serve_static() as base:
        yield base


def test_an_html5_list_reorders_with_the_dragged_items_data(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("drag.html"))
    result = bx.drag(id_of(bx, tab, "Alpha"), id_of(bx, tab, "Delta"), tab=tab)
    assert js(browser, "[...document.querySelectorAll('#native li')].map(l => l.textContent)") == [
        "Bravo", "Charlie", "Delta", "Alpha",
    ]  # fmt: skip
    # The page's drop handler read the data its dragstart put in (the browser's drag data carried).
    assert js(browser, "window.dropped") == [{"kind": "html5", "text": "Alpha", "on": "Delta"}]
    drag = result["drag"]
    assert drag["html5"] is True and drag["moved"] is True and drag["index"] == [0, 3]
    assert "Delta" in drag["to"] and result["changes"]["dom_mutations"] >= 1


def test_a_card_moves_between_columns_by_pointer_events(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("drag.html"))
    result = bx.drag(id_of(bx, tab, "Write report"), id_of(bx, tab, "Pay rent"), tab=tab)
    assert js(browser, "[...document.querySelectorAll('#done .card')].map(c => c.textContent)") == [
        "Pay rent", "Write report",
    ]  # fmt: skip
    logged = js(browser, "window.dropped")
    assert [(e["kind"], e["on"]) for e in logged] == [("pointer", "done")]
    assert logged[0]["moves"] >= 5  # moves along the way, as a person's drag makes
    drag = result["drag"]
    assert drag["html5"] is False and drag["container_changed"] is True and "done" in drag["container"]


def test_a_pin_is_dropped_at_a_point(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("drag.html"))
    left, top = js(browser, "(r => [r.left, r.top])(document.getElementById('pad').getBoundingClientRect())")
    result = bx.drag(id_of(bx, tab, "Pin"), x=left + 200, y=top + 80, tab=tab)
    assert js(browser, "window.dropped") == [{"kind": "mouse", "x": 200, "y": 80}]
    assert result["drag"]["moved"] is True and "Map" in result["drag"]["to"]


def test_bad_drops_are_refused_before_any_input(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("drag.html"))
    alpha = id_of(bx, tab, "Alpha")
    with pytest.raises(BadRequest, match="on itself"):
        bx.drag(alpha, alpha, tab=tab)
    with pytest.raises(BadRequest, match="where to drop"):
        bx.drag(alpha, tab=tab)
    with pytest.raises(BadRequest, match="outside the viewport"):
        bx.drag(alpha, x=5000, y=10, tab=tab)
    assert js(browser, "window.dropped") == []


@pytest.mark.parametrize(
    ("list_id", "source", "onto", "order"),
    [
        ("playlist", "Intro", "Chorus", ["Verse", "Chorus", "Intro", "Bridge"]),  # SortableJS, HTML5
        ("steps", "Plan", "Test", ["Build", "Test", "Plan", "Ship"]),  # jQuery UI, mouse events
    ],
)
def test_third_party_sortable_lists(
    browser: Browser, bx: Client, library_base: str, list_id: str, source: str, onto: str, order: list[str]
) -> None:
    tab = open_page(browser, bx, library_base + "/static/sortable.html")
    result = bx.drag(id_of(bx, tab, source), id_of(bx, tab, onto), tab=tab)
    assert js(browser, f"window.order('{list_id}')") == order
    assert result["drag"]["moved"] is True


def test_a_sortablejs_kanban_in_pointer_mode(browser: Browser, bx: Client, library_base: str) -> None:
    tab = open_page(browser, bx, library_base + "/static/sortable.html")
    result = bx.drag(id_of(bx, tab, "Search"), id_of(bx, tab, "Billing"), tab=tab)
    assert js(browser, "window.order('backlog')") == ["Login page", "Export"]
    assert "Search" in js(browser, "window.order('doing')")
    assert result["drag"]["html5"] is False and result["drag"]["container_changed"] is True
