"""Fakes shared by the unit tests: a connection to the extension that answers CDP commands with
a test's function, a real ``Tab`` (session, capture state, snapshots) on top of it, and a page
that answers capture and element lookups from a recorded document. For ``browserx agent``: a
client of the host (``FakeAgentClient``) and a backend answering over a mock transport
(``fake_backend``, ``scripted_backend``)."""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Callable, Mapping
from typing import Any

import httpx2 as httpx
import msgspec

from browserx.actions.resolve import RESOLVE_JS
from browserx.errors import BrowserxError, CdpError, StaleElement, UnknownElement
from browserx.interfaces.agent.backend import Backend
from browserx.page_js import MISSING, library_name
from browserx.relay.connection import decode_result
from browserx.relay.protocol import ArgsFrom, Gate, Inbound
from browserx.snapshot.frames import KEY_BITS
from browserx.snapshot.model import F_HIT_TESTED
from browserx.snapshot.snapshot import DomSnapshot
from browserx.tabs.snapshots import take_snapshot
from browserx.tabs.tab import Tab
from tests.builders import AGENT_OBS, AGENT_PAGE, recorded

Answer = Callable[[str, dict[str, Any], str | None], Any]


class FakeConnection:
    """What a Tab needs of ExtensionConnection: attach and detach (failing as ``refused`` says),
    CDP commands (answered by ``answer``, which may raise the error the browser would give), and
    failing a tab's pending requests. Every request and command is logged in ``calls``, a
    command's params in ``sent``. An answer is converted to the result type the caller asks for,
    as the real connection decodes it."""

    def __init__(self, answer: Answer | None = None) -> None:
        self.answer: Answer = answer or (lambda method, params, session_id: {})
        self.calls: list[tuple[str, str | None]] = []
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.failed: list[BrowserxError] = []
        self.refused: dict[str, BrowserxError] = {}  # a request type ("attach") → the error it fails with
        self.failing_answers: dict[str, BrowserxError] = {}  # a posted request's type → its answer's error

    async def request(self, type: str, timeout: float | None = None, **fields: Any) -> Inbound:
        self.calls.append((type, None))
        if type in self.refused:
            raise self.refused[type]
        return Inbound(type="reply")

    async def post(self, type: str, timeout: float | None = None, **fields: Any) -> asyncio.Task[Inbound]:
        """``request`` unwaited: logged (and refused) at once, as the real one writes at once."""
        self.calls.append((type, None))
        if type in self.refused:
            raise self.refused[type]
        return asyncio.ensure_future(self._answer_later(type))

    async def _answer_later(self, type: str) -> Inbound:
        failing = self.failing_answers.get(type)
        if failing is not None:
            raise failing
        return Inbound(type="reply")

    async def cdp(
        self,
        tab_id: int,
        method: str,
        params: dict[str, Any] | None = None,
        session_id: str | None = None,
        timeout: float | None = None,
        *,
        result_type: type[Any] = dict,
        keep: dict[str, Any] | None = None,
    ) -> Any:
        self.calls.append((method, session_id))
        self.sent.append((method, params or {}))
        reply = self.answer(method, params or {}, session_id)
        if inspect.isawaitable(reply):  # an answer that waits for something (a dialog's closing)
            reply = await reply
        if result_type is dict:
            return reply
        # As the real connection decodes the reply's JSON text (an odd shape is a CdpError).
        return decode_result(msgspec.json.encode(reply), method, result_type)

    async def cdp_batch(
        self,
        tab_id: int,
        commands: list[tuple[str, dict[str, Any]]],
        session_id: str | None = None,
        *,
        result_type: type[Any] = dict,
        gates: Mapping[int, Gate] | None = None,
        args: Mapping[int, ArgsFrom] | None = None,
    ) -> list[Any]:
        """As the worker answers: a gated command runs only when the answer it waits for holds
        ``true`` at its path (extension/service-worker.js), else it is the "skipped" error; a
        command taking ``args`` gets the objectIds at their path in the answers it names (null for
        a failed one) after its own arguments."""
        out: list[Any] = []
        raw: list[Any] = []
        for index, (method, params) in enumerate(commands):
            gate = (gates or {}).get(index)
            if gate is not None and not _says_go(raw[gate.after], gate.when):
                raw.append(CdpError(f"CDP error ({method}): skipped: command {gate.after} did not say go"))
                out.append(raw[-1])
                continue
            taken = (args or {}).get(index)
            if taken is not None:
                passed = [_object_at(raw[j], taken.path) for j in taken.of]
                params = {**params, "arguments": [*params.get("arguments", []), *passed]}
            reply = self.answer(method, params, session_id)
            raw.append(reply)
            if result_type is dict or isinstance(reply, BrowserxError):
                out.append(reply)
                continue
            try:
                out.append(decode_result(msgspec.json.encode(reply), method, result_type))
            except CdpError as exc:
                out.append(exc)
        return out

    def fail_tab(self, tab_id: int, exc: BrowserxError, spare: frozenset[str] = frozenset()) -> None:
        self.failed.append(exc)


