"""The action frame: structured failures, and the cached snapshot invalidated after every
action whether it succeeded or failed (fake service, no browser)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from browserx.actions.runner import ActionContext, perform
from browserx.errors import Occluded
from browserx.relay.protocol import Inbound


class FakeService:
    tab_id = 1

    def __init__(self) -> None:
        self.invalidated: list[str] = []
        self.worlds: dict[str | None, tuple[str, int]] = {None: ("F", 5)}
        self.frame_ids: dict[str | None, str] = {None: "F"}
        self.worlds_checked: dict[str | None, float] = {}
        self.frames_changed_at = 0.0
        self.key_epoch = 0
        self.key_bases: dict[str | None, int] = {}
        self.calls: list[str] = []
        self._listeners: list[Any] = []

    async def ensure_attached(self) -> None:
        pass

    async def cdp(self, method: str, params: dict[str, Any] | None = None, session_id: str | None = None,
                  timeout: float | None = None) -> dict[str, Any]:  # fmt: skip
        self.calls.append(method)
        if "requestAnimationFrame" in (params or {}).get("expression", ""):
            self.calls.append("settle")  # the page's reaction is awaited, not a fixed sleep
        if method == "Page.createIsolatedWorld":
            return {"executionContextId": 5}
        expr = (params or {}).get("expression", "")
        if "takeRecords" in expr:
            return {"result": {"value": [3, "http://x/"]}}
        return {"result": {"value": "http://x/"}}

    def add_listener(self, listener: Any) -> Any:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def invalidate(self, reason: str) -> None:
        self.invalidated.append(reason)

    def fire_and_forget(self, work: Any) -> Any:
        return asyncio.ensure_future(work)


def test_success_counts_mutations_and_invalidates() -> None:
    service = FakeService()

    async def body(ctx: ActionContext) -> None:
        pass

    result = asyncio.run(perform(service, "click", 4, body))  # type: ignore[arg-type]
    assert result.success and result.error is None and result.changes.dom_mutations == 3
    assert result.changes.navigated is False
    assert service.invalidated == ["action"] and service._listeners == []
    assert "settle" in service.calls


def test_failure_is_structured_and_still_invalidates() -> None:
    service = FakeService()

    async def body(ctx: ActionContext) -> None:
        raise Occluded("covered by div#overlay", covered_by="div#overlay")

    result = asyncio.run(perform(service, "click", 4, body))  # type: ignore[arg-type]
    assert not result.success and result.error is not None
    assert result.error.code == "occluded" and result.error.details == {"covered_by": "div#overlay"}
    assert service.invalidated == ["action"]
    with pytest.raises(Occluded):
        result.raise_for_error()


def test_navigation_events_are_reported() -> None:
    service = FakeService()

    async def body(ctx: ActionContext) -> None:
        ctx.settle = False
        for listener in service._listeners:
            listener(Inbound(type="event", method="Page.frameNavigated",
                             params=b'{"frame": {"id": "F", "url": "http://y/"}}'))  # type: ignore[arg-type]  # fmt: skip

    result = asyncio.run(perform(service, "click", 4, body))  # type: ignore[arg-type]
    assert result.changes.navigated is True
    assert result.changes.new_url == "http://x/"  # read from the page after the action
