"""The owner of the questions waiting for the person (control/person/ask.py), over a real
ExtensionConnection whose other end is a scripted worker: what the worker is sent, answers that
resolve a question, and every way a question ends unanswered (timeout, cancelled call, a client
that hung up, the extension gone) taking it back with askDone."""

from __future__ import annotations

import asyncio
import functools
import json
import socket
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from browserx.control.person import ask as ask_module
from browserx.control.person.ask import Asks, asks_for
from browserx.control.schemas import AskUserParams
from browserx.control.server import CLIENT_SOCKET
from browserx.errors import ExtensionDisconnected, NoAnswer, SiteBlocked
from browserx.relay.connection import ExtensionConnection


class Worker:
    """The service worker's end: records every request and replies at once (``queued``)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.taken = 0
        self.conn = ExtensionConnection(self.send)

    async def send(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)
        reply = {"id": msg["id"], "result": {"queued": True} if msg["type"] == "ask" else {"done": True}}
        asyncio.get_running_loop().call_soon(self.conn.feed, json.dumps(reply))

    def asks(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["type"] == "ask"]

    def done(self) -> list[str]:
        return [m["askId"] for m in self.sent if m["type"] == "askDone"]

    def answer(self, ask_id: str, answer: str | None = None, allowed: bool | None = None) -> None:
        self.conn.feed(json.dumps({"type": "answer", "askId": ask_id, "answer": answer, "allowed": allowed}))

    async def next_ask(self) -> dict[str, Any]:
        """The next question sent after those this returned before."""
        for _ in range(200):
            if len(self.asks()) > self.taken:
                self.taken += 1
                return self.asks()[self.taken - 1]
            await asyncio.sleep(0.01)
        raise AssertionError("no ask was sent")


def sync(test: Callable[[], Coroutine[Any, Any, None]]) -> Callable[[], None]:
    """Run an async test in its own event loop (10 s at most)."""

    @functools.wraps(test)
    def run() -> None:
        asyncio.run(asyncio.wait_for(test(), 10))

    return run


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


@sync
async def test_a_question_is_sent_and_the_answer_resolves_it() -> None:
    worker = Worker()
    asks = Asks(worker.conn)
    task = asyncio.ensure_future(
        asks.ask("question", "Which size?", choices=["S", "M"], timeout_s=5, tab_id=3)
    )
    sent = await worker.next_ask()
    assert set(sent) == {"id", "type", "askId", "kind", "question", "choices", "timeoutS", "tabId", "site"}
    assert (sent["kind"], sent["question"], sent["choices"], sent["timeoutS"], sent["tabId"]) == (
        "question", "Which size?", ["S", "M"], 5, 3
    )  # fmt: skip
    assert asks.waiting == [sent["askId"]]
    worker.answer("ffff", "L")  # no such question: ignored
    worker.answer(sent["askId"], "M")
    answer = await task
    assert (answer.text, answer.allowed) == ("M", None)
    await settle()
    assert asks.waiting == [] and worker.done() == []  # answered: nothing to take back


@sync
async def test_two_questions_wait_side_by_side_and_ids_differ() -> None:
    worker = Worker()
    asks = Asks(worker.conn)
    first = asyncio.ensure_future(asks.ask("confirm", "Pay?", timeout_s=5))
    second = asyncio.ensure_future(asks.ask("question", "Size?", timeout_s=5))
    while len(worker.asks()) < 2:
        await asyncio.sleep(0.01)
    a, b = worker.asks()
    assert a["askId"] != b["askId"]
    worker.answer(b["askId"], "XL")
    worker.answer(a["askId"], allowed=False)
    assert (await first).allowed is False and (await second).text == "XL"


@sync
async def test_no_answer_in_time_is_no_answer_and_the_question_is_taken_back() -> None:
    worker = Worker()
    asks = Asks(worker.conn)
    with pytest.raises(NoAnswer, match=r"within 0\.3 s"):
        await asks.ask("question", "Still there?", timeout_s=0.3)
    await settle()
    assert worker.done() == [worker.asks()[0]["askId"]] and asks.waiting == []


@sync
async def test_a_cancelled_call_takes_its_question_back() -> None:
    worker = Worker()
    asks = Asks(worker.conn)
    task = asyncio.ensure_future(asks.ask("question", "Which?", timeout_s=30))
    sent = await worker.next_ask()
    task.cancel()  # the host stopping, or "Stop agent" (control/person/controls.py cancels the request)
    with pytest.raises(asyncio.CancelledError):
        await task
    await settle()
    assert worker.done() == [sent["askId"]] and asks.waiting == []
    worker.answer(sent["askId"], "late")  # an answer after that changes nothing


@sync
async def test_a_client_that_hung_up_ends_its_question_one_that_half_closed_does_not() -> None:
    worker = Worker()
    asks = Asks(worker.conn)
    server_end, client_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        CLIENT_SOCKET.set(server_end)  # as the control server sets it for a connection's requests
        half = asyncio.ensure_future(asks.ask("question", "Half?", timeout_s=30))
        sent = await worker.next_ask()
        client_end.shutdown(socket.SHUT_WR)  # still reading: it waits for its answer
        await asyncio.sleep(3 * ask_module.WATCH_S)
        assert not half.done()
        worker.answer(sent["askId"], "yes")
        assert (await half).text == "yes"

        gone = asyncio.ensure_future(asks.ask("question", "Gone?", timeout_s=30))
        sent = await worker.next_ask()
        client_end.close()
        with pytest.raises(NoAnswer, match="hung up"):
            await asyncio.wait_for(gone, 2)
        await settle()
        assert worker.done() == [sent["askId"]]
    finally:
        CLIENT_SOCKET.set(None)
        server_end.close()
        client_end.close()


@sync
async def test_the_extension_going_away_ends_the_wait() -> None:
    worker = Worker()
    asks = Asks(worker.conn)
    task = asyncio.ensure_future(asks.ask("question", "Which?", timeout_s=30))
    await worker.next_ask()
    worker.conn.close()
    with pytest.raises(ExtensionDisconnected):
        await asyncio.wait_for(task, 2)
    assert worker.done() == []  # nobody to tell


@sync
async def test_an_answer_is_clipped_and_a_question_answer_may_be_empty() -> None:
    worker = Worker()
    asks = Asks(worker.conn)
    task = asyncio.ensure_future(asks.ask("question", "Essay?", timeout_s=5))
    sent = await worker.next_ask()
    worker.answer(sent["askId"], "x" * 10_000)
    text = (await task).text
    assert text is not None and len(text) < 4100 and text.startswith("x" * 4000)
    result = asyncio.ensure_future(
        ask_module.ask_user(worker.conn, AskUserParams(question="Empty?", timeout_s=5))
    )
    sent = await worker.next_ask()
    worker.answer(sent["askId"], None)
    assert await result == {"answer": ""}


@sync
async def test_one_owner_per_connection() -> None:
    worker = Worker()
    assert asks_for(worker.conn) is asks_for(worker.conn)
    assert asks_for(Worker().conn) is not asks_for(worker.conn)


@sync
async def test_a_site_is_asked_once_for_calls_waiting_together_and_remembered() -> None:
    worker = Worker()
    asks = Asks(worker.conn)
    calls = [asyncio.ensure_future(asks.allow_site("bank.example", 7)) for _ in range(3)]
    sent = await worker.next_ask()
    await settle()
    assert len(worker.asks()) == 1
    assert (sent["kind"], sent["question"], sent["site"], sent["tabId"]) == (
        "site", "Allow browserx on bank.example?", "bank.example", 7
    )  # fmt: skip
    worker.answer(sent["askId"], allowed=True)
    assert await asyncio.gather(*calls) == [True, True, True]
    assert await asks.allow_site("bank.example", 7) is True  # remembered: not asked again
    assert len(worker.asks()) == 1
    # The extension's lists take over at its next controls notice (they now hold the site).
    worker.conn.feed(json.dumps({"type": "controls", "siteMode": "ask", "allowedSites": ["bank.example"]}))
    assert asks.site_decisions == {}


@sync
async def test_a_blocked_site_is_site_blocked() -> None:
    worker = Worker()
    asks = Asks(worker.conn)
    call = asyncio.ensure_future(asks.allow_site("evil.example", None))
    sent = await worker.next_ask()
    worker.answer(sent["askId"], allowed=False)
    with pytest.raises(SiteBlocked, match=r"blocked browserx on evil\.example"):
        await call
    with pytest.raises(SiteBlocked):  # until the extension's lists say so, remembered here
        await asks.allow_site("evil.example", None)
    assert len(worker.asks()) == 1
