"""JavaScript dialogs (alert, confirm, prompt, beforeunload): while one is open, nothing in its page
answers (checked in Chromium 156: Runtime, DOMSnapshot, screenshots, even a second Page.enable wait
until it is gone). The tab's session (relay/session.py) keeps the open one and fails what waits on the
page at once with ``dialog_error``, naming the dialog, instead of letting it time out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import structlog

from browserx.errors import BrowserxError, CdpError, DialogOpen, clip
from browserx.quoting import quote
from browserx.relay.cdp_types import JavaScriptDialogOpening
from browserx.relay.connection import ExtensionConnection
from browserx.relay.protocol import decode_raw

log = structlog.get_logger("browserx.dialogs")

DIALOG_OPENING = "Page.javascriptDialogOpening"
DIALOG_CLOSED = "Page.javascriptDialogClosed"
# What a tab held by a dialog still answers.
DIALOG_METHODS = frozenset({"Page.handleJavaScriptDialog", "Page.getNavigationHistory"})
# Attaching again to a tab a dialog held when it was let go: Page.enable waits while the dialog is
# open. How long an attach waits for it, and how long it may wait in all (the dialog's whole life).
DIALOG_ENABLE_WAIT_S = 2.0
DIALOG_ENABLE_TIMEOUT_S = 24 * 3600.0
MESSAGE_CHARS = 500  # of the page's message, quoted in every answer while the dialog is open
MAX_ANSWERED = 20  # dialogs answered automatically, kept until a result reports them


UNKNOWN_DIALOG = JavaScriptDialogOpening(type="unknown")


def opened_dialog(params: msgspec.Raw | None) -> JavaScriptDialogOpening:
    """Page.javascriptDialogOpening's dialog (one of a shape Chrome never sends: an unknown one)."""
    try:
        dialog: JavaScriptDialogOpening = decode_raw(params, JavaScriptDialogOpening)
        return dialog
    except CdpError:
        return UNKNOWN_DIALOG


def dialog_facts(dialog: JavaScriptDialogOpening) -> dict[str, Any]:
    """What an answer says of a dialog: its type, its message (clipped), a prompt's default value."""
    facts: dict[str, Any] = {"type": dialog.type, "message": clip(dialog.message, MESSAGE_CHARS)}
    if dialog.type == "prompt":
        facts["default_prompt"] = clip(dialog.defaultPrompt, MESSAGE_CHARS)
    return facts


def dialog_error(
    tab_id: int, dialog: JavaScriptDialogOpening, by_person: bool = False, readable: bool | None = True
) -> DialogOpen:
    """The answer to every call on a tab a dialog holds (the page's message quoted as page text).
    ``by_person``: it opened before browserx attached to the tab again, and Chrome lets only the
    person answer it then. ``readable``: the page's last opt-out verdict (True: it did not opt
    out); else its message is not shown."""
    facts = dialog_facts(dialog) if readable else {"type": dialog.type}
    said = (
        f": {quote(facts['message'])}"
        if readable
        else " (its message is not shown: this page may have opted out of AI agents)"
    )
    if by_person:
        how = (
            "It was open when browserx attached to the tab, so only the person can answer it: ask them "
            "(ask_user) to press OK or Cancel, or close the tab (close_tab)."
        )
    else:
        how = (
            "Answer it with `dialog accept` or `dialog dismiss` (a prompt's answer: `dialog accept --text "
            "...`), ask the person to, or close the tab (close_tab)."
        )
    if dialog is UNKNOWN_DIALOG:
        return DialogOpen(
            f"The page in tab {tab_id} does not answer: a JavaScript dialog is most likely open. {how}",
            tab=tab_id,
            dialog=facts,
        )
    article = "an" if dialog.type[:1] in ("a", "e", "i", "o", "u") else "a"
    return DialogOpen(
        f"The page in tab {tab_id} opened {article} {dialog.type} dialog{said}. Nothing in the page "
        f"answers until it is handled (what was sent before it went through). {how}",
        tab=tab_id,
        dialog=facts,
    )


class AutoAnswers:
    """The kinds of dialog the person chose to have answered at once, without the agent (the
    config file's ``auto_dialogs``, the options page's): ``policy`` says how for a kind (True
    accept, False dismiss, None: left to the agent), and what was answered so waits here until a
    result reports it (``take``)."""

    def __init__(self) -> None:
        self.policy: Callable[[str], bool | None] = lambda kind: None
        self._answered: list[dict[str, Any]] = []

    def answer_for(self, dialog: JavaScriptDialogOpening, readable: bool | None) -> dict[str, Any] | None:
        """Page.handleJavaScriptDialog's params for ``dialog`` (a prompt accepted with its default
        text), recorded as answered; None when the person left it to the agent. ``readable``: the
        page did not opt out, so its message may be reported."""
        accept = self.policy(dialog.type)
        if accept is None:
            return None
        params: dict[str, Any] = {"accept": accept}
        if accept and dialog.type == "prompt":
            params["promptText"] = dialog.defaultPrompt
        facts = dialog_facts(dialog) if readable else {"type": dialog.type}
        self._answered = [*self._answered[-(MAX_ANSWERED - 1) :], {**facts, "accepted": accept}]
        return params

    def take(self) -> list[dict[str, Any]]:
        """The dialogs answered since the last call, oldest first."""
        answered, self._answered = self._answered, []
        return answered


async def answer_quietly(conn: ExtensionConnection, tab_id: int, params: dict[str, Any]) -> None:
    """Answer the tab's dialog; one closed meanwhile (by the person, the page) is only logged."""
    try:
        await conn.cdp(tab_id, "Page.handleJavaScriptDialog", params)
        log.info("dialog_answered", tab=tab_id, accepted=params["accept"])
    except BrowserxError as exc:
        log.info("dialog_answer_failed", tab=tab_id, error=exc.message)
