"""The wire of ``POST /api/agent/interact`` (docs/DESIGN.md, "The backend loop"): the request and
response shapes as pydantic models, and the HTTP client that talks to a backend, local or remote.

The request models are the contract the agent loop's requests (interfaces/agent/request.py,
interfaces/agent/negotiation.py) are held to: field names and types exactly as the
contract's TypeScript (``i`` a string, ``scrollableContainers[].id`` a string, ``screenshot`` a string or
null). The response models are lenient where backends differ (extra fields kept, ``data`` or
the older bare ``{thought, action}`` shape) and say clearly what is wrong when an answer cannot be used.

Secrets: header values, the URL's userinfo and query never appear in a message — ``Secrets.scrub``
takes them out of anything printed, backend text included (a 401 page may echo a token).
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import httpx2 as httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from browserx._version import __version__
from browserx.errors import clip

INTERACT_PATH = "/api/agent/interact"
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
NEGOTIATION = ("needs_context", "needs_full_dom")  # data.status values that ask for more context
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # an HTTP token (RFC 9110)
_MIN_SECRET = 4  # shorter values are not scrubbed: "1" would blank every digit of a log


class AgentError(Exception):
    """The loop cannot go on (backend unreachable, HTTP error, malformed answer, a browserx error
    that is not a failed action): ``browserx agent`` exits 2 with this message, which holds no
    secret."""


# -- request (browserx → backend) ---------------------------------------------------------------


class _Wire(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ScrollInfo(_Wire):
    depth: str = Field(description="How far the container is scrolled: '0%'..'100%'.")
    h: bool = Field(description="More content below.")


class SemanticNodeV3(_Wire):
    i: str = Field(description="Element ID, a string of digits (the snapshot's ID).")
    r: str = Field(description="Role, minified: btn, inp, link, chk, sel, ...")
    n: str = Field(description="Name/label, at most 50 characters.")
    v: str | None = Field(default=None, description="Current value (only with --include-values).")
    s: str | None = Field(default=None, description="States, comma-separated.")
    xy: tuple[float, float] | None = Field(default=None, description="Centre in viewport CSS pixels.")
    f: int | None = Field(default=None, description="Frame number; omitted in the main frame.")
    box: tuple[float, float, float, float] | None = Field(default=None, description="[x, y, w, h].")
    scr: ScrollInfo | None = Field(default=None, description="Scroll container state.")
    occ: bool | None = Field(default=None, description="Covered by another element.")


class Bounds(_Wire):
    x: float
    y: float
    width: float
    height: float


class SemanticNodeV2(_Wire):
    """The full-key form of an interactiveTree node (``semanticNodes``), for backends that read
    only that form: the same elements, the role spelled out."""

    id: str
    role: str
    name: str
    value: str | None = None
    state: str | None = None
    placeholder: str | None = None
    frameId: int | None = None
    bounds: Bounds | None = None


class Viewport(_Wire):
    width: int
    height: int


class ScrollableContainer(_Wire):
    id: str
    depth: str
    hasMore: bool


class LastActionError(_Wire):
    message: str
    code: str
    action: str
    elementId: int | str | None = None


class LastActionResult(_Wire):
    success: bool
    actualState: str | None = None


class ClientObservations(_Wire):
    didNetworkOccur: bool | None = None
    didDomMutate: bool | None = None
    didUrlChange: bool | None = None


class DomChanges(_Wire):
    """What the last action changed in the listed elements (interfaces/agent/request.dom_changes)."""

    addedCount: int
    removedCount: int
    dropdownDetected: bool
    dropdownOptions: list[str] | None = None
    stabilizationTime: int = Field(description="How long the action took to settle, ms.")
    previousUrl: str | None = None
    urlChanged: bool | None = None
    didNetworkOccur: bool | None = None


class ClientVerification(_Wire):
    """The client's selector check: sent after an action whose stale or unknown ID was looked
    up by the answer's ``actionDetails.selectorPath``."""

    elementFound: bool
    selector: str | None = None
    urlChanged: bool | None = None
    timestamp: int | None = Field(default=None, description="When the check ran, ms since the epoch.")


