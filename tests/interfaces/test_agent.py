"""`browserx agent` without a browser: the seed 004 request body built from a recorded observation
(field by field, with the seed's types), the answers it accepts and the ones it refuses, the
negotiation round, the selectorPath retry, expected outcomes → `expect`, exit codes, and that no
secret (header values, URL userinfo and query) ever reaches a message."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx2 as httpx
import pytest

from browserx.errors import HostDisconnected, StaleElement, UnknownElement
from browserx.interfaces import agent
from browserx.interfaces.agent import (
    ActionOutcome,
    Observation,
    build_request,
    needs_of,
    run_agent,
    to_expect,
    v3_node,
)
from browserx.interfaces.backend import (
    AgentError,
    Backend,
    InteractRequest,
    check_request,
    parse_header,
    parse_response,
    redact_url,
)
from browserx.interfaces.cli import main

# The semantic view as the host returned it (snap-frames.html + act-scroll.html, recorded with
# boxes), plus a value, states and a covered element.
PAGE: dict[str, Any] = {
    "mode": "semantic",
    "url": "http://127.0.0.1:36261/form.html",
    "title": "Snapshot frames",
    "viewport": {"width": 1280, "height": 757},
    "scroll_position": "14%",
    "interactive_tree": [
        {"i": 1, "r": "btn", "n": "Main frame button", "xy": [70, 90], "box": [8, 80, 123, 21]},
        {"i": 4, "r": "btn", "n": "Cross-site frame button", "xy": [96, 281], "box": [18, 271, 155, 21], "f": "f1"},
        {"i": 5, "r": "inp", "n": "Cross-site field", "v": "Ada", "s": "required,focused", "xy": [366, 281], "f": "f1"},
        {"i": 7, "r": "scr", "xy": [209, 181], "box": [8, 80, 402, 202], "scr": {"depth": "0%", "h": True}},
        {"i": 9, "r": "btn", "n": "Deep button", "xy": [54, 1026], "occ": True},
    ],
    "scrollable_containers": [{"id": 7, "depth": "0%", "hasMore": True, "above": True}],
    "recent_events": ['[1s ago] error appeared: "Invalid ZIP code"'],
    "has_errors": True,
    "has_success": False,
    "meta": {"totalElements": 5, "viewportElements": 2, "prunedElements": 0, "occludedElements": 1,
             "extractionTimeMs": 41, "estimatedTokens": 323},
}  # fmt: skip
OBS = Observation(tab=373200592, page=PAGE)
PAGE_KEYS = {"domMode", "interactiveTree", "url", "query", "tabId", "pageTitle", "viewport", "scrollPosition",
             "scrollableContainers", "recentEvents", "hasErrors", "hasSuccess"}  # fmt: skip


# -- the request body ---------------------------------------------------------------------


def test_first_request_is_the_semantic_first_contract() -> None:
    body = build_request("Fill the form", OBS)
    assert set(body) == PAGE_KEYS  # no taskId before one was given, no dom/skeletonDom/screenshot
    assert body["domMode"] == "semantic"
    assert body["url"] == "http://127.0.0.1:36261/form.html"
    assert body["query"] == "Fill the form"
    assert body["tabId"] == 373200592 and type(body["tabId"]) is int
    assert body["pageTitle"] == "Snapshot frames"
    assert body["viewport"] == {"width": 1280, "height": 757}
    assert body["scrollPosition"] == "14%"
    assert body["scrollableContainers"] == [{"id": "7", "depth": "0%", "hasMore": True}]
    assert body["recentEvents"] == ['[1s ago] error appeared: "Invalid ZIP code"']
    assert body["hasErrors"] is True and body["hasSuccess"] is False
    tree = body["interactiveTree"]
    assert [n["i"] for n in tree] == ["1", "4", "5", "7", "9"]
    assert all(type(n["i"]) is str and type(n["r"]) is str and type(n["n"]) is str for n in tree)
    assert tree[0] == {
        "i": "1",
        "r": "btn",
        "n": "Main frame button",
        "xy": [70, 90],
        "box": [8, 80, 123, 21],
    }
    assert tree[1]["f"] == 1  # the seed numbers frames; browserx labels them f1, f2
    assert tree[2] == {"i": "5", "r": "inp", "n": "Cross-site field", "v": "Ada", "s": "required,focused",
                       "xy": [366, 281], "f": 1}  # fmt: skip
    assert tree[3] == {"i": "7", "r": "scr", "n": "", "xy": [209, 181], "box": [8, 80, 402, 202],
                       "scr": {"depth": "0%", "h": True}}  # fmt: skip
    assert tree[4]["occ"] is True
    check_request(body)  # and the JSON as sent validates against the contract model
    InteractRequest.model_validate_json(json.dumps(body))


def test_task_id_and_the_last_action_on_later_requests() -> None:
    last = ActionOutcome(
        'click("9")',
        True,
        "http://127.0.0.1:36261/start.html",
        result={
            "success": True,
            "action": "click",
            "id": 9,
            "duration_ms": 80.0,
            "changes": {"navigated": True, "new_url": PAGE["url"], "dom_mutations": None},
            "network": {"requests": 3, "finished": 3, "failed": 0, "xhr": []},
            "verification": {
                "passed": False,
                "expected": "the text Thank you appears",
                "actual": "no such text",
                "errors_detected": ["Invalid email"],
                "success_messages": [],
                "feedback": "Thank you did not appear; the page shows Invalid email",
            },
        },
        element_id=9,
    )
    body = build_request("t", OBS, task_id="task-1", last=last)
    assert body["taskId"] == "task-1"
    assert body["lastActionStatus"] == "success"
    assert "lastActionError" not in body
    assert body["lastActionResult"]["success"] is True
    assert body["lastActionResult"]["actualState"].startswith("click succeeded on [9]")
    assert body["previousUrl"] == "http://127.0.0.1:36261/start.html"
    assert body["clientObservations"] == {"didNetworkOccur": True, "didDomMutate": True, "didUrlChange": True}
    assert body["verification_passed"] is False
    assert body["verification_message"] == "Thank you did not appear; the page shows Invalid email"
    assert body["errors_detected"] == ["Invalid email"]
    assert body["success_messages"] == []
    check_request(body)


def test_a_failed_action_reports_its_error() -> None:
    last = ActionOutcome(
        "click(99)", False, PAGE["url"], code="unknown_id", message="No element 99.", element_id=99
    )
    body = build_request("t", OBS, task_id="task-1", last=last)
    assert body["lastActionStatus"] == "failure"
    assert body["lastActionError"] == {"message": "No element 99.", "code": "unknown_id", "action": "click(99)",
                                       "elementId": 99}  # fmt: skip
    assert body["lastActionResult"] == {"success": False, "actualState": "failed: unknown_id: No element 99."}
    # nothing ran: only what the URL says is known; no network or verification fields
    assert body["clientObservations"] == {"didUrlChange": False}
    assert not {"verification_passed", "verification_message", "errors_detected", "success_messages"} & set(
        body
    )
    check_request(body)


def test_results_without_network_facts_omit_did_network_occur() -> None:
    result = {"success": True, "action": "type", "changes": {"dom_mutations": 0, "value_changed": True}}
    body = build_request("t", OBS, last=ActionOutcome('type(5, "x")', True, PAGE["url"], result=result))
    assert body["clientObservations"] == {"didDomMutate": False, "didUrlChange": False}


def test_v3_node_types() -> None:
    assert v3_node({"i": 12, "r": "link", "n": "Gmail"}) == {"i": "12", "r": "link", "n": "Gmail"}
    assert v3_node({"i": 3, "r": "btn", "f": "m:odd", "xy": [1.5, 2]}) == {
        "i": "3",
        "r": "btn",
        "n": "",
        "xy": [1.5, 2],
    }
    assert v3_node({"i": 3, "r": "btn", "f": "f12", "occ": False}) == {"i": "3", "r": "btn", "n": "", "f": 12}


def test_check_request_catches_contract_slips() -> None:
    body = build_request("t", OBS)
    bad = {**body, "interactiveTree": [{**body["interactiveTree"][0], "i": 1}]}
    with pytest.raises(AgentError, match=r"interactiveTree\.0\.i: Input should be a valid string"):
        check_request(bad)
    with pytest.raises(AgentError, match="taskId"):
        check_request({**body, "taskId": None})
    with pytest.raises(AgentError, match="skeletonDOM: Extra inputs are not permitted"):
        check_request({**body, "skeletonDOM": "<b>"})
    check_request({**body, "screenshot": None, "screenshotHash": "ff"})  # null: unchanged since the last


# -- answers ----------------------------------------------------------------------------------


def test_parse_response_shapes() -> None:
    data = parse_response({"success": True, "data": {"thought": "go", "action": "click(42)", "taskId": "t1",
                                                      "actionDetails": {"name": "click", "elementId": 42,
                                                                        "selectorPath": "button#go"},
                                                      "plan": {"steps": []}}})  # fmt: skip
    assert (data.action, data.taskId, data.thought) == ("click(42)", "t1", "go")
    assert data.actionDetails is not None and data.actionDetails.selectorPath == "button#go"
    legacy = parse_response({"thought": "x", "action": "finish()"})  # §6.7: no data envelope
    assert legacy.action == "finish()"
    assert parse_response({"data": {"action": "finish()", "taskId": 7}}).taskId == "7"
    snake = parse_response({"data": {"action": "click(1)", "expected_outcome": {"type": "navigation"}}})
    camel = parse_response({"data": {"action": "click(1)", "expectedOutcome": {"type": "navigation"}}})
    assert snake.expectedOutcome == camel.expectedOutcome == {"type": "navigation"}
    ask = parse_response({"success": True, "data": {"status": "needs_context", "needsScreenshot": True}})
    assert ask.negotiating and ask.action is None
    bare_ask = parse_response({"status": "needs_context", "requestedDomMode": "skeleton", "taskId": "t9"})
    assert bare_ask.negotiating and bare_ask.taskId == "t9"


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([1, 2], "expected a JSON object, got list"),
        ({"success": True}, 'no "data" object'),
        ({"success": False, "error": "quota exceeded"}, "success: false: quota exceeded"),
        ({"success": True, "data": {"thought": "hm"}}, "data.action is missing or empty"),
        ({"data": {"action": 12}}, "data.action: Input should be a valid string"),
        ({"data": {"action": "click(1)", "actionDetails": "x"}}, "data.actionDetails"),
        (
            {"data": {"status": "needs_user_input", "userQuestion": "Which card?"}},
            "needs input from the user: Which card?",
        ),
    ],
)
def test_parse_response_refuses(payload: Any, message: str) -> None:
    with pytest.raises(AgentError, match="^.*" + message.replace("(", r"\(").replace(".", r"\.")):
        parse_response(payload)


def test_needs_of() -> None:
    def ask(**data: Any) -> agent.Needs:
        return needs_of(parse_response({"data": {"status": "needs_context", **data}}))

    assert ask(needsScreenshot=True, needsSkeletonDom=True).names() == ["screenshot", "skeletonDom"]
    assert ask(needsScreenshot=True).names() == ["screenshot"]
    # No flag: requestedDomMode says it.
    assert ask(requestedDomMode="hybrid").names() == ["screenshot", "skeletonDom"]
    assert ask(requestedDomMode="skeleton").names() == ["skeletonDom"]
    assert ask(requestedDomMode="full").names() == ["dom"]
    # Either flag given: the flags alone say what is sent (an absent one is false), hybrid or not.
    assert ask(requestedDomMode="hybrid", needsSkeletonDom=True).names() == ["skeletonDom"]
    assert ask(requestedDomMode="hybrid", needsScreenshot=False, needsSkeletonDom=True).names() == [
        "skeletonDom"
    ]
    assert ask(requestedDomMode="hybrid", needsScreenshot=True).names() == ["screenshot"]
    assert ask(requestedDomMode="hybrid", needsScreenshot=False).names() == []
    assert ask(requestedDomMode="skeleton", needsScreenshot=True).names() == ["screenshot"]
    # The full DOM has no flag in the seed: requestedDomMode "full" asks for it whatever the flags say.
    assert ask(requestedDomMode="full", needsSkeletonDom=True).names() == ["skeletonDom", "dom"]
    assert ask(requestedDomMode="full", needsScreenshot=False, needsSkeletonDom=False).names() == ["dom"]
    legacy = needs_of(parse_response({"data": {"status": "needs_full_dom"}}))
    assert legacy.names() == ["dom"]
    assert ask(reason="?").names() == []


def test_to_expect() -> None:
    assert to_expect({"type": "navigation", "or_element_appears": "Thank you"}) == {
        "or": [{"navigation": True}, {"element_appears": {"text": "Thank you"}}]
    }
    assert to_expect({"type": "element_appears", "text": "Saved", "timeout": 2000}) == {
        "element_appears": {"text": "Saved"},
        "timeout": 2.0,
    }
    # Milliseconds, always (seed 002 writes timeout: 2000): 5 is 5 ms, not 5 s; at most 60 s.
    assert to_expect({"type": "element_disappears", "role": "dialog", "name": "Cookies", "timeout": 5}) == {
        "element_disappears": {"role": "dialog", "name": "Cookies"},
        "timeout": 0.005,
    }
    assert to_expect({"type": "navigation", "timeoutMs": 1500}) == {"navigation": True, "timeout": 1.5}
    assert to_expect({"type": "navigation", "timeout": 120_000}) == {"navigation": True, "timeout": 60.0}
    assert to_expect({"type": "navigation", "timeout": 0}) == {"navigation": True}  # the default wait
    assert to_expect({"type": "url_contains", "value": "/done"}) == {"url_contains": "/done"}
    assert to_expect({"type": "value_changes"}) == {"value_changes": True}
    assert to_expect(
        {"type": "navigation", "orOutcome": {"type": "element_appears", "text": "Hi", "timeout": 9}}
    ) == {"or": [{"navigation": True}, {"element_appears": {"text": "Hi"}}]}
    assert to_expect({"type": "teleport"}) is None
    assert to_expect("navigation") is None
    assert to_expect(None) is None


# -- the HTTP client ----------------------------------------------------------------------------

SECRET = "Bearer s3cr3t-t0ken"


def backend_with(
    handler: Callable[[httpx.Request], httpx.Response], url: str = "https://agent.example/base/"
) -> Backend:
    return Backend(url, [("Authorization", SECRET)], timeout=5, transport=httpx.MockTransport(handler))


def test_backend_posts_json_with_the_headers() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"success": True, "data": {"action": "finish()", "taskId": "t"}})

    with backend_with(handler, "https://agent.example/base/?key=k3y-value") as backend:
        data = backend.interact(build_request("t", OBS))
    assert data.action == "finish()"
    (request,) = seen
    assert request.method == "POST"
    assert str(request.url) == "https://agent.example/base/api/agent/interact?key=k3y-value"
    assert request.headers["authorization"] == SECRET
    assert request.headers["content-type"] == "application/json"
    assert json.loads(request.content)["domMode"] == "semantic"
    assert backend.shown_url == "https://agent.example/base/api/agent/interact?***"


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (httpx.Response(500, text=f"boom: {SECRET}"), r"HTTP 500 Internal Server Error: boom: \*\*\*$"),
        (
            httpx.Response(500, text="token s3cr3t-t0ken is bad"),
            r"HTTP 500 Internal Server Error: token \*\*\* is bad",
        ),
        (httpx.Response(401, text="no"), "HTTP 401 Unauthorized .check the --header credentials.: no"),
        (httpx.Response(302, headers={"Location": "https://elsewhere.example/"}), "HTTP 302 Found"),
        (httpx.Response(200, text="<html>hi</html>"), "the answer is not JSON"),
        (httpx.Response(200, json={"success": True, "data": {}}), "data.action is missing"),
    ],
)
def test_backend_errors_are_clear_and_secret_free(answer: httpx.Response, message: str) -> None:
    with backend_with(lambda _: answer) as backend, pytest.raises(AgentError, match=message) as caught:
        backend.interact(build_request("t", OBS))
    assert "s3cr3t" not in str(caught.value)
    assert "POST https://agent.example/base/api/agent/interact" in str(caught.value)


def test_backend_unreachable_and_timeouts() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"[Errno 111] Connection refused to {request.url} with {SECRET}")

    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out")

    with (
        backend_with(refuse) as backend,
        pytest.raises(AgentError, match="cannot reach the backend") as caught,
    ):
        backend.interact(build_request("t", OBS))
    assert "s3cr3t" not in str(caught.value)
    with (
        backend_with(slow) as backend,
        pytest.raises(AgentError, match=r"no answer within 5 s \(--timeout\)"),
    ):
        backend.interact(build_request("t", OBS))


def test_backend_url_checks() -> None:
    with pytest.raises(AgentError, match="http:// or https://"):
        Backend("ftp://user:pw@x.example/")
    with pytest.raises(AgentError, match="http:// or https://"):
        Backend("agent.example")
    assert Backend("https://agent.example").url == "https://agent.example/api/agent/interact"
    assert (
        Backend("https://agent.example/api/agent/interact/").url == "https://agent.example/api/agent/interact"
    )
    assert Backend("http://127.0.0.1:9/").plain_remote is False
    assert Backend("http://agent.example/").plain_remote is True
    assert Backend("https://agent.example/").plain_remote is False


def test_redaction() -> None:
    assert (
        redact_url("https://user:pw@agent.example:8443/x/y?token=abc#frag")
        == "https://***@agent.example:8443/x/y?***"
    )
    assert redact_url("https://agent.example/x") == "https://agent.example/x"
    assert redact_url("http://[::1]:80/") == "http://[::1]:80/"
    backend = Backend("https://user:hunter22@agent.example/?token=abcdef", [("X-Key", "k-123456")])
    line = "token=abcdef for user hunter22 sent k-123456"
    assert backend.secrets.scrub(line) == "*** for *** *** sent ***"


def test_parse_header() -> None:
    assert parse_header("Authorization: Bearer a:b") == ("Authorization", "Bearer a:b")
    assert parse_header("X-Empty:") == ("X-Empty", "")
    with pytest.raises(AgentError, match=r"\(no colon\)") as caught:
        parse_header("Bearer sekret-value")
    assert "sekret" not in str(caught.value)
    with pytest.raises(AgentError, match="not a valid header name") as caught:
        parse_header("Bad Name: sekret-value")
    assert "sekret" not in str(caught.value)


# -- the loop, with a fake host and a scripted backend --------------------------------------------


class FakeHost:
    """What run_agent asks of a Client: snapshots, screenshots, the html tool and actions."""

    def __init__(self, stale: set[int] = frozenset(), selector_ids: dict[str, int] | None = None) -> None:
        self.stale = stale
        self.selector_ids = selector_ids or {}
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.url = PAGE["url"]

    def snapshot(self, **params: Any) -> dict[str, Any]:
        self.calls.append(("snapshot", params))
        if params.get("filter"):
            found = self.selector_ids.get(params["filter"])
            tree = [{"i": found, "r": "btn", "n": "Save"}] if found else []
            return {"tab": OBS.tab, "semantic": {**PAGE, "interactive_tree": tree}}
        return {"tab": OBS.tab, "semantic": {**PAGE, "url": self.url}}

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


def scripted(*answers: dict[str, Any]) -> tuple[Backend, list[dict[str, Any]]]:
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json=answers[min(len(bodies), len(answers)) - 1])

    return backend_with(handler), bodies


def run(host: FakeHost, backend: Backend, **kw: Any) -> tuple[agent.AgentRun, list[str]]:
    lines: list[str] = []
    result = run_agent(host, backend, "Save the form", log=lines.append, **kw)  # type: ignore[arg-type]
    return result, lines


def test_negotiation_retries_the_same_call_with_only_what_was_asked() -> None:
    backend, bodies = scripted(
        {"success": True, "data": {"status": "needs_context", "needsScreenshot": True, "needsSkeletonDom": True,
                                   "requestedDomMode": "hybrid", "reason": "colour", "taskId": "t-1"}},
        {"success": True, "data": {"thought": "click it", "action": "click(1)", "taskId": "t-1"}},
        {"success": True, "data": {"status": "needs_context", "needsScreenshot": True}},
        {"success": True, "data": {"status": "needs_context", "requestedDomMode": "full"}},
        {"success": True, "data": {"action": 'finish("done")'}},
    )  # fmt: skip
    host = FakeHost()
    result, lines = run(host, backend)
    assert (result.code, result.message, result.task_id) == (0, "finished after 2 steps: done", "t-1")
    first, retry, second, shot_again, full = bodies
    assert "taskId" not in first
    assert retry == {**first, "taskId": "t-1", "screenshot": "/9j/4AAQ", "screenshotHash": "c3c3c3c3c3c3c3c3",
                     "skeletonDom": "<skeleton/>"}  # fmt: skip
    assert second["taskId"] == "t-1" and second["lastActionStatus"] == "success"
    # the same picture again: null, with its hash (seed 004 §5.2)
    assert shot_again == {**second, "screenshot": None, "screenshotHash": "c3c3c3c3c3c3c3c3"}
    assert full == {**second, "dom": "<full/>"}  # each retry carries only what that answer asked for
    shots = [p for name, p in host.calls if name == "screenshot"]
    assert shots[0] == {"tab": OBS.tab, "format": "jpeg", "quality": 70, "max_width": 1024}
    assert ("html", {"tab": OBS.tab, "mode": "skeleton", "max_chars": 100_000}) in host.calls
    assert "step 1: needs_context (colour): sending screenshot, skeletonDom" in lines


def test_negotiation_is_bounded() -> None:
    backend, bodies = scripted({"data": {"status": "needs_context", "needsScreenshot": True}})
    result, _ = run(FakeHost(), backend)
    assert result.code == 2 and "asked for more context 3 times in a row" in result.message
    assert len(bodies) == 1 + agent.MAX_NEGOTIATION_ROUNDS
    backend, _ = scripted({"data": {"status": "needs_context"}})
    result, _ = run(FakeHost(), backend)
    assert result.code == 2 and "asked for nothing" in result.message


@pytest.mark.parametrize("wrapped", [True, False])
def test_a_task_id_from_any_answer_is_used_from_then_on(wrapped: bool) -> None:
    def answer(data: dict[str, Any]) -> dict[str, Any]:
        return {"success": True, "data": data} if wrapped else data  # §3.2 or the bare §6.7 shape

    backend, bodies = scripted(
        answer({"status": "needs_context", "requestedDomMode": "skeleton", "taskId": "from-negotiation"}),
        answer({"thought": "t", "action": "click(1)"}),  # carries none: the one we have goes on
        answer({"action": "click(1)", "taskId": "renamed"}),
        answer({"action": "finish()"}),
    )
    result, _ = run(FakeHost(), backend)
    assert (result.code, result.message, result.task_id) == (0, "finished after 3 steps", "renamed")
    first, retry, second, third = bodies
    assert "taskId" not in first
    assert (retry["taskId"], second["taskId"], third["taskId"]) == (
        "from-negotiation",
        "from-negotiation",
        "renamed",
    )


def test_the_outcome_is_one_line_with_its_parts_joined_by_semicolons() -> None:
    result = {"success": True, "action": "click", "id": 3, "duration_ms": 12.0,
              "changes": {"navigated": False, "dom_mutations": 1}, "network": {"requests": 0},
              "verification": {"passed": True, "feedback": "Verified: 'Saved' appears."}}  # fmt: skip
    last = ActionOutcome(
        "click(3)", True, PAGE["url"], result=result, notes=["[2] was stale_id: ran click(3)"]
    )
    assert last.summary() == (
        "click succeeded on [3] in 12 ms: no navigation, 1 DOM mutation, no requests; "
        "Verified: 'Saved' appears.; [2] was stale_id: ran click(3)"
    )
    assert build_request("t", OBS, last=last)["lastActionResult"]["actualState"] == last.summary()

    class VerifyingHost(FakeHost):
        def call(self, method: str, **params: Any) -> dict[str, Any]:
            return {**super().call(method, **params), "network": {"requests": 0},
                    "verification": {"passed": True, "feedback": "Verified: 'Saved' appears."}}  # fmt: skip

    backend, _ = scripted({"data": {"action": "click(1)"}}, {"data": {"action": "finish()"}})
    _, lines = run(VerifyingHost(), backend)
    assert (
        "step 1: outcome: click succeeded on [1] in 5 ms: no navigation, 2 DOM mutations, no requests; Verified: 'Saved' appears."
        in lines
    )


def test_a_stale_id_is_found_again_by_selector_path() -> None:
    backend, bodies = scripted(
        {
            "data": {
                "action": "click(3)",
                "actionDetails": {"elementId": 3, "selectorPath": "[data-testid=save]"},
            }
        },
        {"data": {"action": "finish()"}},
    )
    host = FakeHost(stale={3}, selector_ids={"[data-testid=save]": 17})
    result, lines = run(host, backend)
    assert result.code == 0
    clicks = [p for name, p in host.calls if name == "click"]
    assert clicks == [{"id": 3, "tab": OBS.tab}, {"id": 17, "tab": OBS.tab}]
    assert (
        "snapshot",
        {"tab": OBS.tab, "format": "semantic", "filter": "[data-testid=save]", "max_tokens": 0},
    ) in host.calls
    assert any("[3] was stale_id: ran click(17)" in line for line in lines)
    assert bodies[1]["lastActionStatus"] == "success"
    assert "selectorPath" in bodies[1]["lastActionResult"]["actualState"]
    # Said in the contract's own field too: seed 004 §1's clientVerification.
    check = bodies[1]["clientVerification"]
    assert type(check.pop("timestamp")) is int
    assert check == {"elementFound": True, "selector": "[data-testid=save]", "urlChanged": False}
    assert set(bodies[1]["lastActionResult"]) == {"success", "actualState"}  # its shape as the seed has it
    assert "clientVerification" not in bodies[0]


def test_failed_actions_are_reported_and_the_loop_goes_on() -> None:
    backend, bodies = scripted(
        {"data": {"action": "click(404)", "taskId": "t"}},  # unknown, no selectorPath
        {"data": {"action": "click(3)", "actionDetails": {"selectorPath": "#nothing"}}},  # matches nothing
        {"data": {"action": "click(12"}},  # does not parse
        {"data": {"action": 'fail("cannot")'}},
    )
    result, _ = run(FakeHost(stale={3}), backend)
    assert (result.code, result.message) == (1, "failed after 4 steps: cannot")
    assert bodies[1]["lastActionError"] == {"message": "No element 404 in this tab.", "code": "unknown_id",
                                            "action": "click(404)", "elementId": 404}  # fmt: skip
    assert bodies[2]["lastActionError"]["code"] == "stale_id"
    assert "#nothing" in bodies[2]["lastActionError"]["message"]
    assert bodies[2]["clientVerification"]["elementFound"] is False
    assert bodies[2]["clientVerification"]["selector"] == "#nothing"
    assert "clientVerification" not in bodies[1] and "clientVerification" not in bodies[3]
    assert bodies[3]["lastActionError"]["code"] == "bad_request"
    assert "does not parse" in bodies[3]["lastActionError"]["message"]
    assert "elementId" not in bodies[3]["lastActionError"]
    assert all(b["taskId"] == "t" for b in bodies[1:])


def test_max_steps_and_errors_exit_2() -> None:
    backend, bodies = scripted({"data": {"action": 'wait("Saved")'}})
    result, _ = run(FakeHost(), backend, max_steps=3)
    assert result.code == 2 and "within 3 steps" in result.message and len(bodies) == 3

    class GoneHost(FakeHost):
        def snapshot(self, **params: Any) -> dict[str, Any]:
            raise HostDisconnected("The browserx host closed the connection; is it still running?")

    backend, _ = scripted({"data": {"action": "finish()"}})
    result, _ = run(GoneHost(), backend)
    assert result.code == 2 and "host_disconnected" in result.message
    backend, _ = scripted({"success": False, "error": "nope"})
    result, _ = run(FakeHost(), backend)
    assert (result.code, result.message) == (
        2,
        "error at step 1: POST https://agent.example/base/api/agent/interact: the backend answered success: false: nope",
    )


def test_expected_outcome_goes_with_the_action_when_the_host_takes_it() -> None:
    backend, _ = scripted(
        {"data": {"action": "click(1)", "expectedOutcome": {"type": "element_appears", "text": "Saved"}}},
        {"data": {"action": "finish()"}},
    )
    host = FakeHost()
    run(host, backend)
    (click,) = [p for name, p in host.calls if name == "click"]
    if "expect" in agent.TOOLS_BY_NAME["click"].params.model_fields:
        assert click["expect"] == {"element_appears": {"text": "Saved"}}
    else:
        assert "expect" not in click


# -- the command --------------------------------------------------------------------------------


def test_cli_never_prints_secrets(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path))  # no host runs there
    code = main(["agent", "--backend", "https://bob:pa55word@agent.example/?token=t0ken-x", "--task", "t",
                 "--header", f"Authorization: {SECRET}"])  # fmt: skip
    out = capsys.readouterr()
    assert code == 2
    assert out.out.startswith("error: browserx no_host")
    for secret in ("s3cr3t", "pa55word", "t0ken-x"):
        assert secret not in out.out + out.err
    assert "POST https://***@agent.example/api/agent/interact?***" in out.err
    code = main(
        ["agent", "--backend", "https://agent.example/", "--task", "t", "--header", "Bearer s3cr3t-t0ken"]
    )
    out = capsys.readouterr()
    assert code == 2 and "no colon" in out.err and "s3cr3t" not in out.err
    assert main(["agent", "--backend", "https://agent.example/", "--task", "t", "--max-steps", "0"]) == 2
