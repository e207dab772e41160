"""Network facts (actions/network.py): URLs shown without secrets, and the facts made from the
Network events of one action (payload shapes as Chromium sends them, trimmed)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from browserx.actions.network import NetworkWatch, clean_url
from browserx.relay.protocol import Inbound


def test_urls_lose_credentials_fragments_and_secret_values() -> None:
    url = "https://me:pw@api.example.com:8443/v1/items?page=2&access_token=abc&q=red+shoes&x=Zm9vYmFyYmF6cXV4cXV1eHh4eHh4eA#top"
    assert clean_url(url) == "https://api.example.com:8443/v1/items?page=2&access_token=…&q=red+shoes&x=…"
    assert clean_url("data:image/png;base64,AAAA") == "data:…"
    assert clean_url("https://example.com/a") == "https://example.com/a"


class FakeService:
    def __init__(self) -> None:
        self.listeners: list[Any] = []
        self.calls: list[tuple[str, str | None]] = []

    def add_listener(self, listener: Any) -> Any:
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)

    async def cdp(self, method: str, params: Any = None, session_id: str | None = None) -> dict[str, Any]:
        self.calls.append((method, session_id))
        return {}

    def fire_and_forget(self, work: Any) -> Any:
        return asyncio.ensure_future(work)

    def emit(self, method: str, params: dict[str, Any], session_id: str | None = None) -> None:
        msg = Inbound(
            type="event", tabId=1, sessionId=session_id, method=method, params=json.dumps(params).encode()
        )
        for listener in list(self.listeners):
            listener(msg)


def test_facts_count_requests_and_list_api_calls_only_for_watched_sessions() -> None:
    async def run() -> None:
        service = FakeService()
        watch = NetworkWatch(service)  # type: ignore[arg-type]
        await watch.start(None)
        sent = {"requestId": "1", "type": "Fetch", "request": {"method": "POST", "url": "http://x/api?token=t",
                "headers": {"Cookie": "secret"}, "postData": "body"}}  # fmt: skip
        service.emit("Network.requestWillBeSent", sent)
        service.emit(
            "Network.requestWillBeSent",
            {"requestId": "2", "type": "Image", "request": {"method": "GET", "url": "http://x/a.png"}},
        )
        service.emit(
            "Network.requestWillBeSent",
            {"requestId": "3", "type": "XHR", "request": {"method": "GET", "url": "http://x/slow"}},
        )
        service.emit(
            "Network.requestWillBeSent",
            {"requestId": "9", "type": "XHR", "request": {"method": "GET", "url": "http://y/"}},
            "other",
        )
        service.emit(
            "Network.responseReceived", {"requestId": "1", "response": {"status": 201, "headers": {}}}
        )
        service.emit("Network.loadingFinished", {"requestId": "1"})
        service.emit("Network.loadingFailed", {"requestId": "2", "errorText": "net::ERR_BLOCKED_BY_CLIENT"})
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
        assert (
            service.calls == [("Network.enable", None), ("Network.disable", None)] and not service.listeners
        )

    asyncio.run(run())
