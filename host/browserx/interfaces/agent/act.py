"""Running the backend's ``action`` (the grammar of interfaces/grammar.py) on the tab: parsed, with
its expected outcome as ``expect`` when the tool takes it (interfaces/agent/expect.py), and run. A
failed action (and one that does not parse) is an outcome to report in the next request, not an
exception; ``finish()`` and ``fail()`` end the task.

Robust selectors (docs/DESIGN.md): when the action's element ID is stale or unknown, the element is
looked up by ``actionDetails.selectorPath`` (matched in every frame and shadow root) and the action
is run again on the ID found there. The step log and ``lastActionResult.actualState`` say so in
words; ``clientVerification`` (``{elementFound, selector, urlChanged, timestamp}``) says that
the selector check ran, on which selector and whether it found an element."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter, ValidationError

from browserx.control.tools import TOOLS_BY_NAME
from browserx.errors import ActionError, BadRequest, BrowserxError, ElementError, clip
from browserx.expectations import default_expect
from browserx.interfaces.agent.backend import InteractData
from browserx.interfaces.agent.expect import to_expect
from browserx.interfaces.agent.request import ActionOutcome
from browserx.interfaces.grammar import ActionCall, format_action, parse_action

if TYPE_CHECKING:
    from browserx.control.client import Client

# A failed action is reported to the backend (lastActionStatus "failure") and the loop goes on;
# any other browserx error (host gone, tab closed, page opted out of observation) ends it.
ACTION_FAILURES = (ElementError, ActionError, BadRequest)
BY_SELECTOR = ("stale_id", "unknown_id")  # failures actionDetails.selectorPath can repair


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
    default = default_expect(call.tool) if expect is None else None
    if default is not None:  # the backend named no outcome: the action kind's default check
        expect = default.model_dump(mode="json", by_alias=True, exclude_none=True, exclude_defaults=True)
        outcome.default_check = True
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
    """The element ``call`` named is gone; find it by ``selector`` and run the action on it."""
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


__all__ = ["ACTION_FAILURES", "Ending", "act", "find_by_selector"]
