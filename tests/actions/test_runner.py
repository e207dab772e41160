"""The action frame: structured failures, and the cached snapshot invalidated after every
action whether it succeeded or failed (a real Tab over a fake connection, no browser)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from browserx.actions import page_changes
from browserx.actions.runner import ActionContext, perform
from browserx.errors import Occluded
from browserx.tabs.tab import Tab
from tests.builders import recorded, snapshot_of
from tests.fakes import FakeConnection, emit, fake_tab


def page(method: str, params: dict[str, Any], session_id: str | None) -> dict[str, Any]:
    """A page whose DOM changes three times while an action runs, at http://x/."""
    if method == "Page.getFrameTree":
        return {"frameTree": {"frame": {"id": "F"}}}
    if method == "Page.createIsolatedWorld":
        return {"executionContextId": 5}
    if any(
        params.get("functionDeclaration") in (s.source, s.whole)
        for s in (page_changes.READ_JS, page_changes.PEEK_JS)
    ):
        return {"result": {"value": [3, "http://x/"]}}
    return {"result": {"value": "http://x/"}}


def tab_with_snapshot() -> tuple[Tab, FakeConnection]:
    tab, conn = fake_tab(page)
    tab.place_snapshot(snapshot_of(recorded("hello")))
    return tab, conn


def settled(conn: FakeConnection) -> bool:
    """Whether the page's reaction was awaited (the settle script), not a fixed sleep."""
    declarations = [params.get("functionDeclaration") for _, params in conn.sent]
    return page_changes.SETTLE_JS.source in declarations


def test_success_counts_mutations_and_invalidates() -> None:
    tab, conn = tab_with_snapshot()

    async def body(ctx: ActionContext) -> None:
        pass

    result = asyncio.run(perform(tab, "click", 4, body))
    assert result.success and result.error is None and result.changes.dom_mutations == 3
    assert result.changes.navigated is False
    assert tab.snapshot is None and tab.session._listeners == [tab._on_event]  # the action's are gone
    assert settled(conn)
    assert ("Network.enable", None) in conn.calls and result.network is not None


def test_failure_is_structured_and_still_invalidates() -> None:
    tab, _ = tab_with_snapshot()

    async def body(ctx: ActionContext) -> None:
        raise Occluded("covered by div#overlay", covered_by="div#overlay")

    result = asyncio.run(perform(tab, "click", 4, body))
    assert not result.success and result.error is not None
    assert result.error.code == "occluded" and result.error.details == {"covered_by": "div#overlay"}
    assert tab.snapshot is None
    with pytest.raises(Occluded):
        result.raise_for_error()


def test_navigation_events_are_reported() -> None:
    tab, _ = fake_tab(page)

    async def body(ctx: ActionContext) -> None:
        ctx.settle = False
        emit(tab, "Page.frameNavigated", b'{"frame": {"id": "F", "url": "http://y/"}}')

    result = asyncio.run(perform(tab, "click", 4, body))
    assert result.changes.navigated is True
    assert result.changes.new_url == "http://x/"  # read from the page after the action
