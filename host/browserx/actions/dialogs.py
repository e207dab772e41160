"""Answering a JavaScript dialog (the ``dialog`` tool): accept or dismiss the one that holds the
tab (relay/dialogs.py keeps it), a prompt's text with it, then say what the page did next: another
dialog, a new page, or neither within a moment."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from browserx.errors import PAGE_CALL_ERRORS, BadRequest, NoDialog
from browserx.relay.cdp_types import GetNavigationHistoryResult
from browserx.relay.dialogs import DIALOG_CLOSED, DIALOG_OPENING, dialog_facts
from browserx.relay.protocol import Inbound
from browserx.snapshot.redaction import redact_url
from browserx.tabs.tab import Tab

CLOSED_WAIT_S = 1.0  # for Chrome's word that the dialog closed
NEXT_WAIT_S = 0.3  # for the page's next step: another dialog, or a navigation starting
NEXT_EVENTS = frozenset({DIALOG_OPENING, "Page.frameStartedLoading", "Page.frameRequestedNavigation"})


async def answer_dialog(tab: Tab, accept: bool, text: str | None) -> dict[str, Any]:
    session = tab.session
    await session.ensure_attached()
    dialog = session.dialog
    if dialog is None:
        raise NoDialog(
            f"No JavaScript dialog is open in tab {tab.tab_id}: nothing to accept or dismiss. Take a "
            "snapshot to see the page.",
            tab=tab.tab_id,
        )
    if session.dialog_inherited:
        raise session.dialog_error()  # Chrome lets only the person answer it now
    if text is not None and dialog.type != "prompt":
        raise BadRequest(f"`text` answers a prompt; the open dialog is {dialog.type!r}. Leave it out.")
    before = await _current_url(tab)
    closed, moved = asyncio.Event(), asyncio.Event()

    def on_event(msg: Inbound) -> None:
        if msg.method == DIALOG_CLOSED:
            closed.set()
        elif closed.is_set() and msg.method in NEXT_EVENTS and not msg.sessionId:
            moved.set()

    stop_listening = session.add_listener(on_event)
    try:
        params: dict[str, Any] = {"accept": accept}
        if text is not None:
            params["promptText"] = text
        await session.cdp("Page.handleJavaScriptDialog", params)
        await _wait(closed, CLOSED_WAIT_S)
        if session.dialog is dialog:  # no word of its closing came: Chrome answered, so it is gone
            session.dialog = None
        await _wait(moved, NEXT_WAIT_S)
    finally:
        stop_listening()
    out: dict[str, Any] = {"tab": tab.tab_id, "handled": dialog_facts(dialog), "accepted": accept}
    if text is not None:
        out["text_sent"] = True  # (what was typed is the agent's own; it is not echoed)
    if session.dialog is not None:
        out["next_dialog"] = dialog_facts(session.dialog)
        return out
    after = await _current_url(tab)
    if after:
        out["url"] = redact_url(after)
    out["navigated"] = after != before or moved.is_set()
    tab.invalidate("action")  # the page went on: what a snapshot cached may be stale
    return out


async def _wait(event: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), seconds)


async def _current_url(tab: Tab) -> str:
    """The tab's address, read where a dialog does not block (the navigation history); "" while a
    navigation leaves no page to ask."""
    try:
        history = await tab.session.cdp("Page.getNavigationHistory", result_type=GetNavigationHistoryResult)
    except PAGE_CALL_ERRORS:
        return ""
    entries = history.entries
    return entries[history.currentIndex].url if 0 <= history.currentIndex < len(entries) else ""