def _value_at(reply: Any, path: tuple[str, ...]) -> Any:
    value = None if isinstance(reply, BaseException) else reply
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _object_at(reply: Any, path: tuple[str, ...]) -> dict[str, Any]:
    value = _value_at(reply, path)
    return {"objectId": value} if isinstance(value, str) else {"value": None}


def _says_go(reply: Any, when: tuple[str, ...]) -> bool:
    return _value_at(reply, when) is True


def fake_tab(answer: Answer | None = None, tab_id: int = 1) -> tuple[Tab, FakeConnection]:
    """A Tab over a FakeConnection (attached on its first command, as a real one is)."""
    conn = FakeConnection(answer)
    return Tab(tab_id, conn), conn  # type: ignore[arg-type]


def emit(
    tab: Tab, method: str, params: bytes | dict[str, Any] = b"{}", session_id: str | None = None
) -> None:
    """Deliver a CDP event to the tab, as the registry does."""
    raw = params if isinstance(params, bytes) else json.dumps(params).encode()
    tab.session.handle_event(Inbound(type="event", tabId=tab.tab_id, sessionId=session_id, method=method,
                                     params=raw))  # type: ignore[arg-type]  # fmt: skip


class RecordedPage:
    """A page that answers what capture and the element lookup ask of it (an ``Answer`` for
    fake_tab): one main frame showing a recorded document (tests/snapshot/recordings), with its
    keys counted from the key base the host reserves, as collector.js does. The test changes the
    page between calls: ``rerender`` gives a node a new key (a framework made it again),
    ``remove`` takes it out, ``navigate`` brings a new document (a new isolated world, keys from a
    new base), ``opt_out`` marks the document data-no-ai."""

    def __init__(self, name: str, world: int = 5) -> None:
        raw = recorded(name)[0].raw
        assert raw.keyBase == 0 and not raw.frameOwners, "a recorded main frame without child frames"
        old_base = max(raw.key) >> KEY_BITS << KEY_BITS
        relative = [k - old_base if k else 0 for k in raw.key]
        state = {i: {**s, "control": s["control"] - old_base} if s.get("control") else s
                 for i, s in raw.state.items()}  # fmt: skip
        self.frame: dict[str, Any] = msgspec.to_builtins(
            msgspec.structs.replace(raw, key=relative, state=state, hits={}, hitTested=0)
        )
        self.frame["flags"] = [f & ~F_HIT_TESTED for f in raw.flags]  # the host hit-tests
        self.world = world
        self.base: int | None = None  # of the current document, from its first collect
        self.no_ai = False
        self.lookups: list[int] = []  # keys the element lookup was asked for
        # What covers an element, by its whole key, as the host's hit test hears it: the cover's
        # key (0 when it is not a node of the page) and its tag#id.class.
        self.covers: dict[int, tuple[int, str]] = {}
        self.hit_tested: list[int] = []  # keys the host's hit test was asked about
        self.kept: set[str] = set()  # what browserx's world keeps: the page library's name, once installed

    # -- what the test does to the page --

    def key_of(self, index: int) -> int:
        """The whole key of the node at ``index`` of the document (after a first collect)."""
        assert self.base is not None, "not collected yet"
        return self.base + int(self.frame["key"][index])

    def index_of(self, whole_key: int) -> int | None:
        if self.base is None or whole_key <= self.base:
            return None
        relative = whole_key - self.base
        return self.frame["key"].index(relative) if relative in self.frame["key"] else None

    def rerender(self, whole_key: int) -> int:
        """The node of that key made again: the same element, a new DOM object with a new key."""
        index = self.index_of(whole_key)
        assert index is not None
        self.frame["key"][index] = max(self.frame["key"]) + 1
        return self.key_of(index)

    def rename(self, whole_key: int, name: str) -> None:
        """The text inside the element of that key (what names a button or a link) is now ``name``."""
        index = self.index_of(whole_key)
        assert index is not None
        texts = [
            i
            for i, parent in enumerate(self.frame["parent"])
            if parent == index and self.frame["tag"][i] == "#text"
        ]
        assert texts, "an element with text of its own"
        self.frame["text"][texts[0]] = name

    def navigate(self, same_keys: bool = False) -> None:
        """A new document in the frame (a new isolated world). Its keys count from a new base,
        unless ``same_keys``: then the old keys name its nodes (as if the registry had been kept:
        what the world check in the element lookup guards against)."""
        self.world += 1
        self.kept.clear()  # a new world holds nothing
        if not same_keys:
            self.base = None

    def opt_out(self) -> None:
        self.no_ai = True

    # -- the page's answers --

    def stub_missed(self, declaration: str) -> dict[str, Any] | None:
        """A library member's stub throws when the world lacks the library (its whole form installs
        it, as page_js.py's does): the page's answer then, else None."""
        if library_name() not in declaration:
            return None  # a page-world function
        if "Object.defineProperty(globalThis" in declaration:
            self.kept.add(library_name())
            return None
        if library_name() in self.kept:
            return None
        thrown = {
            "type": "object",
            "subtype": "error",
            "description": f"Error: {MISSING}\n    at <anonymous>",
        }
        return {"result": {"type": "object", "subtype": "error"},
                "exceptionDetails": {"exceptionId": 1, "text": "Uncaught", "lineNumber": 0, "columnNumber": 0,
                                     "exception": thrown}}  # fmt: skip

    def __call__(self, method: str, params: dict[str, Any], session_id: str | None) -> Any:
        assert session_id is None, "a page without child frames"
        if method == "Page.getFrameTree":
            return {"frameTree": {"frame": {"id": "F", "url": self.frame["url"]}}}
        if method == "Page.createIsolatedWorld":
            return {"executionContextId": self.world}
        if method == "Runtime.evaluate":  # the framework probe: the element count, no handle
            return {"result": {"type": "number", "value": len(self.frame["tag"])}}
        if method != "Runtime.callFunctionOn":
            return {}
        context = params.get("executionContextId")
        if context is not None and context != self.world:
            raise CdpError("Cannot find context with specified id")
        missed = self.stub_missed(params["functionDeclaration"])
        if missed is not None:
            return missed
        args = [a.get("value") for a in params.get("arguments", [])]
        if params["functionDeclaration"] in (RESOLVE_JS.source, RESOLVE_JS.whole):
            return self._lookup(args[0])
        if args and isinstance(args[0], dict) and "freshBase" in args[0]:
            if self.base is None:
                self.base = args[0]["freshBase"]  # the document's registry takes it
            frame = {**self.frame, "keyBase": self.base}
            return {"result": {"type": "string", "value": json.dumps({"frame": frame})}}
        if args and isinstance(args[0], list):  # the host's hit test
            self.hit_tested += args[0]
            hits = [list(self.covers[k]) if k in self.covers else None for k in args[0]]
            return {"result": {"type": "string", "value": json.dumps(hits)}}
        return {"result": {"type": "undefined"}}

    def _lookup(self, whole_key: int) -> dict[str, Any]:
        self.lookups.append(whole_key)
        index = self.index_of(whole_key)
        if index is None:
            return {"result": {"type": "object", "subtype": "null", "value": None}}
        if self.no_ai:
            return {"result": {"type": "string", "value": "no-ai"}}
        tag = self.frame["tag"][index]
        return {"result": {"type": "object", "subtype": "node", "className": "HTMLElement",
                           "description": f"{tag}.x", "objectId": f"node-{whole_key}"}}  # fmt: skip


