"""Running collector.js in one document: the call that lets the page settle (snapshot/stability.py)
and collects it (page/settle_and_collect.js, a member of the page library), in browserx's isolated
world, with the key base a new document takes and the click listeners the collector hit-tests; the
reply decoded into a ``RawFrame`` with whole keys.
"""

from __future__ import annotations

from typing import Any

import msgspec
import structlog

from browserx import page_js
from browserx.errors import PAGE_CALL_ERRORS
from browserx.page.capture_state import CaptureState
from browserx.page.page_call import page_call
from browserx.page.worlds import WORLD_NAME, call_in_world
from browserx.relay.connection import DEFAULT_TIMEOUT
from browserx.snapshot.frames import KEY_BITS, Collected, collector_output
from browserx.snapshot.stability import SettleOptions

log = structlog.get_logger("browserx.capture")

SETTLE_AND_COLLECT_JS = page_js.load("browserx.page", "settle_and_collect.js")


async def watch_new_documents(state: CaptureState, session_id: str | None) -> None:
    """From now on, install the page library in browserx's world of every new document of this
    session as it starts, and start the page watcher there: the first snapshot after a navigation
    then knows when the DOM last changed, instead of watching for ``quiet_ms`` first, and page
    events from the document's first moment are kept. The current document gets both at its
    first settle."""
    if session_id in state.watched_sessions:
        return
    state.watched_sessions.add(session_id)  # tried once per attachment, whatever the outcome
    try:
        await state.session.cdp(
            "Page.addScriptToEvaluateOnNewDocument",
            {"source": page_js.document_start_source(), "worldName": WORLD_NAME},
            session_id=session_id,
        )
    except PAGE_CALL_ERRORS as exc:  # e.g. an older extension that does not allow it: watch as before
        log.warning("watch_new_documents_failed", session=session_id, error=str(exc))


async def collect_document(
    state: CaptureState, session_id: str | None, opts: dict[str, Any], settle: SettleOptions | None
) -> tuple[str, int, Collected]:
    """(frame id, context id, what the collector answered) for the session's top document."""
    settle_args: list[int | bool] = []  # none: CDP passes a null argument as undefined
    timeout = None
    if settle is not None:
        await watch_new_documents(state, session_id)
        settle_args = settle.arguments(main=session_id is None)
        if session_id is None and settle.wait:
            timeout = settle.longest_wait + DEFAULT_TIMEOUT

    async def collect(ctx: int) -> Any:
        # The click listeners of the last capture of this document: the collector hit-tests
        # them with the other elements a person might act on.
        listening = list(state.listener_keys.get((session_id, ctx), {}).values())
        with_base = {**opts, "freshBase": state.fresh_base(session_id, KEY_BITS), "hitTest": True,
                     "listening": listening}  # fmt: skip
        # A page error fails the document's capture (the main frame's: the snapshot), as
        # PageScriptError: there is nothing to show of it.
        return await page_call(
            state.session, SETTLE_AND_COLLECT_JS, with_base, *settle_args,
            world=ctx, session_id=session_id, await_promise=True, timeout=timeout,
        )  # fmt: skip

    frame_id, ctx, value = await call_in_world(state, session_id, collect)
    collected = msgspec.json.decode(collector_output(value, "document"), type=Collected)
    # The collector reports the key base its document's keys count from: the session's reserved
    # fresh base when the document is new to the host.
    state.document_seen(session_id, collected.frame.keyBase)
    collected.frame.normalized()
    return frame_id, ctx, collected
