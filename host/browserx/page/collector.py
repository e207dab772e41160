"""Running collector.js in one document: the call that lets the page settle (snapshot/stability.py)
and collects it, in browserx's isolated world, with the key base a new document takes and the
click listeners the collector hit-tests; the reply decoded into a ``RawFrame`` with whole keys.

The collector is 30 kB of source, and the renderer compiles what it is sent on every call (3 ms):
it is sent once per isolated world, which keeps it; later calls send a stub that runs it (null
when the world lacks it: a world the host took for one it had seen). Its name carries the
source's hash: a host of another version never runs this one's collector.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
import structlog

from browserx import page_js
from browserx.errors import PAGE_CALL_ERRORS
from browserx.page.capture_state import CaptureState
from browserx.page.page_call import page_call
from browserx.page.page_watch import EARLY_WATCH_JS, NO_AI_JS, SETTLE_JS
from browserx.page.worlds import WORLD_NAME, call_in_world
from browserx.page_js import Snippet
from browserx.relay.connection import DEFAULT_TIMEOUT
from browserx.snapshot.frames import KEY_BITS, Collected, collector_output
from browserx.snapshot.stability import SettleOptions

log = structlog.get_logger("browserx.capture")

COLLECTOR_JS = page_js.load("browserx.page", "collector.js", uses={"NO_AI": NO_AI_JS})
SETTLE_AND_COLLECT_JS = page_js.load(
    "browserx.page", "settle_and_collect.js", uses={"SETTLE": SETTLE_JS, "COLLECT": COLLECTOR_JS}
)
_COLLECTOR_NAME = "__browserxCollect_" + hashlib.sha256(SETTLE_AND_COLLECT_JS.code.encode()).hexdigest()[:12]
# Both named after settle_and_collect.js: what they run (and what a page error's stack shows) is it.
INSTALL_AND_COLLECT_JS = Snippet(
    SETTLE_AND_COLLECT_JS.name,
    f"function(opts, quiet, timeout, network) {{\n  const run = globalThis.{_COLLECTOR_NAME} = "
    + SETTLE_AND_COLLECT_JS.code
    + ";\n  return run(opts, quiet, timeout, network);\n}",
)
COLLECT_STUB_JS = Snippet(
    SETTLE_AND_COLLECT_JS.name,
    # The world's own property only: a page element with that id is a named property every world sees.
    f"function(opts, quiet, timeout, network) {{ const run = Object.getOwnPropertyDescriptor(globalThis, "
    f"'{_COLLECTOR_NAME}')?.value; return typeof run === 'function' ? run(opts, quiet, timeout, network) : null; }}",
)


async def watch_new_documents(state: CaptureState, session_id: str | None) -> None:
    """From now on, run the page watcher in browserx's world of every new document of this
    session as it starts: the first snapshot after a navigation then knows when the DOM last
    changed, instead of watching for ``quiet_ms`` first, and page events from the document's
    first moment are kept. The current document gets the watcher at its first settle."""
    if session_id in state.watched_sessions:
        return
    state.watched_sessions.add(session_id)  # tried once per attachment, whatever the outcome
    try:
        await state.session.cdp(
            "Page.addScriptToEvaluateOnNewDocument",
            {"source": EARLY_WATCH_JS.source, "worldName": WORLD_NAME},
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

    async def collect(ctx: int, installed: bool) -> Any:
        # The click listeners of the last capture of this document: the collector hit-tests
        # them with the other elements a person might act on.
        listening = list(state.listener_keys.get((session_id, ctx), {}).values())
        with_base = {**opts, "freshBase": state.fresh_base(session_id, KEY_BITS), "hitTest": True,
                     "listening": listening}  # fmt: skip
        value = None
        for snippet in (COLLECT_STUB_JS, INSTALL_AND_COLLECT_JS) if installed else (INSTALL_AND_COLLECT_JS,):
            # A page error fails the document's capture (the main frame's: the snapshot), as
            # PageScriptError: there is nothing to show of it.
            value = await page_call(
                state.session, snippet, with_base, *settle_args,
                world=ctx, session_id=session_id, await_promise=True, timeout=timeout,
            )  # fmt: skip
            if value is not None:
                break
        return value

    frame_id, ctx, value = await call_in_world(state, session_id, collect)
    collected = msgspec.json.decode(collector_output(value, "document"), type=Collected)
    # The collector reports the key base its document's keys count from: the session's reserved
    # fresh base when the document is new to the host.
    state.document_seen(session_id, collected.frame.keyBase)
    collected.frame.normalized()
    return frame_id, ctx, collected
