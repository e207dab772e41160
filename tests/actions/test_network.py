"""Network facts (actions/network.py): URLs shown without secrets, and the facts made from the
Network events of one action (payload shapes as Chromium sends them, trimmed)."""

from __future__ import annotations

import asyncio
from typing import Any

from browserx.actions.network import NetworkWatch
from browserx.errors import CdpError
from tests.fakes import emit, fake_tab


def test_facts_show_query_keys_only_unless_values_were_asked_for() -> None:
    async def run() -> None:
        tab, _ = fake_tab()
        watch = NetworkWatch(tab)
        await watch.start(None)
        url = "https://me:pw@api.example.com/hit?v=typed-words&q=red+shoes&access_token=abc#top"
        emit(
            tab,
            "Network.requestWillBeSent",
            {"requestId": "1", "type": "Fetch", "request": {"method": "GET", "url": url}},
        )
        assert watch.facts().xhr[0].url == "https://api.example.com/hit?v=…&q=…&access_token=…"
        assert watch.facts(include_values=True).xhr[0].url == (
            "https://api.example.com/hit?v=typed-words&q=red+shoes&access_token=…"
        )
        watch.stop()

    asyncio.run(run())


def test_facts_count_requests_and_list_api_calls_only_for_watched_sessions() -> None:
    async def run() -> None:
        tab, conn = fake_tab()
        watch = NetworkWatch(tab)
        await watch.start(None)
        sent = {"requestId": "1", "type": "Fetch", "request": {"method": "POST", "url": "http://x/api?token=t",
                "headers": {"Cookie": "secret"}, "postData": "body"}}  # fmt: skip
        emit(tab, "Network.requestWillBeSent", sent)
        emit(
            tab,
            "Network.requestWillBeSent",
            {"requestId": "2", "type": "Image", "request": {"method": "GET", "url": "http://x/a.png"}},
        )
        emit(
            tab,
            "Network.requestWillBeSent",
            {"requestId": "3", "type": "XHR", "request": {"method": "GET", "url": "http://x/slow"}},
        )
        emit(
            tab,
            "Network.requestWillBeSent",
            {"requestId": "9", "type": "XHR", "request": {"method": "GET", "url": "http://y/"}},
            "other",
        )
        emit(tab, "Network.responseReceived", {"requestId": "1", "response": {"status": 201, "headers": {}}})
        emit(tab, "Network.loadingFinished", {"requestId": "1"})
        emit(tab, "Network.loadingFailed", {"requestId": "2", "errorText": "net::ERR_BLOCKED_BY_CLIENT"})
        await watch.finish_api_calls(grace=0.05)
        facts = watch.facts()
        assert (facts.requests, facts.finished, facts.failed) == (3, 1, 1)
        assert [(c.method, c.url, c.status, c.pending) for c in facts.xhr] == [
            ("POST", "http://x/api?token=…", 201, False),
            ("GET", "http://x/slow", None, True),
        ]
        assert "secret" not in facts.model_dump_json() and "body" not in facts.model_dump_json()
        watch.stop()
        await asyncio.sleep(0)
        network = [c for c in conn.calls if c[0].startswith("Network.")]
        assert network == [("Network.enable", None), ("Network.disable", None)]
        assert tab.session._listeners == [tab._on_event]

    asyncio.run(run())


def test_a_frame_is_listed_only_once_it_said_it_did_not_opt_out() -> None:
    """A frame that opted out, one that cannot answer, and one whose first request comes while the
    others are asked: none of their requests are listed (the last was never asked)."""

    async def run() -> None:
        def answer(method: str, params: dict[str, Any], session_id: str | None) -> Any:
            if method == "Page.createIsolatedWorld":
                if params["frameId"] == "gone":
                    raise CdpError("No frame for given id found")
                # The late frame's first request arrives while this frame is asked.
                emit(tab, "Network.requestWillBeSent", request("9", "late"))
                return {"executionContextId": {"open": 1, "noai": 2}[params["frameId"]]}
            if method == "Runtime.callFunctionOn":
                return {"result": {"type": "boolean", "value": params["executionContextId"] == 2}}
            return {}

        def request(rid: str, frame: str) -> dict[str, Any]:
            return {"requestId": rid, "frameId": frame, "type": "Fetch",
                    "request": {"method": "GET", "url": f"http://x/{frame}"}}  # fmt: skip

        tab, _ = fake_tab(answer)
        watch = NetworkWatch(tab)
        await watch.start(None)
        for rid, frame in (("1", "open"), ("2", "noai"), ("3", "gone")):
            emit(tab, "Network.requestWillBeSent", request(rid, frame))
        await watch.finish_api_calls(grace=0)
        assert [c.url for c in watch.facts().xhr] == ["http://x/open"]
        watch.stop()

    asyncio.run(run())
