"""Visual feedback in the page: a ripple where the pointer acts, drawn by the host itself in
browserx's isolated world of the tab's top document (effects.js), so no content script runs on
any site. Fire and forget — an effect must never slow down or break an action."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from browserx import page_js
from browserx.tabs.tab import Tab

EFFECT_BUDGET_S = 0.05
EFFECTS_JS = page_js.load("browserx.actions", "effects.js")
# One function for CDP: the file's two declarations, then the call.
EFFECT_CALL_JS = "function(msg) {\n" + EFFECTS_JS + "\nreturn effect(msg);\n}"
_pending: set[asyncio.Task[Any]] = set()  # keep references until the replies arrive


def effects_enabled() -> bool:
    return os.environ.get("BROWSERX_EFFECTS", "1") != "0"


def _done(task: asyncio.Task[Any]) -> None:
    _pending.discard(task)
    if not task.cancelled():
        task.exception()  # retrieve it, so asyncio does not log "never retrieved"


async def draw(tab: Tab, effect: dict[str, Any], wait: bool = True) -> None:
    """Draw one effect ({kind: cursor | ripple | highlight | clear, x, y, ...}) in top-level
    viewport coordinates; skipped when the top document's world is not known yet."""
    world = tab.capture.worlds.get(None)
    if not effects_enabled() or world is None:
        return
    task = asyncio.ensure_future(
        tab.session.cdp(
            "Runtime.callFunctionOn",
            {
                "functionDeclaration": EFFECT_CALL_JS,
                "executionContextId": world[1],
                "arguments": [{"value": effect}],
            },
        )
    )
    _pending.add(task)
    # Never cancelled (a cancelled send could cut a frame in half); its outcome is ignored.
    task.add_done_callback(_done)
    if wait:
        await asyncio.wait({task}, timeout=EFFECT_BUDGET_S)


async def ripple(tab: Tab, x: float, y: float) -> None:
    """Not waited for: the renderer draws it before the click that follows, in order."""
    await draw(tab, {"kind": "ripple", "x": x, "y": y}, wait=False)
