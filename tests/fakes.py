"""Fakes shared by the unit tests: a connection to the extension that answers CDP commands with
a test's function, and a real ``Tab`` (session, capture state, snapshots) on top of it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from browserx.errors import BrowserxError
from browserx.relay.protocol import Inbound
from browserx.tabs.tab import Tab

Answer = Callable[[str, dict[str, Any], str | None], Any]


class FakeConnection:
    """What a Tab needs of ExtensionConnection: attach, CDP commands (answered by ``answer``;
    every one is logged in ``calls``), failing a tab's pending requests."""

    def __init__(self, answer: Answer | None = None) -> None:
        self.answer: Answer = answer or (lambda method, params, session_id: {})
        self.calls: list[tuple[str, str | None]] = []
        self.failed: list[BrowserxError] = []

    async def request(self, type: str, timeout: float | None = None, **fields: Any) -> Inbound:
        self.calls.append((type, None))
        return Inbound(type="reply")

    async def cdp(
        self,
        tab_id: int,
        method: str,
        params: dict[str, Any] | None = None,
        session_id: str | None = None,
        timeout: float | None = None,
        *,
        result_type: type[Any] = dict,
        keep: dict[str, Any] | None = None,
    ) -> Any:
        self.calls.append((method, session_id))
        return self.answer(method, params or {}, session_id)

    async def cdp_batch(
        self, tab_id: int, commands: list[tuple[str, dict[str, Any]]], session_id: str | None = None
    ) -> list[Any]:
        return [self.answer(method, params, session_id) for method, params in commands]

    def fail_tab(self, tab_id: int, exc: BrowserxError) -> None:
        self.failed.append(exc)


def fake_tab(answer: Answer | None = None, tab_id: int = 1) -> tuple[Tab, FakeConnection]:
    """A Tab over a FakeConnection (attached on its first command, as a real one is)."""
    conn = FakeConnection(answer)
    return Tab(tab_id, conn), conn  # type: ignore[arg-type]


def emit(
    tab: Tab, method: str, params: bytes | dict[str, Any] = b"{}", session_id: str | None = None
) -> None:
    """Deliver a CDP event to the tab, as the registry does."""
    raw = params if isinstance(params, bytes) else json.dumps(params).encode()
    tab.session.handle_event(Inbound(type="event", tabId=tab.tab_id, sessionId=session_id, method=method,
                                     params=raw))  # type: ignore[arg-type]  # fmt: skip
