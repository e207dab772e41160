"""Answering a JavaScript dialog (the ``dialog`` tool): accept or dismiss the one that holds the
tab (relay/dialogs.py keeps it), a prompt's text with it, then say what the page did next: another
dialog, a new page, or neither within a moment."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from browserx.actions.navigation import current_url
from browserx.errors import BadRequest, CdpError, DialogOpen, NoDialog, PageOptedOut
from browserx.relay.cdp_types import JavaScriptDialogOpening
from browserx.relay.dialogs import DIALOG_CLOSED, DIALOG_OPENING, dialog_facts
from browserx.relay.protocol import Inbound
from browserx.snapshot.redaction import redact_url
from browserx.tabs.tab import Tab

CLOSED_WAIT_S = 1.0  # for Chrome's word that the dialog closed
NEXT_WAIT_S = 0.3  # for the page's next step: another dialog, or a navigation starting
NEXT_EVENTS = frozenset({DIALOG_OPENING, "Page.frameStartedLoading", "Page.frameRequestedNavigation"})


ANY_DIALOG = object()  # answer_dialog's ``expected``: whichever dialog is open


async def answer_dialog(
    tab: Tab, accept: bool, text: str | None, expected: JavaScriptDialogOpening | object | None = ANY_DIALOG
) -> dict[str, Any]:
    """``expected``: the dialog the person was asked about (or None: none was open then); another
    one open now is not answered (the page opened it meanwhile: the agent hears of it first)."""
    session = tab.session
    await session.ensure_attached()
    dialog = session.dialog
    if expected is not ANY_DIALOG and dialog is not expected and dialog is not None:
        raise session.dialog_error()
    if session.page_readable is False:
        raise PageOptedOut(
            "This page opted out of AI agents (data-no-ai); browserx will not answer its dialog. Ask "
            "the person to."
        )
    if session.page_readable is None and dialog is not None:
        raise DialogOpen(
            f"The page in tab {tab.tab_id} opened a dialog before browserx read it, and cannot be read "
            "while it is open: whether it opted out of AI agents is not known, so only the person may "
            "answer it. Ask them (ask_user) to press OK or Cancel.",
            tab=tab.tab_id,
            dialog={"type": dialog.type},
        )
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
    before = await current_url(tab)
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
        try:
            await session.cdp("Page.handleJavaScriptDialog", params)
        except CdpError as exc:
            if "No dialog is showing" not in exc.message:
                raise
            session.dialog = None  # closed without a word reaching browserx
            raise NoDialog(
                f"The dialog in tab {tab.tab_id} is gone (the person or the page closed it). Take a "
                "snapshot to see the page.",
                tab=tab.tab_id,
            ) from None
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
    after = await current_url(tab)
    if after:
        out["url"] = redact_url(after)
    out["navigated"] = after != before or moved.is_set()
    tab.invalidate("action")  # the page went on: what a snapshot cached may be stale
    return out


async def _wait(event: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), seconds)
