"""Network facts for one action: which requests the page made while the action ran and settled,
so "did Submit send anything?" has an answer.

The Network domain is enabled on the acted-on sessions only for the action and disabled after it
(no standing capture); nothing of a request is kept but its method, its URL (credentials,
fragment and query values taken out: ``redaction.redact_url``), its type and how it ended: no
headers, no bodies (``maxPostDataSize: 0`` keeps request bodies out of the events too).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import msgspec

from browserx import page_js
from browserx.actions.result import NetworkFacts, RequestFact
from browserx.errors import PAGE_CALL_ERRORS, BrowserxError, PageScriptError
from browserx.page.page_call import page_call
from browserx.page.worlds import WORLD_NAME
from browserx.relay.cdp_types import CreateIsolatedWorldResult
from browserx.relay.protocol import Inbound
from browserx.snapshot.redaction import hide_typed, redact_url
from browserx.tabs.tab import Tab

ENABLE = {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0, "maxPostDataSize": 0}
API_TYPES = frozenset({"XHR", "Fetch"})
# A frame that cannot say whether it opted out: gone, or a page error (logged by page/page_call.py).
NO_ANSWER: tuple[type[BrowserxError], ...] = (*PAGE_CALL_ERRORS, PageScriptError)
# In a frame's isolated world: whether it opted out.
FRAME_OPTED_OUT_JS = page_js.load("browserx.page", "no_ai_document.js")
MAX_LISTED = 20
# A fetch the action started is usually answered within this; its status is worth the wait.
PENDING_GRACE_S = 0.5


class _Request(msgspec.Struct):
    method: str = ""
    url: str = ""


class _WillBeSent(msgspec.Struct):
    requestId: str
    request: _Request
    type: str = ""
    frameId: str = ""


class _Response(msgspec.Struct):
    status: int = 0


class _ResponseReceived(msgspec.Struct):
    requestId: str
    response: _Response


class _Finished(msgspec.Struct):
    requestId: str


class _Failed(msgspec.Struct):
    requestId: str
    errorText: str = ""
    canceled: bool = False


@dataclass
class _Seen:
    method: str
    url: str
    type: str
    status: int | None = None
    done: bool = False
    failed: bool = False
    error: str | None = None
    frame: str = ""  # the frame that sent it (its opt-out is checked before it is listed)


class NetworkWatch:
    """Requests of the watched sessions from ``start`` to ``stop``."""

    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.sessions: set[str | None] = set()
        self._seen: dict[tuple[str | None, str], _Seen] = {}
        self._changed = asyncio.Event()
        self._remove = tab.session.add_listener(self._on_event)

    async def start(self, session_id: str | None = None) -> None:
        if session_id in self.sessions:
            return
        self.sessions.add(session_id)
        try:
            await self.tab.session.cdp("Network.enable", ENABLE, session_id=session_id)
        except PAGE_CALL_ERRORS:
            self.sessions.discard(session_id)  # observing is best effort: never fail the action for it

    def _on_event(self, msg: Inbound) -> None:
        method = msg.method or ""
        if not method.startswith("Network.") or msg.sessionId not in self.sessions or not msg.params:
            return
        sid = msg.sessionId
        try:
            if method == "Network.requestWillBeSent":
                sent = msgspec.json.decode(msg.params, type=_WillBeSent)
                key = (sid, sent.requestId)
                if key in self._seen:  # a redirect: the same request goes on
                    self._seen[key].url = sent.request.url
                else:
                    self._seen[key] = _Seen(
                        sent.request.method, sent.request.url, sent.type, frame=sent.frameId
                    )
            elif method == "Network.responseReceived":
                got = msgspec.json.decode(msg.params, type=_ResponseReceived)
                if (seen := self._seen.get((sid, got.requestId))) is not None:
                    seen.status = got.response.status
            elif method == "Network.loadingFinished":
                fin = msgspec.json.decode(msg.params, type=_Finished)
                if (seen := self._seen.get((sid, fin.requestId))) is not None:
                    seen.done = True
            elif method == "Network.loadingFailed":
                fail = msgspec.json.decode(msg.params, type=_Failed)
                if (seen := self._seen.get((sid, fail.requestId))) is not None:
                    seen.done = seen.failed = True
                    seen.error = "canceled" if fail.canceled else fail.errorText or None
            else:
                return
        except msgspec.DecodeError:
            return
        self._changed.set()

    def _api_pending(self) -> bool:
        return any(s.type in API_TYPES and not s.done for s in self._seen.values())

    async def finish_api_calls(self, grace: float = PENDING_GRACE_S) -> None:
        """Give XHR/fetch calls still running a moment to answer, so their status can be told;
        then forget the requests of opted-out frames."""
        deadline = time.monotonic() + grace
        while self._api_pending():
            left = deadline - time.monotonic()
            if left <= 0:
                break
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except TimeoutError:
                break
        await self._forget_opted_out_frames()

    async def _forget_opted_out_frames(self) -> None:
        """Forget the requests of frames that opted out of AI agents (data-no-ai on their document
        or on an element around their <iframe>): a same-origin frame's requests show in its
        parent's session. A frame whose answer cannot be had (gone) is forgotten too, and so is
        one whose first request came while the others were asked (never listed unasked)."""
        frames = {(sid, s.frame) for (sid, _), s in self._seen.items() if s.frame}
        allowed: set[tuple[str | None, str]] = set()
        for sid, frame_id in frames:
            try:
                world = await self.tab.session.cdp(
                    "Page.createIsolatedWorld",
                    {"frameId": frame_id, "worldName": WORLD_NAME},
                    session_id=sid,
                    result_type=CreateIsolatedWorldResult,
                )
                opted_out = await page_call(
                    self.tab.session, FRAME_OPTED_OUT_JS, world=world.executionContextId, session_id=sid
                )
            except NO_ANSWER:  # kept private
                continue
            if opted_out is False:
                allowed.add((sid, frame_id))
        self._seen = {k: s for k, s in self._seen.items() if not s.frame or (k[0], s.frame) in allowed}

    def stop(self) -> None:
        """Stop listening and disable the domain again (not waited for: nothing depends on it)."""
        self._remove()
        for session_id in self.sessions:
            self.tab.session.fire_and_forget(self.tab.session.cdp("Network.disable", session_id=session_id))
        self.sessions.clear()

    def facts(self, include_values: bool = False, typed: tuple[str, ...] = ()) -> NetworkFacts:
        """What was seen; URLs through ``redact_url``: query keys only, unless the action was
        asked for values (then secret-looking values still masked); ``typed``: texts the action
        typed that must not show, masked wherever the page put them (a path too)."""
        seen = list(self._seen.values())
        api = [s for s in seen if s.type in API_TYPES]
        return NetworkFacts(
            requests=len(seen),
            finished=sum(1 for s in seen if s.done and not s.failed),
            failed=sum(1 for s in seen if s.failed),
            xhr=[_fact(s, include_values, typed) for s in api[:MAX_LISTED]],
        )


def _fact(seen: _Seen, include_values: bool, typed: tuple[str, ...]) -> RequestFact:
    url = hide_typed(redact_url(seen.url, query_values=include_values, fragment=False), typed)
    return RequestFact(
        method=seen.method, url=url, type=seen.type, status=seen.status, failed=seen.failed,
        error=seen.error, pending=not seen.done,
    )  # fmt: skip
