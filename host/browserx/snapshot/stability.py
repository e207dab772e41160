"""Stability wait before a snapshot (seed 002 §12): one awaitPromise round trip per frame that
resolves when the DOM has had no mutations for ``quiet_ms`` (max ``timeout_ms``; optionally also
network idle), and drains the page events the watcher recorded (snapshot/page_watch.py). Child
frames are only drained, in parallel."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec
import structlog

from browserx.errors import BrowserxError
from browserx.service import DomService
from browserx.snapshot.capture import WORLD_NAME, isolated_world
from browserx.snapshot.page_watch import EARLY_WATCH_JS, SETTLE_JS

log = structlog.get_logger("browserx.stability")


@dataclass
class Settled:
    waited_ms: float = 0.0
    stable: bool = True
    events: list[tuple[dict[str, Any], float]] = field(default_factory=list)  # (raw event, page now ms)
    problems: list[str] = field(default_factory=list)


async def _watch_new_documents(service: DomService, session_id: str | None) -> None:
    """From now on, run the page watcher in browserx's world of every new document of this
    session as it starts (the world is shared by name with the one captures use): the first
    snapshot after a navigation then knows when the DOM last changed, instead of watching for
    ``quiet_ms`` first, and page events from the document's first moment are kept. The
    current document gets the watcher at its first settle, as before."""
    if session_id in service.watched_sessions:
        return
    service.watched_sessions.add(session_id)  # tried once per attachment, whatever the outcome
    try:
        await service.cdp(
            "Page.addScriptToEvaluateOnNewDocument",
            {"source": EARLY_WATCH_JS, "worldName": WORLD_NAME},
            session_id=session_id,
        )
    except BrowserxError as exc:  # e.g. an older extension that does not allow it: watch as before
        log.warning("watch_new_documents_failed", session=session_id, error=str(exc))


async def _settle_frame(
    service: DomService, session_id: str | None, quiet_ms: int, timeout_ms: int, network_idle: bool
) -> dict[str, Any]:
    await _watch_new_documents(service, session_id)
    _, ctx = await isolated_world(service, session_id)
    reply = await service.cdp(
        "Runtime.callFunctionOn",
        {"functionDeclaration": SETTLE_JS, "executionContextId": ctx, "awaitPromise": True,
         "returnByValue": True, "arguments": [{"value": quiet_ms}, {"value": timeout_ms}, {"value": network_idle}]},
        session_id=session_id, timeout=timeout_ms / 1000 + 5,
    )  # fmt: skip
    if reply.get("exceptionDetails"):
        raise BrowserxError(str(reply["exceptionDetails"].get("text", "settle failed")))
    value = reply["result"].get("value")
    result: dict[str, Any] = msgspec.json.decode(value) if isinstance(value, str) else {}
    return result


async def settle(
    service: DomService,
    *,
    wait: bool = True,
    quiet_ms: int = 300,
    timeout_ms: int = 3000,
    network_idle: bool = False,
) -> Settled:
    """Wait for the main frame to be stable (unless ``wait`` is False) and drain every frame's
    page events. Best effort: a frame that cannot be reached is reported, not fatal."""
    sessions: list[str | None] = [None, *(sid for sid, t in service.sessions.items() if t.type == "iframe")]
    t0 = time.perf_counter()
    replies = await asyncio.gather(
        *(
            _settle_frame(service, sid, quiet_ms if wait and sid is None else 0,
                          timeout_ms if wait and sid is None else 0, network_idle and wait and sid is None)
            for sid in sessions
        ),
        return_exceptions=True,
    )  # fmt: skip
    out = Settled()
    for sid, reply in zip(sessions, replies, strict=True):
        if isinstance(reply, BaseException):
            if not isinstance(reply, BrowserxError | TimeoutError):
                raise reply
            log.warning("settle_failed", session=sid, error=str(reply))
            out.problems.append(f"page watch unavailable in {'main frame' if sid is None else sid}: {reply}")
            continue
        now = float(reply.get("now") or 0)
        out.events.extend((event, now) for event in reply.get("events") or [])
        if sid is None:
            out.waited_ms = float(reply.get("waited") or 0) if wait else 0.0
            out.stable = bool(reply.get("stable", True))
    if wait and out.problems:
        out.waited_ms = (time.perf_counter() - t0) * 1000
    return out