class InteractRequest(_Wire):
    """The body of every ``POST /api/agent/interact`` browserx sends (absent fields are omitted,
    never null, except ``screenshot``, which is null when unchanged since the last one sent)."""

    domMode: Literal["semantic", "skeleton", "hybrid"] = Field(
        description="semantic; skeleton or hybrid when the view listed no element and skeletonDom "
        "(and screenshot) stand in for it."
    )
    interactiveTree: list[SemanticNodeV3]
    url: str
    query: str
    taskId: str | None = None
    sessionId: str | None = Field(default=None, description="The backend's last sessionId, echoed.")
    tabId: int | None = None
    domain: str | None = Field(default=None, description="The root domain of url (bbc.co.uk).")
    title: str | None = None
    pageTitle: str | None = None
    viewport: Viewport | None = None
    scrollPosition: str | None = None
    scrollableContainers: list[ScrollableContainer] | None = None
    recentEvents: list[str] | None = None
    hasErrors: bool | None = None
    hasSuccess: bool | None = None
    lastActionStatus: Literal["success", "failure", "pending"] | None = None
    lastActionError: LastActionError | None = None
    lastActionResult: LastActionResult | None = None
    previousUrl: str | None = None
    clientObservations: ClientObservations | None = None
    clientVerification: ClientVerification | None = None
    domChanges: DomChanges | None = None
    verification_passed: bool | None = None
    verification_message: str | None = None
    errors_detected: list[str] | None = None
    success_messages: list[str] | None = None
    dom_filtered: bool | None = None
    filter_reason: str | None = None
    original_node_count: int | None = None
    token_reduction: int | None = Field(default=None, description="Per cent, 0-100.")
    semanticNodes: list[SemanticNodeV2] | None = None
    # The role codes interactiveTree uses, spelled out (btn → button): not part of the contract,
    # whose table lacks some of browserx's codes (docs/DESIGN.md, "Role codes").
    roleCodes: dict[str, str] | None = None
    dom: str | None = None
    skeletonDom: str | None = None
    screenshot: str | None = None
    screenshotHash: str | None = None
    # After a ``needs_user_input`` answer: what the person answered in browserx's popup (ask_user),
    # sent once, in the next request (not part of the contract, which leaves the reply open).
    userInput: str | None = None


def check_request(body: dict[str, Any]) -> None:
    """Raise AgentError when ``body`` strays from the contract (a bug here, never the backend's):
    checked on the JSON as sent, so a tuple-vs-list or int-vs-string slip shows."""
    nulls = sorted(k for k, v in body.items() if v is None and k != "screenshot")
    if nulls:
        raise AgentError(f"internal: request fields sent as null: {', '.join(nulls)}")
    try:
        InteractRequest.model_validate_json(json.dumps(body))
    except ValidationError as exc:
        raise AgentError(f"internal: the request breaks the backend contract: {_first_problem(exc)}") from exc


# -- response (backend → browserx), negotiation included -----------------------------------------


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class ActionDetails(_Lenient):
    name: str | None = None
    elementId: int | str | None = None
    selectorPath: str | None = None
    args: dict[str, Any] | None = None


