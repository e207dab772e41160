"""Click handlers that frameworks keep off the element.

React (16+) attaches one listener per event type at its root container, so neither
``getEventListeners`` nor ``DOMSnapshot``'s ``isClickable`` sees that a ``<div onClick>`` or a
clickable ``<h3>`` reacts to clicks; the handler sits in an expando on the element
(``__reactProps$<random>``, React 16: ``__reactEventHandlers$<random>``), visible only to the
page's own world. (Vue, Svelte, Angular and Preact add real listeners, found the usual way.)

So a small probe lives in the page's main world, installed once per document: asked by an event
(``browserx-scan``) that the collector dispatches from browserx's isolated world, it answers by
dispatching ``browserx-clickable`` at every element whose framework props hold a click-like
handler; the collector catches those in its own world and flags the elements. Events cross worlds, object
references do not: no per-element CDP call, no attribute written into the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from browserx import page_js
from browserx.errors import PAGE_CALL_ERRORS, PageScriptError
from browserx.page.capture_state import CaptureState
from browserx.page.page_call import answer, eval_request
from browserx.relay.cdp_types import EvaluateResult

MAX_MARKED = 5000  # bounds the probe's work on huge component trees

FRAMEWORK_PROBE_JS = page_js.page_world("browserx.page", "framework_probe.js")


@dataclass(frozen=True, slots=True)
class Probe:
    count: int | None = None  # the document's elements (when asked by value)
    document: str | None = None  # a main-world handle on the document (when asked for one)


async def install_probe(state: CaptureState, session_id: str | None, handle: bool = False) -> Probe:
    """Install the probe in the main world of the session's document (idempotent). Answers the
    document's element count, or with ``handle`` a handle on the main world's document instead
    (capture.py lists click listeners through it: from browserx's isolated world that listing
    crashes the renderer). Sent right before the collector, which the renderer runs after it;
    best effort: without it, framework handlers are simply not seen."""
    # In no object group: DOMDebugger.getEventListeners then lists the listeners without a handle
    # on each handler function (and its source: a fifth of the time and payload). The one handle a
    # document gets is kept while the document lives.
    snippet = FRAMEWORK_PROBE_JS
    method, params = eval_request(snippet, MAX_MARKED, handle, by_value=not handle)
    try:
        reply = answer(
            snippet, await state.session.cdp(method, params, session_id, result_type=EvaluateResult)
        )
    except PAGE_CALL_ERRORS:  # an answer of a shape Chrome never sends included
        return Probe()
    except PageScriptError:  # the page broke what the probe uses (logged): its handlers go unseen
        return Probe()
    if handle:
        return Probe(document=reply.objectId)
    count = reply.value
    return Probe(count=count if isinstance(count, int) else None)
