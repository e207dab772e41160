"""Waiting for one CDP event of a tab (a file chooser opening, a drag the browser intercepted)
around the command that causes it: listening starts before the command is sent, so the event
cannot slip by, and stops when the block ends, whatever happens in it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

import msgspec

from browserx.relay.protocol import Inbound
from browserx.relay.session import TabSession


@contextmanager
def first_event(
    session: TabSession, method: str, session_id: str | None = None
) -> Iterator[asyncio.Future[msgspec.Raw]]:
    """A future of the params of the first ``method`` event of frame session ``session_id``
    (None: the tab's own) that comes while the block runs."""
    seen: asyncio.Future[msgspec.Raw] = asyncio.get_running_loop().create_future()

    def on_event(msg: Inbound) -> None:
        if msg.method == method and msg.sessionId == session_id and not seen.done():
            seen.set_result(msg.params)

    stop_listening = session.add_listener(on_event)
    try:
        yield seen
    finally:
        stop_listening()
        seen.cancel()  # (nobody waits on it once the block is over)


__all__ = ["first_event"]
