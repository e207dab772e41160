"""Network facts for one action: which requests the page made while the action ran and settled,
so "did Submit send anything?" has an answer.

The Network domain is enabled on the acted-on sessions only for the action and disabled after it
(no standing capture); nothing of a request is kept but its method, its URL (credentials,
fragment and secret-looking query values taken out), its type and how it ended: no headers, no
bodies (``maxPostDataSize: 0`` keeps request bodies out of the events too).
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass
from urllib.parse import unquote_plus, urlsplit, urlunsplit

import msgspec

from browserx.actions.result import NetworkFacts, RequestFact
from browserx.errors import PAGE_CALL_ERRORS
from browserx.relay.protocol import Inbound
from browserx.tabs.tab import Tab

ENABLE = {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0, "maxPostDataSize": 0}
API_TYPES = frozenset({"XHR", "Fetch"})
MAX_LISTED = 20
# A fetch the action started is usually answered within this; its status is worth the wait.
PENDING_GRACE_S = 0.5
SECRET_NAME = re.compile(
    r"token|secret|key|pass|pwd|auth|session|sid|sig|signature|code|credential|jwt|otp|nonce|state|ticket",
    re.IGNORECASE,
)
# A value that looks generated (long, mixed, no spaces) is masked whatever its name.
RANDOM_VALUE = re.compile(r"^[A-Za-z0-9_\-.~+/=%]{24,}$")
MASK = "…"


class _Request(msgspec.Struct):
    method: str = ""
    url: str = ""


class _WillBeSent(msgspec.Struct):
    requestId: str
    request: _Request
    type: str = ""


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


def clean_url(url: str) -> str:
    """The URL as it may be shown: no user:password, no fragment, secret query values masked."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return MASK
    if parts.scheme in ("data", "blob"):
        return f"{parts.scheme}:{MASK}"
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    query = "&".join(_masked(piece) for piece in parts.query.split("&")) if parts.query else ""
    return urlunsplit((parts.scheme, host, parts.path, query, ""))


def _masked(piece: str) -> str:
    """One ``name=value`` of a query, its value masked when it looks secret (as sent, not re-encoded)."""
    name, eq, value = piece.partition("=")
    if eq and (SECRET_NAME.search(unquote_plus(name)) or RANDOM_VALUE.match(value)):
        return f"{name}={MASK}"
    return piece


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
                    self._seen[key] = _Seen(sent.request.method, sent.request.url, sent.type)
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
        """Give XHR/fetch calls still running a moment to answer, so their status can be told."""
        deadline = time.monotonic() + grace
        while self._api_pending():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except TimeoutError:
                return

    def stop(self) -> None:
        """Stop listening and disable the domain again (not waited for: nothing depends on it)."""
        self._remove()
        for session_id in self.sessions:
            self.tab.session.fire_and_forget(self.tab.session.cdp("Network.disable", session_id=session_id))
        self.sessions.clear()

    def facts(self) -> NetworkFacts:
        seen = list(self._seen.values())
        api = [s for s in seen if s.type in API_TYPES]
        return NetworkFacts(
            requests=len(seen),
            finished=sum(1 for s in seen if s.done and not s.failed),
            failed=sum(1 for s in seen if s.failed),
            xhr=[_fact(s) for s in api[:MAX_LISTED]],
        )


def _fact(seen: _Seen) -> RequestFact:
    return RequestFact(
        method=seen.method, url=clean_url(seen.url), type=seen.type, status=seen.status, failed=seen.failed,
        error=seen.error, pending=not seen.done,
    )  # fmt: skip