class InteractData(_Lenient):
    thought: str | None = None
    action: str | None = None
    actionDetails: ActionDetails | None = None
    taskId: str | None = None
    status: str | None = None
    requestedDomMode: str | None = None
    needsScreenshot: bool | None = None
    needsSkeletonDom: bool | None = None
    reason: str | None = None
    expectedOutcome: dict[str, Any] | None = Field(default=None, alias="expected_outcome")
    userQuestion: str | None = None
    # The session and the plan are echoed (sessionId) and shown in the step log
    # (interfaces/agent/plan.py), never acted on: whatever shape they come in, the loop goes on.
    sessionId: str | None = None
    plan: Any = None
    currentStep: Any = None
    currentStepIndex: Any = None
    totalSteps: Any = None

    @field_validator("sessionId", mode="before")
    @classmethod
    def _session_text(cls, value: Any) -> str | None:
        """A numeric session id is still the session's id; anything else but text is none."""
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        return value if isinstance(value, str) and value.strip() else None

    @property
    def negotiating(self) -> bool:
        """Asks for more context (negotiation; legacy: ``status`` or ``action`` needs_full_dom)."""
        return self.status in NEGOTIATION or (self.action or "").strip() in NEGOTIATION

    @property
    def needs_user_input(self) -> bool:
        """Asks the person a question (``status: needs_user_input``, ``userQuestion``) and
        names no action: the loop asks it in browserx's popup and sends the answer as ``userInput``."""
        return self.status == "needs_user_input" and not (self.action or "").strip()

    @property
    def question(self) -> str:
        """The question for the person (``userQuestion``, else ``reason``)."""
        return (self.userQuestion or self.reason or "").strip() or "The agent needs your input to go on."

    @property
    def wants_full_dom(self) -> bool:
        legacy = "needs_full_dom" in (self.status, (self.action or "").strip())
        return legacy or self.requestedDomMode == "full"


def parse_response(payload: Any) -> InteractData:
    """The ``data`` of a backend answer (``{"success": true, "data": {...}}``, or the bare
    ``{"thought", "action"}``), or AgentError saying what is wrong with it."""
    if not isinstance(payload, dict):
        raise AgentError(f"malformed response: expected a JSON object, got {type(payload).__name__}")
    if payload.get("success") is False:
        why = payload.get("error") or payload.get("message") or (payload.get("data") or {})
        if isinstance(why, dict):
            why = why.get("message") or why.get("error") or json.dumps(why)[:300]
        raise AgentError(f"the backend answered success: false: {clip(str(why), 300)}")
    data = payload.get("data", payload if "action" in payload or "status" in payload else None)
    if not isinstance(data, dict):
        raise AgentError('malformed response: no "data" object (expected {"success": true, "data": {...}})')
    if isinstance(data.get("taskId"), int) and not isinstance(data.get("taskId"), bool):
        data = {**data, "taskId": str(data["taskId"])}  # a numeric task id is still the task's id
    try:
        parsed = InteractData.model_validate(data)
    except ValidationError as exc:
        raise AgentError(f"malformed response: {_first_problem(exc, 'data')}") from exc
    if parsed.negotiating:
        return parsed
    if not (parsed.action or "").strip():
        if parsed.needs_user_input:
            return parsed  # the loop asks the person (ask_user) and sends the answer as userInput
        raise AgentError(
            f'malformed response: data.action is missing or empty (status {parsed.status!r}); expected an action such as "click(12)" or "finish()"'
        )
    return parsed


def _first_problem(exc: ValidationError, prefix: str = "") -> str:
    problem = exc.errors()[0]
    where = ".".join([prefix] * bool(prefix) + [str(p) for p in problem["loc"]]) or "body"
    got = problem.get("input")
    shown = f" (got {clip(json.dumps(got, default=str), 60)})" if not isinstance(got, dict | list) else ""
    return f"{where}: {problem['msg']}{shown}"


# -- secrets ---------------------------------------------------------------------------------


