"""``browserx agent``: the seed 004 backend loop. Observe the tab (the semantic view), ``POST
{backend}/api/agent/interact`` with seed 004 §1's body, run the ``action`` it answers with (the
grammar of interfaces/grammar.py), report how it went in the next request; until ``finish()``
(exit 0) or ``fail()`` (exit 1). Errors and running out of steps exit 2.

- Answers: ``{"success": true, "data": {...}}`` (§3.2) or the bare ``{"thought", "action", ...}``
  of §6.7 (backend.parse_response). A ``taskId`` in any answer — a ``needs_context`` one included —
  is sent on every later request (the negotiation retry included) until another answer carries
  a new one.
- Negotiation (§1, §5.8): an answer with ``status: "needs_context"`` (or the legacy
  ``needs_full_dom``) is retried as the same call, same ``taskId``, plus only what it asked for
  (``needs_of``): when the answer has either flag (``needsScreenshot``, ``needsSkeletonDom``),
  the flags alone say what is sent — an absent one is false; only when it has neither is
  ``requestedDomMode`` read (hybrid → screenshot + skeleton, skeleton → skeleton). The seed has
  no flag for the full DOM: ``dom`` is sent for ``requestedDomMode: "full"`` or the legacy
  ``needs_full_dom``, whatever the flags say. ``screenshot`` + ``screenshotHash`` (JPEG ≤ 1024 px
  wide, quality 70; ``null`` when the hash equals the last one sent), ``skeletonDom``, ``dom``;
  at most ``MAX_NEGOTIATION_ROUNDS`` a step.
- Robust selectors (§4): when the action's element ID is stale or unknown, the element is looked
  up by ``actionDetails.selectorPath`` (matched in every frame and shadow root) and the action is
  run again on the ID found there. The step log and ``lastActionResult.actualState`` say so in
  words; ``clientVerification`` (§1: ``{elementFound, selector, urlChanged, timestamp}``) says
  that the selector check ran, on which selector and whether it found an element.
- Verified outcomes (seed 002 §2.6.3): an ``expectedOutcome`` / ``expected_outcome`` of the answer
  becomes the action's ``expect`` (its ``timeout`` / ``timeoutMs`` in milliseconds, as every
  example of seed 002 writes it); its verification comes back as ``verification_passed``,
  ``verification_message``, ``errors_detected``, ``success_messages``.

The request body is built by pure functions of the observation and the last outcome
(``build_request``), checked against the contract (interfaces/backend.py) before it is sent.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter, ValidationError

from browserx.control.tools import TOOLS_BY_NAME
from browserx.errors import (
    ActionError,
    BadRequest,
    BrowserxError,
    CdpError,
    ElementError,
    PageOptedOut,
    clip,
)
from browserx.interfaces.backend import AgentError, Backend, InteractData, parse_header
from browserx.interfaces.grammar import ActionCall, format_action, parse_action
from browserx.interfaces.outcome import describe_action

if TYPE_CHECKING:
    from browserx.control.client import Client

DEFAULT_MAX_STEPS = 25
MAX_NEGOTIATION_ROUNDS = 2
SCREENSHOT_WIDTH, SCREENSHOT_QUALITY = 1024, 70  # JPEG, seed 004 §5.2
HTML_MAX_CHARS = {"skeleton": 100_000, "full": 200_000}  # seed 004 §5.2 (skeleton), §5.8 (full)
# A failed action is reported to the backend (lastActionStatus "failure") and the loop goes on;
# any other browserx error (host gone, tab closed, page opted out of observation) ends it.
ACTION_FAILURES = (ElementError, ActionError, BadRequest)
BY_SELECTOR = ("stale_id", "unknown_id")  # failures actionDetails.selectorPath can repair
# An artifact the host cannot give (no such tool yet, an opted-out page, a CDP refusal) is left out.
ARTIFACT_FAILURES = (BadRequest, PageOptedOut, CdpError, ActionError)
_FRAME = re.compile(r"f?([0-9]+)")

Log = Callable[[str], None]


# -- the observation -------------------------------------------------------------------------


@dataclass(frozen=True)
class Observation:
    tab: int
    page: dict[str, Any]  # the semantic view (views/semantic.py)

    @property
    def url(self) -> str:
        return str(self.page.get("url") or "")


def observe(client: Client, tab: int | None, include_values: bool = False) -> Observation:
    snap = client.snapshot(tab=tab, format="semantic", include_values=include_values)
    return Observation(int(snap["tab"]), dict(snap["semantic"]))


# -- the request body (pure) -------------------------------------------------------------------


def v3_node(entry: Mapping[str, Any]) -> dict[str, Any]:
    """One interactiveTree node as seed 004 types it: ``i`` a string, ``n`` always present, ``f``
    a frame number."""
    node: dict[str, Any] = {
        "i": str(entry["i"]),
        "r": str(entry.get("r") or ""),
        "n": str(entry.get("n") or ""),
    }
    for key in ("v", "s"):
        if entry.get(key) is not None:
            node[key] = str(entry[key])
    if _numbers(entry.get("xy"), 2):
        node["xy"] = list(entry["xy"])
    frame = frame_number(entry.get("f"))
    if frame is not None:
        node["f"] = frame
    if _numbers(entry.get("box"), 4):
        node["box"] = list(entry["box"])
    scr = entry.get("scr")
    if isinstance(scr, Mapping):
        node["scr"] = {"depth": str(scr.get("depth") or "0%"), "h": bool(scr.get("h"))}
    if entry.get("occ"):
        node["occ"] = True
    return node


def _numbers(value: Any, n: int) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == n
        and all(isinstance(x, int | float) and not isinstance(x, bool) for x in value)
    )


def frame_number(label: Any) -> int | None:
    """browserx labels child frames ``f1``, ``f2``…; the seed numbers them (``f: 1``)."""
    if isinstance(label, int) and not isinstance(label, bool):
        return label
    m = _FRAME.fullmatch(label) if isinstance(label, str) else None
    return int(m.group(1)) if m else None


def page_fields(obs: Observation) -> dict[str, Any]:
    """What every request says about the page (seed 004 §1, §6.2.1)."""
    page = obs.page
    viewport = page.get("viewport") or {}
    return {
        "domMode": "semantic",
        "interactiveTree": [v3_node(e) for e in page.get("interactive_tree") or []],
        "url": obs.url,
        "tabId": obs.tab,
        "pageTitle": str(page.get("title") or ""),
        "viewport": {
            "width": round(viewport.get("width") or 0),
            "height": round(viewport.get("height") or 0),
        },
        "scrollPosition": str(page.get("scroll_position") or "0%"),
        "scrollableContainers": [
            {"id": str(c["id"]), "depth": str(c.get("depth") or "0%"), "hasMore": bool(c.get("hasMore"))}
            for c in page.get("scrollable_containers") or []
        ],
        "recentEvents": [str(e) for e in page.get("recent_events") or []],
        "hasErrors": bool(page.get("has_errors")),
        "hasSuccess": bool(page.get("has_success")),
    }


@dataclass
class ActionOutcome:
    """How the last action went, for the next request."""

    action: str  # the action as the backend wrote it
    success: bool
    url_before: str
    result: dict[str, Any] | None = None  # the ActionResult, when it ran
    code: str | None = None  # failure: the error code ...
    message: str | None = None  # ... and message
    element_id: int | None = None
    notes: list[str] = field(default_factory=list)  # e.g. the selectorPath used
    # The actionDetails.selectorPath lookup, when one ran: seed 004 §1's clientVerification
    # without urlChanged (known only when the next request is built).
    selector_check: dict[str, Any] | None = None

    def summary(self) -> str:
        """One line: the result's lines (the verification feedback is one) and the notes, joined
        with "; "."""
        head = describe_action(self.result) if self.result else f"failed: {self.code}: {self.message}"
        lines = [line.strip() for line in head.splitlines() if line.strip()]
        return "; ".join([*lines, *self.notes])


def outcome_fields(last: ActionOutcome, url_now: str) -> dict[str, Any]:
    """``lastActionStatus``, ``lastActionError``, ``lastActionResult``, ``previousUrl``,
    ``clientObservations``, ``clientVerification`` when an ``actionDetails.selectorPath`` lookup
    ran, and, when the action carried an expectation, the sentinel fields."""
    out: dict[str, Any] = {"lastActionStatus": "success" if last.success else "failure"}
    if not last.success:
        error: dict[str, Any] = {
            "message": last.message or "",
            "code": last.code or "action_failed",
            "action": last.action,
        }
        if last.element_id is not None:
            error["elementId"] = last.element_id
        out["lastActionError"] = error
    out["lastActionResult"] = {"success": last.success, "actualState": last.summary()}
    out["previousUrl"] = last.url_before
    result = last.result or {}
    seen: dict[str, bool] = {}
    network = result.get("network")
    requests = network.get("requests") if isinstance(network, Mapping) else None
    if isinstance(requests, int) and not isinstance(requests, bool):
        seen["didNetworkOccur"] = requests > 0
    changes = result.get("changes") or {}
    mutations = changes.get("dom_mutations")
    if isinstance(mutations, int) and not isinstance(mutations, bool):
        seen["didDomMutate"] = mutations > 0
    elif changes.get("navigated"):  # dom_mutations None: the page was replaced
        seen["didDomMutate"] = True
    seen["didUrlChange"] = url_now != last.url_before
    out["clientObservations"] = seen
    if last.selector_check is not None:
        out["clientVerification"] = {**last.selector_check, "urlChanged": url_now != last.url_before}
    verification = result.get("verification")
    if isinstance(verification, Mapping):
        out["verification_passed"] = bool(verification.get("passed"))
        out["verification_message"] = str(verification.get("feedback") or "")
        out["errors_detected"] = [str(e) for e in verification.get("errors_detected") or []]
        out["success_messages"] = [str(m) for m in verification.get("success_messages") or []]
    return out


def build_request(
    task: str, obs: Observation, *, task_id: str | None = None, last: ActionOutcome | None = None
) -> dict[str, Any]:
    """The body of one ``POST /api/agent/interact`` (no artifacts: those only on request)."""
    page = page_fields(obs)
    body: dict[str, Any] = {"domMode": page.pop("domMode"), "interactiveTree": page.pop("interactiveTree")}
    body["url"] = page.pop("url")
    body["query"] = task
    if task_id is not None:
        body["taskId"] = task_id
    body.update(page)
    if last is not None:
        body.update(outcome_fields(last, obs.url))
    return body


# -- negotiation -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Needs:
    screenshot: bool = False
    skeleton: bool = False
    full_dom: bool = False

    def names(self) -> list[str]:
        return [n for n, on in (("screenshot", self.screenshot), ("skeletonDom", self.skeleton),
                                ("dom", self.full_dom)) if on]  # fmt: skip


def needs_of(data: InteractData) -> Needs:
    """What a needs_context answer asks for. Its flags win when it has either of them
    (``needsScreenshot``, ``needsSkeletonDom``; an absent one is then false); only when it has
    neither is ``requestedDomMode`` read: hybrid → screenshot + skeleton, skeleton → skeleton.
    The full DOM has no flag in the seed: ``requestedDomMode: "full"`` or the legacy
    ``needs_full_dom`` asks for it either way."""
    if data.needsScreenshot is not None or data.needsSkeletonDom is not None:
        screenshot, skeleton = bool(data.needsScreenshot), bool(data.needsSkeletonDom)
    else:
        mode = data.requestedDomMode
        screenshot, skeleton = mode == "hybrid", mode in ("hybrid", "skeleton")
    return Needs(screenshot=screenshot, skeleton=skeleton, full_dom=data.wants_full_dom)


def gather_artifacts(
    client: Client, tab: int, needs: Needs, last_hash: str | None, log: Log
) -> tuple[dict[str, Any], str | None]:
    """The requested artifacts as request fields, and the hash of the screenshot now sent. One the
    host cannot give is left out, with a note in the log."""
    out: dict[str, Any] = {}
    if needs.screenshot:
        try:
            shot = client.screenshot(
                tab=tab, format="jpeg", quality=SCREENSHOT_QUALITY, max_width=SCREENSHOT_WIDTH
            )
        except ARTIFACT_FAILURES as exc:
            log(f"  screenshot left out: {exc.code}: {clip(exc.message, 200)}")
        else:
            phash = shot.get("phash")
            out["screenshot"] = None if phash and phash == last_hash else shot["data"]
            if phash:
                out["screenshotHash"] = str(phash)
                last_hash = str(phash)
    for wanted, mode, key in ((needs.skeleton, "skeleton", "skeletonDom"), (needs.full_dom, "full", "dom")):
        if not wanted:
            continue
        try:
            html = client.call("html", tab=tab, mode=mode, max_chars=HTML_MAX_CHARS[mode])
        except ARTIFACT_FAILURES as exc:
            log(f"  {key} left out: {exc.code}: {clip(exc.message, 200)}")
            continue
        if isinstance(html, Mapping) and isinstance(html.get("html"), str):
            out[key] = html["html"]
        else:
            log(f"  {key} left out: the html tool answered without an html string")
    return out, last_hash


# -- expected outcomes (seed 002 §2.6.3) → expect ----------------------------------------------

_FLAGS = ("navigation", "value_changes", "state_changes", "any_change", "no_change")


def to_expect(outcome: Any) -> dict[str, Any] | None:
    """``{"type": "navigation", "or_element_appears": "Thank you", "timeout": 2000}`` →
    ``{"or": [{"navigation": true}, {"element_appears": {"text": "Thank you"}}], "timeout": 2.0}``.
    Kinds: navigation, url_contains, element_appears, element_disappears, value_changes,
    state_changes, any_change, no_change; alternatives as ``or_<kind>`` keys or ``orOutcome``.
    ``timeout`` (or ``timeoutMs``) is in milliseconds, as in every example of seed 002 (``2000``:
    2 s; ``5``: 5 ms), capped at 60 s. None when nothing in it can be checked."""
    if not isinstance(outcome, Mapping):
        return None
    parts = [_expect_one(outcome.get("type"), outcome)]
    for key, value in outcome.items():
        if isinstance(key, str) and key.startswith("or_"):
            parts.append(_expect_one(key[3:], value))
    if isinstance(outcome.get("orOutcome"), Mapping):
        alt = to_expect(outcome["orOutcome"])
        if alt is not None:
            alt.pop("timeout", None)
            parts.append(alt)
    found = [p for p in parts if p]
    if not found:
        return None
    expect: dict[str, Any] = found[0] if len(found) == 1 else {"or": found}
    timeout = outcome.get("timeoutMs", outcome.get("timeout"))
    if isinstance(timeout, int | float) and not isinstance(timeout, bool) and timeout > 0:
        expect["timeout"] = min(timeout / 1000, 60.0)
    return expect


def _expect_one(kind: Any, source: Any) -> dict[str, Any] | None:
    """One kind, its argument taken from ``source`` (the outcome object, or an ``or_`` value)."""
    if kind in _FLAGS:
        return {kind: True} if source is not False else None
    if kind == "url_contains":
        text = source if isinstance(source, str) else _first_str(source, "url", "value", "text")
        return {"url_contains": text} if text else None
    if kind in ("element_appears", "element_disappears"):
        if isinstance(source, str):
            return {kind: {"text": source}} if source else None
        if isinstance(source, Mapping):
            role, name = _first_str(source, "role"), _first_str(source, "name")
            if role:
                return {kind: {"role": role, **({"name": name} if name else {})}}
            text = _first_str(source, "text", "value", "name")
            return {kind: {"text": text}} if text else None
    return None


def _first_str(source: Any, *keys: str) -> str | None:
    if isinstance(source, Mapping):
        for key in keys:
            if isinstance(source.get(key), str) and source[key]:
                return str(source[key])
    return None


# -- running the answer's action ----------------------------------------------------------------


@dataclass(frozen=True)
class Ending:
    """finish() or fail(): the task is over."""

    success: bool
    reason: str | None


def act(client: Client, tab: int, data: InteractData, url_before: str) -> ActionOutcome | Ending:
    """Run ``data.action``; a failed action (and an action that does not parse) is an outcome to
    report, not an exception."""
    text = (data.action or "").strip()
    try:
        call = parse_action(text)
    except BadRequest as exc:
        return ActionOutcome(
            text, False, url_before, code=exc.code, message=f"the action does not parse: {exc.message}"
        )
    if call.tool is None:
        reason = call.params.get("reason")
        return Ending(call.verb == "finish", str(reason) if reason is not None else None)
    params: dict[str, Any] = {**call.params, "tab": tab}
    outcome = ActionOutcome(text, False, url_before, element_id=call.params.get("id"))
    expect = to_expect(data.expectedOutcome)
    if expect is not None:
        declared = TOOLS_BY_NAME[call.tool].params.model_fields.get("expect")
        try:
            if declared is None or declared.annotation is None:
                raise ValueError(f"{call.tool} takes no expect")
            TypeAdapter(declared.annotation).validate_python(expect)
        except (ValueError, ValidationError) as exc:  # the action still runs, unchecked
            why = _first_error(exc) if isinstance(exc, ValidationError) else str(exc)
            outcome.notes.append(f"expected outcome not checked: {clip(why, 160)}")
        else:
            params["expect"] = expect
    try:
        outcome.result = _run(client, call, params)
    except ACTION_FAILURES as exc:
        selector = data.actionDetails.selectorPath if data.actionDetails else None
        if exc.code in BY_SELECTOR and selector and "id" in call.params:
            return _retry_by_selector(client, call, params, selector, exc, outcome)
        outcome.code, outcome.message = exc.code, exc.message
        return outcome
    outcome.success = True
    return outcome


def _first_error(exc: ValidationError) -> str:
    problem = exc.errors()[0]
    return f"{'.'.join(str(p) for p in problem['loc']) or 'expect'}: {problem['msg']}"


def _run(client: Client, call: ActionCall, params: dict[str, Any]) -> dict[str, Any]:
    assert call.tool is not None
    result: dict[str, Any] = client.call(call.tool, **params)
    return result


def _retry_by_selector(
    client: Client,
    call: ActionCall,
    params: dict[str, Any],
    selector: str,
    exc: BrowserxError,
    outcome: ActionOutcome,
) -> ActionOutcome:
    """§4: the element ``call`` named is gone; find it by ``selector`` and run the action on it."""
    old = call.params["id"]
    try:
        found = find_by_selector(client, params["tab"], selector)
    except BadRequest as lookup:  # an invalid selector
        found, why = None, f"selectorPath {selector!r} unusable: {lookup.message}"
    else:
        why = f"selectorPath {selector!r} matched no element with an ID"
    if found == old:  # cannot be (a fresh view lists no stale ID), and would only fail again
        found, why = None, f"selectorPath {selector!r} names the same element"
    outcome.selector_check = {
        "elementFound": found is not None,
        "selector": selector,
        "timestamp": int(time.time() * 1000),
    }
    if found is None:
        outcome.code, outcome.message = exc.code, f"{exc.message} ({why})"
        return outcome
    rewritten = ActionCall(call.verb, call.tool, {**call.params, "id": found})
    note = f"[{old}] was {exc.code}: ran {format_action(rewritten)} on the element selectorPath {selector!r} found"
    outcome.notes.append(note)  # in the step's outcome line and in lastActionResult.actualState
    outcome.element_id = found
    try:
        outcome.result = _run(client, rewritten, {**params, "id": found})
    except ACTION_FAILURES as again:
        outcome.code, outcome.message = again.code, again.message
        return outcome
    outcome.success = True
    return outcome


def find_by_selector(client: Client, tab: int, selector: str) -> int | None:
    """The first element with an ID (document order) in what ``selector`` matches, in every frame
    and shadow root of the tab."""
    view = client.snapshot(tab=tab, format="semantic", filter=selector, max_tokens=0)["semantic"]
    for entry in view.get("interactive_tree") or []:
        return int(entry["i"])
    return None


# -- the loop -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgentRun:
    code: int  # 0 finish(), 1 fail(), 2 error or out of steps
    message: str  # the final line
    steps: int
    task_id: str | None


def run_agent(
    client: Client,
    backend: Backend,
    task: str,
    *,
    tab: int | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    include_values: bool = False,
    log: Log = lambda line: print(line, file=sys.stderr, flush=True),
) -> AgentRun:
    """Observe → interact (→ negotiate) → act, until finish()/fail() or ``max_steps``."""
    task_id: str | None = None
    last: ActionOutcome | None = None
    shot_hash: str | None = None
    step = 0
    try:
        for step in range(1, max_steps + 1):
            obs = observe(client, tab, include_values)
            if tab is None:
                log(f"tab {obs.tab}: {clip(obs.url, 120)}")
            tab = obs.tab  # pinned: later actions go to this tab whatever gets focus
            body = build_request(task, obs, task_id=task_id, last=last)
            data = backend.interact(body)
            task_id = data.taskId or task_id
            rounds = 0
            while data.negotiating:
                rounds += 1
                if rounds > MAX_NEGOTIATION_ROUNDS:
                    raise AgentError(f"the backend asked for more context {rounds} times in a row")
                needs = needs_of(data)
                if not needs.names():
                    raise AgentError(
                        f"the backend answered {data.status or data.action!r} but asked for nothing"
                    )
                why = f" ({_line(data.reason, 160)})" if data.reason else ""
                log(f"step {step}: {data.status or data.action}{why}: sending {', '.join(needs.names())}")
                artifacts, shot_hash = gather_artifacts(client, tab, needs, shot_hash, log)
                retry = {**body, **({"taskId": task_id} if task_id else {}), **artifacts}
                data = backend.interact(retry)
                task_id = data.taskId or task_id
            if data.thought:
                log(f"step {step}: thought: {_line(data.thought, 300)}")
            log(f"step {step}: action: {_line(data.action or '', 300)}")
            outcome = act(client, tab, data, obs.url)
            if isinstance(outcome, Ending):
                verb = "finished" if outcome.success else "failed"
                reason = f": {_line(outcome.reason, 300)}" if outcome.reason else ""
                steps = f"{step} step{'' if step == 1 else 's'}"
                return AgentRun(0 if outcome.success else 1, f"{verb} after {steps}{reason}", step, task_id)
            log(f"step {step}: outcome: {_line(outcome.summary(), 400)}")
            last = outcome
    except AgentError as exc:
        return AgentRun(2, f"error at step {step}: {exc}", step, task_id)
    except BrowserxError as exc:
        return AgentRun(
            2, f"error at step {step}: browserx {exc.code}: {clip(exc.message, 400)}", step, task_id
        )
    return AgentRun(
        2, f"stopped: no finish() or fail() within {max_steps} steps (--max-steps)", step, task_id
    )


def _line(text: str | None, limit: int) -> str:
    return clip(" ".join((text or "").split()), limit)


# -- the command ------------------------------------------------------------------------------


def cli_main(args: argparse.Namespace) -> int:
    """``browserx agent``: the step log on stderr, the final line on stdout; exit 0/1/2."""
    from browserx.control.client import Client

    if args.max_steps < 1 or args.timeout <= 0:
        print("browserx agent: --max-steps must be at least 1 and --timeout positive", file=sys.stderr)
        return 2
    try:
        headers = [parse_header(spec) for spec in args.header or []]
        backend = Backend(args.backend, headers, timeout=args.timeout)
    except AgentError as exc:
        print(f"browserx agent: {exc}", file=sys.stderr)
        return 2
    scrub = backend.secrets.scrub

    def log(line: str) -> None:
        print(scrub(line), file=sys.stderr, flush=True)

    with backend:
        if backend.plain_remote:
            log(
                "warning: plain http:// to another machine: the page state and the headers travel unencrypted"
            )
        log(f"backend: POST {backend.shown_url}")
        try:
            with Client(args.socket) as bx:
                run = run_agent(bx, backend, args.task, tab=args.tab, max_steps=args.max_steps,
                                include_values=args.include_values, log=log)  # fmt: skip
        except BrowserxError as exc:  # no host to connect to
            run = AgentRun(2, f"error: browserx {exc.code}: {exc.message}", 0, None)
    print(scrub(run.message), flush=True)
    return run.code


__all__ = [
    "ActionOutcome",
    "AgentRun",
    "Observation",
    "build_request",
    "cli_main",
    "find_by_selector",
    "outcome_fields",
    "page_fields",
    "run_agent",
    "to_expect",
    "v3_node",
]
