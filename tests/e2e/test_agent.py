"""`browserx agent` end to end: the real CLI, host, extension and Chromium against a fake backend
of our own that follows the contract (a threaded http.server answering from a script, as a backend
would, from the request it got). Every request body is recorded and checked field by field: names
and types exactly as the contract has them."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from PIL import Image

from browserx import Client
from browserx.control.tools import TOOLS_BY_NAME
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import js, open_page, run_cli

Script = Callable[[list[dict[str, Any]]], dict[str, Any]]
TOKEN = "Bearer e2e-s3cret-token-0042"
PAGE_KEYS = {"domMode", "interactiveTree", "url", "query", "tabId", "domain", "title", "pageTitle", "viewport",
             "scrollPosition", "scrollableContainers", "recentEvents", "hasErrors", "hasSuccess", "dom_filtered",
             "semanticNodes", "roleCodes"}  # fmt: skip
AFTER_ACTION_KEYS = {"taskId", "lastActionStatus", "lastActionResult", "previousUrl", "clientObservations"}
SENTINEL_KEYS = {"verification_passed", "verification_message", "errors_detected", "success_messages"}
HAS_EXPECT = "expect" in TOOLS_BY_NAME["click"].params.model_fields
HAS_HTML = "html" in TOOLS_BY_NAME


class FakeBackend:
    """``POST /api/agent/interact``: records the body and headers, answers ``script(bodies)``."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.paths: list[str] = []
        backend = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                backend.paths.append(self.path)
                backend.headers.append(dict(self.headers.items()))
                backend.bodies.append(body)
                answer = json.dumps(backend.script(backend.bodies)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"


@contextlib.contextmanager
def fake_backend(script: Script) -> Iterator[FakeBackend]:
    backend = FakeBackend(script)
    thread = threading.Thread(target=backend.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield backend
    finally:
        backend.server.shutdown()
        backend.server.server_close()
        thread.join(5)


def agent(backend: FakeBackend, tab: int, task: str, *extra: str) -> Any:
    return run_cli("agent", "--backend", backend.url, "--task", task, "--tab", str(tab),
                   "--header", f"Authorization: {TOKEN}", "--timeout", "20", *extra)  # fmt: skip


def ids_by_name(body: dict[str, Any]) -> dict[str, str]:
    return {node["n"]: node["i"] for node in body["interactiveTree"]}


def check_page_fields(body: dict[str, Any], url: str, tab: int, task: str) -> None:
    """The fields every request carries, with the contract's names and types."""
    assert set(body) >= PAGE_KEYS
    assert body["domMode"] == "semantic"
    assert body["url"] == url
    assert body["query"] == task
    assert body["tabId"] == tab and type(body["tabId"]) is int
    assert body["pageTitle"] == body["title"] == "Agent form"
    assert body["domain"] == "127.0.0.1"
    assert body["dom_filtered"] is False  # a small page: listed whole
    assert [n["id"] for n in body["semanticNodes"]] == [n["i"] for n in body["interactiveTree"]]
    assert {"btn": "button", "inp": "textbox"}.items() <= body["roleCodes"].items()
    assert set(body["viewport"]) == {"width", "height"}
    assert all(type(v) is int and v > 0 for v in body["viewport"].values())
    assert isinstance(body["scrollPosition"], str) and body["scrollPosition"].endswith("%")
    assert isinstance(body["scrollableContainers"], list)
    assert isinstance(body["recentEvents"], list) and all(isinstance(e, str) for e in body["recentEvents"])
    assert type(body["hasErrors"]) is bool and type(body["hasSuccess"]) is bool
    assert body["interactiveTree"], body
    for node in body["interactiveTree"]:
        assert {"i", "r", "n"} <= set(node) <= {"i", "r", "n", "v", "s", "xy", "f", "box", "scr", "occ"}
        assert type(node["i"]) is str and node["i"].isdigit()
        assert type(node["r"]) is str and type(node["n"]) is str
        assert len(node["xy"]) == 2 and all(type(c) is int for c in node["xy"])
    assert not {"dom", "skeletonDom", "screenshot", "screenshotHash"} & set(body)  # only on request


def test_agent_drives_a_form_to_finish(browser: Browser, bx: Client, servers: Servers) -> None:
    """needs_context round (screenshot + skeletonDom), setValue, a click on a re-rendered (stale)
    button found again by its selectorPath, finish()."""
    tab = open_page(browser, bx, servers.url("agent-form.html"))
    url = servers.url("agent-form.html")
    task = "Set the name to Ada and save"

    def script(bodies: list[dict[str, Any]]) -> dict[str, Any]:
        first, body = bodies[0], bodies[-1]
        if len(bodies) == 1:
            return {"success": True, "data": {"status": "needs_context", "requestedDomMode": "hybrid",
                                              "needsScreenshot": True, "needsSkeletonDom": True,
                                              "reason": "Which field is the name?", "taskId": "task-e2e"}}  # fmt: skip
        if len(bodies) == 2:
            name = ids_by_name(body)["Name"]
            return {"success": True, "data": {
                "thought": "Type the name.", "action": f'setValue({name}, "Ada")', "taskId": "task-e2e",
                "actionDetails": {"name": "setValue", "elementId": int(name), "selectorPath": "#name",
                                  "args": {"value": "Ada"}},
                "expectedOutcome": {"type": "value_changes"}}}  # fmt: skip
        if len(bodies) == 3:  # the Save button's ID as the backend saw it before the edit: stale now
            save = ids_by_name(first)["Save"]
            return {"success": True, "data": {
                "thought": "Save.", "action": f"click({save})", "taskId": "task-e2e",
                "actionDetails": {"name": "click", "elementId": int(save),
                                  "selectorPath": "button[name='save']"},
                "expected_outcome": {"type": "element_appears", "text": "Saved", "timeout": 3000}}}  # fmt: skip
        return {"success": True, "data": {"thought": "Done.", "action": 'finish("saved")', "taskId": "task-e2e",
                                          "status": "completed"}}  # fmt: skip

    with fake_backend(script) as backend:
        out = agent(backend, tab, task)
    assert out.returncode == 0, (out.stdout, out.stderr)
    assert out.stdout.strip().splitlines()[-1] == "finished after 3 steps: saved"
    assert "step 1: needs_context (Which field is the name?): sending screenshot, skeletonDom" in out.stderr
    assert "selectorPath" in out.stderr
    outcomes = [line for line in out.stderr.splitlines() if ": outcome: " in line]
    if HAS_EXPECT:  # the verification feedback, after "; " (not glued to the last part)
        assert all("; Verified" in line for line in outcomes), outcomes
    assert "s3cret" not in out.stdout + out.stderr
    # the page: typed, saved once, through the re-rendered button
    assert js(browser, "document.getElementById('name').value") == "Ada"
    assert js(browser, "document.getElementById('status').textContent") == "Saved"
    assert js(browser, "saved") == 1

    assert backend.paths == ["/api/agent/interact"] * 4
    assert all(
        h["Authorization"] == TOKEN and h["Content-Type"] == "application/json" for h in backend.headers
    )
    first, retry, after_type, after_click = backend.bodies

    # 1: the semantic-first request, nothing heavy, no taskId yet
    check_page_fields(first, url, tab, task)
    assert set(first) == PAGE_KEYS
    assert {"Name", "Save"} <= set(ids_by_name(first))

    # 2: the same call again, the taskId the answer carried, and exactly what was asked for
    artifacts = {"screenshot", "screenshotHash"} | ({"skeletonDom"} if HAS_HTML else set())
    assert set(retry) == PAGE_KEYS | {"taskId"} | artifacts
    assert {k: v for k, v in retry.items() if k in PAGE_KEYS} == first
    assert retry["taskId"] == "task-e2e"
    image = Image.open(io.BytesIO(base64.b64decode(retry["screenshot"])))
    assert image.format == "JPEG" and image.width <= 1024
    assert isinstance(retry["screenshotHash"], str) and retry["screenshotHash"]
    if HAS_HTML:
        assert f'data-id="{ids_by_name(first)["Save"]}"' in retry["skeletonDom"]

    # 3: after setValue: the last action's status, result, URL and observations
    check_page_fields(after_type, url, tab, task)
    assert set(after_type) >= AFTER_ACTION_KEYS
    assert after_type["taskId"] == "task-e2e"
    assert after_type["lastActionStatus"] == "success"
    assert "lastActionError" not in after_type
    assert after_type["lastActionResult"]["success"] is True
    assert after_type["lastActionResult"]["actualState"].startswith("type succeeded on [")
    assert after_type["previousUrl"] == url
    observed = after_type["clientObservations"]
    assert observed["didUrlChange"] is False and observed["didDomMutate"] is True
    assert set(observed) <= {"didNetworkOccur", "didDomMutate", "didUrlChange"}
    assert all(type(v) is bool for v in observed.values())
    names = ids_by_name(after_type)
    assert "Save" not in names and ids_by_name(first)["Save"] not in names.values()  # re-rendered: new ID
    changes = after_type["domChanges"]  # the Save button went, "Save 1 change" came
    assert (changes["addedCount"], changes["removedCount"], changes["dropdownDetected"]) == (1, 1, False)
    assert changes["urlChanged"] is False and changes["previousUrl"] == url
    assert type(changes["stabilizationTime"]) is int and changes["stabilizationTime"] >= 0
    if HAS_EXPECT:
        assert set(after_type) >= SENTINEL_KEYS
        assert after_type["verification_passed"] is True
    else:
        assert not SENTINEL_KEYS & set(after_type)

    # 4: after the click on the stale ID, repaired through the selectorPath
    check_page_fields(after_click, url, tab, task)
    assert after_click["lastActionStatus"] == "success"
    assert "lastActionError" not in after_click
    assert "selectorPath" in after_click["lastActionResult"]["actualState"]
    assert set(after_click["lastActionResult"]) == {"success", "actualState"}
    verified = after_click["clientVerification"]  # the selector check, in its own field
    assert type(verified.pop("timestamp")) is int
    assert verified == {"elementFound": True, "selector": "button[name='save']", "urlChanged": False}
    assert "clientVerification" not in after_type  # its ID was fresh: no selector check ran
    assert after_click["clientObservations"]["didUrlChange"] is False
    assert after_click["hasSuccess"] is True  # the "Saved" status, from the page's events
    assert any("Saved" in event for event in after_click["recentEvents"]), after_click["recentEvents"]
    if HAS_EXPECT:
        assert after_click["verification_passed"] is True, after_click["verification_message"]
        assert isinstance(after_click["verification_message"], str)
        assert isinstance(after_click["errors_detected"], list) and isinstance(
            after_click["success_messages"], list
        )


def test_agent_fail_exits_1(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("agent-form.html"))

    def script(bodies: list[dict[str, Any]]) -> dict[str, Any]:
        return {"success": True, "data": {"thought": "No way.", "action": 'fail("the form is locked")',
                                          "taskId": "task-fail"}}  # fmt: skip

    with fake_backend(script) as backend:
        out = agent(backend, tab, "Delete the account")
    assert out.returncode == 1, (out.stdout, out.stderr)
    assert out.stdout.strip() == "failed after 1 step: the form is locked"
    (body,) = backend.bodies
    check_page_fields(body, servers.url("agent-form.html"), tab, "Delete the account")
    assert set(body) == PAGE_KEYS
    assert js(browser, "saved") == 0


def test_agent_reports_a_failed_action_and_stops_at_max_steps(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("agent-form.html"))

    def script(bodies: list[dict[str, Any]]) -> dict[str, Any]:
        action = "click(999999)" if len(bodies) == 1 else 'wait("Profile")'
        return {"success": True, "data": {"action": action, "taskId": "task-loop"}}

    with fake_backend(script) as backend:
        out = agent(backend, tab, "Loop", "--max-steps", "2")
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert out.stdout.strip() == "stopped: no finish() or fail() within 2 steps (--max-steps)"
    first, second = backend.bodies
    assert "taskId" not in first and second["taskId"] == "task-loop"
    assert second["lastActionStatus"] == "failure"
    error = second["lastActionError"]
    assert set(error) == {"message", "code", "action", "elementId"}
    assert (error["code"], error["action"], error["elementId"]) == ("unknown_id", "click(999999)", 999999)
    assert isinstance(error["message"], str) and error["message"]
    assert second["lastActionResult"] == {
        "success": False,
        "actualState": f"failed: unknown_id: {error['message']}",
    }
    assert second["clientObservations"] == {"didUrlChange": False}


def test_agent_backend_unreachable_exits_2(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("agent-form.html"))
    with fake_backend(lambda bodies: {}) as backend:
        url = backend.url  # closed when the block ends: nothing listens there any more
    out = run_cli("agent", "--backend", f"{url}/?key=k3y-0042", "--task", "x", "--tab", str(tab),
                  "--header", f"Authorization: {TOKEN}")  # fmt: skip
    assert out.returncode == 2
    assert "cannot reach the backend" in out.stdout
    assert f"POST {url}/api/agent/interact?***" in out.stdout
    assert "s3cret" not in out.stdout + out.stderr and "k3y-0042" not in out.stdout + out.stderr


def test_agent_shows_the_plan_and_echoes_the_session(browser: Browser, bx: Client, servers: Servers) -> None:
    """A backend that keeps a plan and a session: the step log shows the plan, its current step
    and the session; every later request carries the sessionId back."""
    tab = open_page(browser, bx, servers.url("agent-form.html"))

    def plan(current: int) -> dict[str, Any]:
        steps = [{"id": f"step_{i}", "index": i, "description": d,
                  "status": "completed" if i < current else "active" if i == current else "pending"}
                 for i, d in enumerate(["Type the name", "Finish"])]  # fmt: skip
        return {"steps": steps, "currentStepIndex": current}

    def script(bodies: list[dict[str, Any]]) -> dict[str, Any]:
        body = bodies[-1]
        if len(bodies) == 1:
            name = ids_by_name(body)["Name"]
            return {"success": True, "data": {"thought": "Type.", "action": f'setValue({name}, "Ada")',
                                              "taskId": "task-plan", "sessionId": "sess-e2e-7", "plan": plan(0),
                                              "currentStep": 0, "totalSteps": 2, "status": "executing"}}  # fmt: skip
        return {"success": True, "data": {"action": 'finish("typed")', "taskId": "task-plan", "plan": plan(1),
                                          "currentStep": 1, "totalSteps": 2, "status": "completed"}}  # fmt: skip

    with fake_backend(script) as backend:
        out = agent(backend, tab, "Type Ada")
    assert out.returncode == 0, (out.stdout, out.stderr)
    log = out.stderr.splitlines()
    assert "step 1: session sess-e2e-7" in log
    assert "step 1: plan (2 steps):" in log
    assert "step 1:   → 1. [active] Type the name" in log
    assert "step 1: plan step 1 of 2 (executing): Type the name" in log
    assert "step 2: plan step 2 of 2 (completed): Finish" in log
    first, second = backend.bodies
    assert "sessionId" not in first
    assert second["sessionId"] == "sess-e2e-7" and second["taskId"] == "task-plan"
    if HAS_EXPECT:  # no expectedOutcome: typing's default check, that the value changes
        assert second["verification_passed"] is True, second["verification_message"]
        assert second["verification_message"] == "Verified: the value changes."
    assert js(browser, "document.getElementById('name').value") == "Ada"


def test_a_page_with_nothing_to_act_on_reaches_the_backend_as_text(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    """No element to list: the request carries a screenshot and, as skeletonDom, the page's HTML
    (its skeleton would be empty), so the backend can read what the page says."""
    tab = open_page(browser, bx, servers.url("agent-article.html"))
    with fake_backend(lambda bodies: {"data": {"action": 'finish("read")'}}) as backend:
        out = agent(backend, tab, "What does version 2 fix?")
    assert out.returncode == 0, (out.stdout, out.stderr)
    (body,) = backend.bodies
    assert body["interactiveTree"] == [] and body["domMode"] == "hybrid"
    assert isinstance(body["screenshot"], str) and body["screenshot"]
    if HAS_HTML:
        assert "Version 2 fixes the login bug" in body["skeletonDom"], body["skeletonDom"]
    assert "dom" not in body


def test_a_verification_says_how_sure_it_is_and_what_the_page_did(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("agent-form.html"))
    view = bx.snapshot(tab=tab, format="semantic")["semantic"]
    ids = {e.get("n"): e["i"] for e in view["interactive_tree"]}
    typed = bx.call("type", tab=tab, id=ids["Name"], text="Ada", expect={"value_changes": True})
    verification = typed["verification"]
    assert verification["passed"] is True and verification["confidence"] == 1.0
    assert verification["page_state"] == {"url": servers.url("agent-form.html"), "url_changed": False,
                                          "dom_changed": True, "recent_mutations": []}  # fmt: skip
    view = bx.snapshot(tab=tab, format="semantic")["semantic"]
    save = next(e["i"] for e in view["interactive_tree"] if str(e.get("n", "")).startswith("Save"))
    clicked = bx.call("click", tab=tab, id=save, expect={"any_change": True})["verification"]
    assert clicked["passed"] is True and clicked["confidence"] == 0.8  # "something changed" alone
    assert 'success appeared: "Saved"' in clicked["page_state"]["recent_mutations"]