def redact_url(url: str) -> str:
    """The URL for a message: userinfo → ``***@``, query → ``?***``, fragment dropped."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "<unparsable URL>"
    if ":" in host:
        host = f"[{host}]"
    netloc = ("***@" if parts.username is not None or parts.password is not None else "") + host + port
    return urlunsplit((parts.scheme, netloc, parts.path, "***" if parts.query else "", ""))


class Secrets:
    """Values that must never be printed; ``scrub`` replaces each with ``***``."""

    def __init__(self, values: list[str]) -> None:
        # "Bearer abc…": a backend may echo the token alone, so long words of a value count too
        words = [w for v in values for w in v.split() if len(w) >= 8]
        self.values = sorted({v for v in [*values, *words] if len(v) >= _MIN_SECRET}, key=len, reverse=True)

    def scrub(self, text: str) -> str:
        for value in self.values:
            text = text.replace(value, "***")
        return text


def parse_header(spec: str) -> tuple[str, str]:
    """``'Name: value'`` → (name, value); the error never repeats the value."""
    name, sep, value = spec.partition(":")
    name = name.strip()
    if not sep or not _HEADER_NAME.fullmatch(name):
        shown = f"{clip(name, 40)!r}" if sep else "(no colon)"
        raise AgentError(f"--header takes 'Name: value'; the name {shown} is not a valid header name")
    value = value.strip()
    if any(c in value for c in "\r\n\0"):
        raise AgentError(f"--header {name}: the value holds a line break or NUL")
    return name, value


# -- the HTTP client ----------------------------------------------------------------------------


class Backend:
    """``POST {base}/api/agent/interact`` with certificate checks on, a timeout per request, no
    redirects (credentials would follow them elsewhere) and a bounded answer."""

    def __init__(
        self,
        base_url: str,
        headers: list[tuple[str, str]] | None = None,
        timeout: float = 120.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        headers = headers or []
        try:
            parts = urlsplit(base_url)
            username, password = parts.username, parts.password
        except ValueError as exc:
            raise AgentError(f"--backend: not a URL ({exc})") from exc
        self.secrets = Secrets([v for _, v in headers] + [s for s in (username, password, parts.query) if s])
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise AgentError(
                f"--backend takes an http:// or https:// URL with a host, got {redact_url(base_url)!r}"
            )
        path = parts.path.rstrip("/")
        path += "" if path.endswith(INTERACT_PATH) else INTERACT_PATH  # the base, or the endpoint itself
        self.url = urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))
        self.shown_url = redact_url(self.url)
        self.timeout = timeout
        self.plain_remote = parts.scheme == "http" and parts.hostname not in ("localhost", "127.0.0.1", "::1")
        sent = {"Accept": "application/json", "User-Agent": f"browserx/{__version__}"}
        self._http = httpx.Client(
            headers=httpx.Headers([*sent.items(), *headers]),
            timeout=httpx.Timeout(timeout),
            verify=True,
            follow_redirects=False,
            trust_env=True,
            transport=transport,
        )

    def interact(self, body: dict[str, Any]) -> InteractData:
        check_request(body)
        content = json.dumps(body, ensure_ascii=False).encode("utf-8")
        where = f"POST {self.shown_url}"
        try:
            with self._http.stream(
                "POST", self.url, content=content, headers={"Content-Type": "application/json"}
            ) as response:
                raw = bytearray()
                for chunk in response.iter_bytes():
                    raw += chunk
                    if len(raw) > MAX_RESPONSE_BYTES:
                        raise AgentError(f"{where}: the answer exceeds {MAX_RESPONSE_BYTES // 2**20} MiB")
        except httpx.TimeoutException as exc:
            raise AgentError(f"{where}: no answer within {self.timeout:g} s (--timeout)") from exc
        except httpx.HTTPError as exc:  # connect, TLS, protocol errors
            raise AgentError(self.secrets.scrub(f"{where}: cannot reach the backend: {exc}")) from exc
        text = bytes(raw).decode("utf-8", "replace")
        if not 200 <= response.status_code < 300:
            hint = " (check the --header credentials)" if response.status_code in (401, 403) else ""
            reason = response.reason_phrase or ""
            raise AgentError(
                self.secrets.scrub(
                    f"{where}: HTTP {response.status_code} {reason}{hint}: {clip(text.strip(), 300)}"
                )
            )
        try:
            payload = json.loads(text)
        except json.JSONDecodeError as exc:
            kind = response.headers.get("content-type", "no content type")
            raise AgentError(
                self.secrets.scrub(
                    f"{where}: the answer is not JSON ({kind}, {exc.msg} at {exc.pos}): {clip(text.strip(), 200)}"
                )
            ) from exc
        try:
            return parse_response(payload)
        except AgentError as exc:
            raise AgentError(self.secrets.scrub(f"{where}: {exc}")) from exc

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
