"""The backend of ``browserx agent`` (interfaces/agent/backend.py) without a network: the request contract,
the answers it accepts and the ones it refuses, the HTTP client (headers, errors, timeouts, URL
checks), and that no secret (header values, URL userinfo and query) ever reaches a message."""

from __future__ import annotations

import json
from typing import Any

import httpx2 as httpx
import pytest

from browserx.interfaces.agent.backend import (
    AgentError,
    Backend,
    check_request,
    parse_header,
    parse_response,
    redact_url,
)
from browserx.interfaces.agent.request import build_request
from tests.builders import AGENT_OBS
from tests.fakes import BACKEND_SECRET, fake_backend


def test_check_request_catches_contract_slips() -> None:
    body = build_request("t", AGENT_OBS)
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
    legacy = parse_response({"thought": "x", "action": "finish()"})  # the older shape: no data envelope
    assert legacy.action == "finish()"
    assert parse_response({"data": {"action": "finish()", "taskId": 7}}).taskId == "7"
    snake = parse_response({"data": {"action": "click(1)", "expected_outcome": {"type": "navigation"}}})
    camel = parse_response({"data": {"action": "click(1)", "expectedOutcome": {"type": "navigation"}}})
    assert snake.expectedOutcome == camel.expectedOutcome == {"type": "navigation"}
    ask = parse_response({"success": True, "data": {"status": "needs_context", "needsScreenshot": True}})
    assert ask.negotiating and ask.action is None
    bare_ask = parse_response({"status": "needs_context", "requestedDomMode": "skeleton", "taskId": "t9"})
    assert bare_ask.negotiating and bare_ask.taskId == "t9"


def test_needs_user_input_is_a_question_for_the_person() -> None:
    data = parse_response(
        {"success": True, "data": {"status": "needs_user_input", "userQuestion": "Which card?"}}
    )
    assert data.needs_user_input and data.question == "Which card?"
    data = parse_response({"data": {"status": "needs_user_input", "reason": "Size?"}})
    assert data.needs_user_input and data.question == "Size?"
    data = parse_response({"data": {"status": "needs_user_input"}})
    assert data.question == "The agent needs your input to go on."
    # with an action, the action runs
    assert not parse_response({"data": {"status": "needs_user_input", "action": "click(1)"}}).needs_user_input


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([1, 2], "expected a JSON object, got list"),
        ({"success": True}, 'no "data" object'),
        ({"success": False, "error": "quota exceeded"}, "success: false: quota exceeded"),
        ({"success": True, "data": {"thought": "hm"}}, "data.action is missing or empty"),
        ({"data": {"action": 12}}, "data.action: Input should be a valid string"),
        ({"data": {"action": "click(1)", "actionDetails": "x"}}, "data.actionDetails"),
        ({"data": {"status": "completed"}}, "data.action is missing or empty"),
    ],
)
def test_parse_response_refuses(payload: Any, message: str) -> None:
    with pytest.raises(AgentError, match="^.*" + message.replace("(", r"\(").replace(".", r"\.")):
        parse_response(payload)


# -- the HTTP client ----------------------------------------------------------------------------


def test_backend_posts_json_with_the_headers() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"success": True, "data": {"action": "finish()", "taskId": "t"}})

    with fake_backend(handler, "https://agent.example/base/?key=k3y-value") as backend:
        data = backend.interact(build_request("t", AGENT_OBS))
    assert data.action == "finish()"
    (request,) = seen
    assert request.method == "POST"
    assert str(request.url) == "https://agent.example/base/api/agent/interact?key=k3y-value"
    assert request.headers["authorization"] == BACKEND_SECRET
    assert request.headers["content-type"] == "application/json"
    assert json.loads(request.content)["domMode"] == "semantic"
    assert backend.shown_url == "https://agent.example/base/api/agent/interact?***"


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (
            httpx.Response(500, text=f"boom: {BACKEND_SECRET}"),
            r"HTTP 500 Internal Server Error: boom: \*\*\*$",
        ),
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
    with fake_backend(lambda _: answer) as backend, pytest.raises(AgentError, match=message) as caught:
        backend.interact(build_request("t", AGENT_OBS))
    assert "s3cr3t" not in str(caught.value)
    assert "POST https://agent.example/base/api/agent/interact" in str(caught.value)


def test_backend_unreachable_and_timeouts() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"[Errno 111] Connection refused to {request.url} with {BACKEND_SECRET}")

    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out")

    with (
        fake_backend(refuse) as backend,
        pytest.raises(AgentError, match="cannot reach the backend") as caught,
    ):
        backend.interact(build_request("t", AGENT_OBS))
    assert "s3cr3t" not in str(caught.value)
    with (
        fake_backend(slow) as backend,
        pytest.raises(AgentError, match=r"no answer within 5 s \(--timeout\)"),
    ):
        backend.interact(build_request("t", AGENT_OBS))


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
