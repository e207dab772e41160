"""Visual feedback in the page (the content script draws it): a ripple where the pointer acts.
Fire and forget — an effect must never slow down or break an action."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from browserx.service import DomService

EFFECT_BUDGET_S = 0.05
_pending: set[asyncio.Task[Any]] = set()  # keep references until the replies arrive


def effects_enabled() -> bool:
    return os.environ.get("BROWSERX_EFFECTS", "1") != "0"


def _done(task: asyncio.Task[Any]) -> None:
    _pending.discard(task)
    if not task.cancelled():
        task.exception()  # retrieve it, so asyncio does not log "never retrieved"


async def ripple(service: DomService, x: float, y: float) -> None:
    if not effects_enabled():
        return
    task = asyncio.ensure_future(
        service.conn.request("effect", tabId=service.tab_id, effect={"kind": "ripple", "x": x, "y": y})
    )
    _pending.add(task)
    # Never cancelled (a cancelled send could cut a frame in half); its outcome is ignored.
    task.add_done_callback(_done)
    await asyncio.wait({task}, timeout=EFFECT_BUDGET_S)