# -- browserx agent ---------------------------------------------------------------------------------

BACKEND_SECRET = "Bearer s3cr3t-t0ken"  # the Authorization header of fake_backend: never printed


def fake_backend(
    handler: Callable[[httpx.Request], httpx.Response], url: str = "https://agent.example/base/"
) -> Backend:
    """A Backend whose requests ``handler`` answers (no network), sending ``BACKEND_SECRET``."""
    return Backend(
        url, [("Authorization", BACKEND_SECRET)], timeout=5, transport=httpx.MockTransport(handler)
    )


def scripted_backend(*answers: dict[str, Any]) -> tuple[Backend, list[dict[str, Any]]]:
    """A backend answering ``answers`` in order (the last one again after that), and the request
    bodies it got."""
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json=answers[min(len(bodies), len(answers)) - 1])

    return fake_backend(handler), bodies


class FakeAgentClient:
    """What the agent loop asks of a Client: snapshots (of ``AGENT_PAGE``; with a ``filter``, the
    element ``selector_ids`` maps it to), screenshots, the html tool and actions (``stale`` IDs
    fail as stale, 404 as unknown). Every call is logged in ``calls``."""

    def __init__(self, stale: set[int] = frozenset(), selector_ids: dict[str, int] | None = None) -> None:
        self.stale = stale
        self.selector_ids = selector_ids or {}
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.url = AGENT_PAGE["url"]
        self.answers: list[str] = []

    def snapshot(self, **params: Any) -> dict[str, Any]:
        self.calls.append(("snapshot", params))
        if params.get("filter"):
            found = self.selector_ids.get(params["filter"])
            tree = [{"i": found, "r": "btn", "n": "Save"}] if found else []
            return {"tab": AGENT_OBS.tab, "semantic": {**AGENT_PAGE, "interactive_tree": tree}}
        return {"tab": AGENT_OBS.tab, "semantic": {**AGENT_PAGE, "url": self.url}}

    def ask_user(self, question: str, **params: Any) -> dict[str, Any]:
        """The person's next answer (``answers``, in order)."""
        self.calls.append(("ask_user", {"question": question, **params}))
        return {"answer": self.answers.pop(0)}

    def screenshot(self, **params: Any) -> dict[str, Any]:
        self.calls.append(("screenshot", params))
        return {"data": "/9j/4AAQ", "phash": "c3c3c3c3c3c3c3c3", "width": 1024, "height": 606}

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.calls.append((method, params))
        if method == "html":
            return {"html": f"<{params['mode']}/>", "truncated": False}
        if params.get("id") in self.stale:
            raise StaleElement(f"Element {params['id']} is gone; take a new snapshot.")
        if params.get("id") == 404:
            raise UnknownElement("No element 404 in this tab.")
        if method == "navigate":
            self.url = params["url"]
        return {"success": True, "action": method, "id": params.get("id"), "duration_ms": 5.0,
                "changes": {"navigated": method == "navigate", "dom_mutations": 2}}  # fmt: skip


class Observed:
    """A tab that took and placed a snapshot of ``page``, as an observation does."""

    def __init__(self, page: RecordedPage) -> None:
        self.page = page
        self.tab, self.conn = fake_tab(page)
        self.snap: DomSnapshot | None = None

    async def observe(self) -> DomSnapshot:
        snap = await take_snapshot(self.tab)
        self.tab.place_snapshot(snap)
        self.tab.remember(snap)
        self.snap = snap
        return snap

    def id_named(self, name: str) -> int:
        assert self.snap is not None
        (found,) = [i for i, n in self.snap.by_id.items() if n.name == name]
        return found

    def key_of(self, element_id: int) -> int:
        return self.tab.ids.ref_of[element_id].key
