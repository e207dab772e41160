"""Questions for the person, answered in browserx's popup: the ``ask_user`` tool's question, the
confirmation a sensitive action waits for (control/person/sensitive.py) and, in the "ask the first time a
site is used" mode, whether browserx may use a site (``Asks.allow_site``).

One owner per extension connection (``asks_for``) holds the questions waiting for an answer: each
is sent to the service worker as ``{type: "ask", askId, kind, question, choices, timeoutS, tabId}``
(and ``site``: the host name a "site" question is about)
(extension/asks.js keeps it in chrome.storage.session, where the popup shows it, and puts "?" on
the toolbar badge) and resolved by the worker's notice ``{type: "answer", askId, answer, allowed}``.
A question nobody answered — its time ran out, the client that asked hung up or was cancelled,
the host is stopping — is taken back with ``{type: "askDone", askId}`` (the popup drops it).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import weakref
from dataclasses import dataclass
from typing import Any, Literal

import structlog

from browserx.control.schemas import AskUserParams
from browserx.control.server import CLIENT_SOCKET, client_hung_up
from browserx.errors import BrowserxError, ExtensionDisconnected, NoAnswer, SiteBlocked, clip
from browserx.relay.connection import ExtensionConnection
from browserx.relay.protocol import Inbound

log = structlog.get_logger("browserx.ask")

Kind = Literal["question", "confirm", "site"]

# How long a sensitive action waits for "Allow" (under the Client's 120 s socket timeout), and a
# site's first use for "Allow"/"Block".
CONFIRM_TIMEOUT_S = 90.0
SITE_TIMEOUT_S = 90.0
# How often a waiting question looks whether its client hung up or the extension went away.
WATCH_S = 0.25
MAX_ANSWER_CHARS = 4000


@dataclass(frozen=True)
class Answer:
    text: str | None  # what the person typed or the choice they pressed (questions)
    allowed: bool | None  # Allow (True) / Deny or Block (False) (confirmations, sites)


class Asks:
    """The questions of one extension connection that wait for the person."""

    def __init__(self, conn: ExtensionConnection) -> None:
        self.conn = conn
        self._waiting: dict[str, asyncio.Future[Answer]] = {}
        self._takebacks: set[asyncio.Task[None]] = set()
        # Sites the person allowed or blocked through this host, until the extension's next
        # ``controls`` notice (which then lists them) arrives.
        self.site_decisions: dict[str, bool] = {}
        self._site_questions: dict[str, asyncio.Future[bool]] = {}
        conn.on_notice(self._on_notice)

    @property
    def waiting(self) -> list[str]:
        """The ids of the questions waiting for an answer."""
        return list(self._waiting)

    async def ask(
        self,
        kind: Kind,
        question: str,
        *,
        choices: list[str] | None = None,
        timeout_s: float,
        tab_id: int | None = None,
        site: str | None = None,
    ) -> Answer:
        """Show ``question`` in the popup and wait for the person's answer: NoAnswer when none
        comes within ``timeout_s`` (or the client that asked hung up), ExtensionDisconnected when
        the extension goes away. Cancelling the caller takes the question back."""
        ask_id = secrets.token_hex(8)
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._waiting[ask_id] = future
        answered = False
        try:
            await self.conn.request(
                "ask", askId=ask_id, kind=kind, question=question, choices=choices, timeoutS=timeout_s,
                tabId=tab_id, site=site,
            )  # fmt: skip
            answer = await self._wait(future, timeout_s)
            answered = True
            return answer
        finally:
            self._waiting.pop(ask_id, None)
            if not answered:
                self._take_back(ask_id)

    async def _wait(self, future: asyncio.Future[Answer], timeout_s: float) -> Answer:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        client = CLIENT_SOCKET.get()
        while not future.done():
            left = deadline - loop.time()
            if left <= 0:
                raise NoAnswer(
                    f"Nobody answered in browserx's popup within {timeout_s:g} s. Go on without the "
                    "answer, or ask again later."
                )
            await asyncio.wait({future}, timeout=min(left, WATCH_S))
            if future.done():
                break
            if self.conn.closed:
                raise ExtensionDisconnected("The browser extension disconnected before the person answered.")
            if client is not None and client_hung_up(client):
                raise NoAnswer("The client that asked hung up before the person answered.")
        return future.result()

    def _take_back(self, ask_id: str) -> None:
        """Tell the popup to drop a question nobody will wait for (in the background: the caller
        may be being cancelled)."""
        if self.conn.closed:
            return

        async def send() -> None:
            with contextlib.suppress(BrowserxError):
                await self.conn.request("askDone", askId=ask_id, timeout=5.0)

        task = asyncio.get_running_loop().create_task(send())
        self._takebacks.add(task)
        task.add_done_callback(self._takebacks.discard)

    def _on_notice(self, msg: Inbound) -> None:
        if msg.type == "controls":
            self.site_decisions.clear()  # the extension's lists are in force again
            return
        if msg.type != "answer" or msg.askId is None:
            return
        future = self._waiting.get(msg.askId)
        if future is None or future.done():
            log.info("answer_for_no_question", ask_id=clip(msg.askId, 40))
            return
        text = clip(msg.answer, MAX_ANSWER_CHARS) if isinstance(msg.answer, str) else None
        future.set_result(Answer(text, msg.allowed))

    # -- sites (mode "ask") ---------------------------------------------------------------------

    async def allow_site(self, host: str, tab_id: int | None) -> bool:
        """In the "ask the first time a site is used" mode (control/person/controls.py's ``site_asker``),
        before a tool touches a page of a site the person has neither allowed nor blocked: ask
        them ("Allow browserx on bank.example?"). Allow → True (the extension adds the site to
        ``allowedSites``); Block → SiteBlocked (it joins ``blockedSites``); no answer in time →
        NoAnswer. Calls waiting on the same site share one question."""
        decided = self.site_decisions.get(host)
        if decided is None:
            pending = self._site_questions.get(host)
            if pending is None:
                pending = asyncio.ensure_future(self._ask_site(host, tab_id))
                self._site_questions[host] = pending
                pending.add_done_callback(lambda _: self._site_questions.pop(host, None))
            decided = await asyncio.shield(pending)
        if not decided:
            raise SiteBlocked(
                f"The person blocked browserx on {clip(host, 200)} when asked; nothing of that site is "
                "read or touched. Ask them to do this step themselves.",
                site=host,
            )
        return True

    async def _ask_site(self, host: str, tab_id: int | None) -> bool:
        answer = await self.ask(
            "site", f"Allow browserx on {host}?", timeout_s=SITE_TIMEOUT_S, tab_id=tab_id, site=host
        )
        allowed = answer.allowed is True
        self.site_decisions[host] = allowed
        return allowed


_OWNERS: weakref.WeakKeyDictionary[ExtensionConnection, Asks] = weakref.WeakKeyDictionary()


def asks_for(conn: ExtensionConnection) -> Asks:
    """The one owner of ``conn``'s questions (made at its first use)."""
    owner = _OWNERS.get(conn)
    if owner is None:
        owner = _OWNERS[conn] = Asks(conn)
    return owner


async def ask_user(conn: ExtensionConnection, p: AskUserParams) -> dict[str, Any]:
    """The ``ask_user`` tool: the person's answer, or ``no_answer`` at the timeout."""
    answer = await asks_for(conn).ask("question", p.question, choices=p.choices, timeout_s=p.timeout_s)
    return {"answer": answer.text or ""}


__all__ = ["Answer", "Asks", "ask_user", "asks_for"]
