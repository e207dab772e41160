"""A watcher in browserx's isolated world of a document, installed as each new document of an
observed tab starts (or at the first snapshot of a document that was already there): one
MutationObserver that remembers when the DOM last changed (for the stability wait)
and records text that appears in or disappears from alert/status/aria-live/toast-like elements
into a bounded ring buffer (``globalThis.__bxWatch.events``), drained at every snapshot."""

from __future__ import annotations

from browserx import page_js

# Elements whose text changes are page events.
EVENT_SELECTOR = (
    "[role=alert],[role=status],[role=alertdialog],[role=log],[aria-live]:not([aria-live=off]),output,"
    "[class*=toast],[class*=Toast],[class*=snackbar],[class*=notif],[class*=flash],[class*=alert],"
    "[class*=error],[class*=Error],[class*=success],[class*=message]"
)
MAX_BUFFERED = 100

# The one page-side reading of data-no-ai (an arrow function of a node), placed into the snippets
# that meet nodes on their own: the collector, this watch, resolve, hit tests, focus checks.
NO_AI_JS = page_js.load("browserx.page", "no_ai.js")
# As an input meets it: the control a <label> would change counts too (resolve, click_at's hit test).
NO_AI_INPUT_JS = page_js.load("browserx.page", "no_ai_input.js", uses={"NO_AI": NO_AI_JS})

WATCH_JS = page_js.load(
    "browserx.page",
    "page_watch.js",
    uses={"NO_AI": NO_AI_JS, "SELECTOR": EVENT_SELECTOR, "MAX": MAX_BUFFERED},
)

EARLY_WATCH_JS = page_js.load("browserx.page", "page_watch_early.js", uses={"WATCH": WATCH_JS})

SETTLE_JS = page_js.load("browserx.page", "page_watch_settle.js", uses={"WATCH": WATCH_JS})
