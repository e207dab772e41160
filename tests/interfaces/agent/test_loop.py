"""The ``browserx agent`` loop (interfaces/agent/loop.py) with a fake host and a scripted backend: the
negotiation rounds and their bound, the task id, the step log, failed actions reported while the
loop goes on, exit codes, and that the command never prints a secret."""

from __future__ import annotations

from typing import Any

import pytest

from browserx.errors import HostDisconnected
from browserx.interfaces.agent.backend import Backend
from browserx.interfaces.agent.loop import AgentRun, run_agent
from browserx.interfaces.agent.negotiation import MAX_NEGOTIATION_ROUNDS
from browserx.interfaces.cli import main
from tests.builders import AGENT_OBS
from tests.fakes import BACKEND_SECRET, FakeAgentClient, scripted_backend


def run(host: FakeAgentClient, backend: Backend, **kw: Any) -> tuple[AgentRun, list[str]]:
    lines: list[str] = []
    result = run_agent(host, backend, "Save the form", log=lines.append, **kw)  # type: ignore[arg-type]
    return result, lines


def test_negotiation_retries_the_same_call_with_only_what_was_asked() -> None:
    backend, bodies = scripted_backend(
        {"success": True, "data": {"status": "needs_context", "needsScreenshot": True, "needsSkeletonDom": True,
                                   "requestedDomMode": "hybrid", "reason": "colour", "taskId": "t-1"}},
        {"success": True, "data": {"thought": "click it", "action": "click(1)", "taskId": "t-1"}},
        {"success": True, "data": {"status": "needs_context", "needsScreenshot": True}},
        {"success": True, "data": {"status": "needs_context", "requestedDomMode": "full"}},
        {"success": True, "data": {"action": 'finish("done")'}},
    )  # fmt: skip
    host = FakeAgentClient()
    result, lines = run(host, backend)
    assert (result.code, result.message, result.task_id) == (0, "finished after 2 steps: done", "t-1")
    first, retry, second, shot_again, full = bodies
    assert "taskId" not in first
    assert retry == {**first, "taskId": "t-1", "screenshot": "/9j/4AAQ", "screenshotHash": "c3c3c3c3c3c3c3c3",
                     "skeletonDom": "<skeleton/>"}  # fmt: skip
    assert second["taskId"] == "t-1" and second["lastActionStatus"] == "success"
    # the same picture again: null, with its hash
    assert shot_again == {**second, "screenshot": None, "screenshotHash": "c3c3c3c3c3c3c3c3"}
    assert full == {**second, "dom": "<full/>"}  # each retry carries only what that answer asked for
    shots = [p for name, p in host.calls if name == "screenshot"]
    assert shots[0] == {"tab": AGENT_OBS.tab, "format": "jpeg", "quality": 70, "max_width": 1024}
    assert ("html", {"tab": AGENT_OBS.tab, "mode": "skeleton", "max_chars": 100_000}) in host.calls
    assert "step 1: needs_context (colour): sending screenshot, skeletonDom" in lines


def test_negotiation_is_bounded() -> None:
    backend, bodies = scripted_backend({"data": {"status": "needs_context", "needsScreenshot": True}})
    result, _ = run(FakeAgentClient(), backend)
    assert result.code == 2 and "asked for more context 3 times in a row" in result.message
    assert len(bodies) == 1 + MAX_NEGOTIATION_ROUNDS
    backend, _ = scripted_backend({"data": {"status": "needs_context"}})
    result, _ = run(FakeAgentClient(), backend)
    assert result.code == 2 and "asked for nothing" in result.message


@pytest.mark.parametrize("wrapped", [True, False])
def test_a_task_id_from_any_answer_is_used_from_then_on(wrapped: bool) -> None:
    def answer(data: dict[str, Any]) -> dict[str, Any]:
        return {"success": True, "data": data} if wrapped else data  # the data envelope or the bare shape

    backend, bodies = scripted_backend(
        answer({"status": "needs_context", "requestedDomMode": "skeleton", "taskId": "from-negotiation"}),
        answer({"thought": "t", "action": "click(1)"}),  # carries none: the one we have goes on
        answer({"action": "click(1)", "taskId": "renamed"}),
        answer({"action": "finish()"}),
    )
    result, _ = run(FakeAgentClient(), backend)
    assert (result.code, result.message, result.task_id) == (0, "finished after 3 steps", "renamed")
    first, retry, second, third = bodies
    assert "taskId" not in first
    assert (retry["taskId"], second["taskId"], third["taskId"]) == (
        "from-negotiation",
        "from-negotiation",
        "renamed",
    )


def test_the_step_log_says_the_outcome_in_one_line() -> None:
    class VerifyingHost(FakeAgentClient):
        def call(self, method: str, **params: Any) -> dict[str, Any]:
            return {**super().call(method, **params), "network": {"requests": 0},
                    "verification": {"passed": True, "feedback": "Verified: 'Saved' appears."}}  # fmt: skip

    backend, _ = scripted_backend({"data": {"action": "click(1)"}}, {"data": {"action": "finish()"}})
    _, lines = run(VerifyingHost(), backend)
    assert (
        "step 1: outcome: click succeeded on [1] in 5 ms: no navigation, 2 DOM mutations, no requests; Verified: 'Saved' appears."
        in lines
    )


def test_failed_actions_are_reported_and_the_loop_goes_on() -> None:
    backend, bodies = scripted_backend(
        {"data": {"action": "click(404)", "taskId": "t"}},  # unknown, no selectorPath
        {"data": {"action": "click(3)", "actionDetails": {"selectorPath": "#nothing"}}},  # matches nothing
        {"data": {"action": "click(12"}},  # does not parse
        {"data": {"action": 'fail("cannot")'}},
    )
    result, _ = run(FakeAgentClient(stale={3}), backend)
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


def test_needs_user_input_asks_the_person_and_the_next_request_carries_the_answer() -> None:
    backend, bodies = scripted_backend(
        {"data": {"action": "click(1)", "taskId": "t-ask"}},
        {"data": {"status": "needs_user_input", "userQuestion": "Which size?", "taskId": "t-ask"}},
        {"data": {"action": 'finish("ordered M")'}},
    )
    host = FakeAgentClient()
    host.answers = ["M"]
    result, lines = run(host, backend, ask_timeout=42.0)
    assert (result.code, result.message) == (0, "finished after 3 steps: ordered M")
    assert ("ask_user", {"question": "Which size?", "timeout_s": 42.0}) in host.calls
    first, second, third = bodies
    assert "userInput" not in first and "userInput" not in second
    assert third["userInput"] == "M" and third["taskId"] == "t-ask"
    assert "lastActionStatus" not in third  # the click was reported in the second request already
    assert "step 2: needs_user_input: asking the person in the browserx popup: Which size?" in lines


def test_max_steps_and_errors_exit_2() -> None:
    backend, bodies = scripted_backend({"data": {"action": 'wait("Saved")'}})
    result, _ = run(FakeAgentClient(), backend, max_steps=3)
    assert result.code == 2 and "within 3 steps" in result.message and len(bodies) == 3

    class GoneHost(FakeAgentClient):
        def snapshot(self, **params: Any) -> dict[str, Any]:
            raise HostDisconnected("The browserx host closed the connection; is it still running?")

    backend, _ = scripted_backend({"data": {"action": "finish()"}})
    result, _ = run(GoneHost(), backend)
    assert result.code == 2 and "host_disconnected" in result.message
    backend, _ = scripted_backend({"success": False, "error": "nope"})
    result, _ = run(FakeAgentClient(), backend)
    assert (result.code, result.message) == (
        2,
        "error at step 1: POST https://agent.example/base/api/agent/interact: the backend answered success: false: nope",
    )


# -- the command --------------------------------------------------------------------------------


def test_cli_never_prints_secrets(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path))  # no host runs there
    code = main(["agent", "--backend", "https://bob:pa55word@agent.example/?token=t0ken-x", "--task", "t",
                 "--header", f"Authorization: {BACKEND_SECRET}"])  # fmt: skip
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


def test_the_plan_and_the_session_are_shown_and_the_session_is_echoed() -> None:
    def plan(second: str) -> dict[str, Any]:
        return {"steps": [{"id": "step_0", "index": 0, "description": "Open the form", "status": "completed"},
                          {"id": "step_1", "index": 1, "description": "Save it", "status": second}],
                "currentStepIndex": 1}  # fmt: skip

    backend, bodies = scripted_backend(
        {"data": {"status": "needs_context", "needsScreenshot": True, "sessionId": "s-1", "taskId": "t"}},
        {"data": {"action": "click(1)", "plan": plan("active"), "currentStep": 1, "status": "executing"}},
        {"data": {"action": "click(1)", "plan": plan("completed"), "currentStep": 1, "totalSteps": 2}},
        {"data": {"action": "finish()", "sessionId": 42, "plan": "not a plan", "currentStep": "x"}},
    )
    result, lines = run(FakeAgentClient(), backend)
    assert (result.code, result.session_id) == (0, "42")
    first, retry, second, third = bodies
    assert "sessionId" not in first
    assert retry["sessionId"] == "s-1" and second["sessionId"] == "s-1" and third["sessionId"] == "s-1"
    assert lines[2:8] == [
        "step 1: session s-1",
        "step 1: plan (2 steps):",
        "step 1:     1. [completed] Open the form",
        "step 1:   → 2. [active] Save it",
        "step 1: plan step 2 of 2 (executing): Save it",
        "step 1: action: click(1)",
    ]
    # the same steps again: only the current one; a new session is said; junk is skipped
    assert "step 2: plan step 2 of 2: Save it" in lines
    assert not any(line.startswith("step 2: plan (") for line in lines)
    assert "step 3: session 42 (new)" in lines
    assert not any(line.startswith("step 3: plan") for line in lines)


def test_a_current_step_without_a_plan_keeps_its_description() -> None:
    """An answer that names the current step but carries no plan: the description comes from the
    plan shown last (it read "plan step 2 of 2 (executing)"), or from the step the answer gives;
    a plan of another length is not the one shown, and no description is guessed."""
    steps = {"steps": [{"description": "Open the form"}, {"description": "Save it"}], "currentStepIndex": 0}
    backend, _ = scripted_backend(
        {"data": {"action": "click(1)", "plan": steps, "status": "executing"}},
        {"data": {"action": "click(1)", "currentStep": 1, "totalSteps": 2, "status": "executing"}},
        {"data": {"action": "click(1)", "currentStepIndex": "1"}},
        {"data": {"action": "click(1)", "currentStep": {"index": 2, "description": "Check the toast"}}},
        {"data": {"action": "click(1)", "currentStep": 2, "totalSteps": 3}},
        {"data": {"action": "finish()"}},
    )
    _, lines = run(FakeAgentClient(), backend)
    assert "step 1: plan step 1 of 2 (executing): Open the form" in lines
    assert "step 2: plan step 2 of 2 (executing): Save it" in lines
    assert "step 3: plan step 2 of 2: Save it" in lines
    assert "step 4: plan step 3: Check the toast" in lines
    assert "step 5: plan step 3 of 3" in lines  # three steps now: not the plan shown


def test_a_view_without_elements_is_sent_with_the_skeleton_and_a_screenshot() -> None:
    class BlankHost(FakeAgentClient):
        def snapshot(self, **params: Any) -> dict[str, Any]:
            view = super().snapshot(**params)
            return {**view, "semantic": {**view["semantic"], "interactive_tree": []}}

    backend, bodies = scripted_backend(
        {"data": {"status": "needs_context", "requestedDomMode": "full"}},
        {"data": {"action": "click(1)"}},
        {"data": {"action": "finish()"}},
    )
    result, lines = run(BlankHost(), backend)
    assert result.code == 0
    first, retry, second = bodies
    assert first["interactiveTree"] == [] and first["semanticNodes"] == []
    assert first["domMode"] == "hybrid"
    assert (first["skeletonDom"], first["screenshot"], first["screenshotHash"]) == (
        "<skeleton/>",
        "/9j/4AAQ",
        "c3c3c3c3c3c3c3c3",
    )
    assert "dom" not in first  # the full DOM only when asked for ...
    assert retry == {**first, "dom": "<full/>"}  # ... as here
    assert second["domMode"] == "hybrid" and second["screenshot"] is None  # the same picture: null
    assert (
        "step 1: the page lists no element: sending skeletonDom, screenshot instead (domMode hybrid)" in lines
    )


def test_a_page_with_nothing_to_act_on_sends_its_text_not_only_its_picture() -> None:
    """The skeleton holds controls and their context only, so on a page without controls it is
    empty: the fallback then sends the page's HTML whole (cut at the skeleton's cap) as
    skeletonDom, so the backend reads the page's text; the full DOM still only on request."""
    article = "<body>\n<h1>Release notes</h1>\n<p>Version 2 fixes the login bug.</p></body>"

    class ArticleHost(FakeAgentClient):
        def snapshot(self, **params: Any) -> dict[str, Any]:
            view = super().snapshot(**params)
            return {**view, "semantic": {**view["semantic"], "interactive_tree": []}}

        def call(self, method: str, **params: Any) -> dict[str, Any]:
            if method == "html":  # what the html view renders of such a page, per mode
                self.calls.append((method, params))
                return {"html": "" if params["mode"] == "skeleton" else article, "truncated": False}
            return super().call(method, **params)

    backend, bodies = scripted_backend({"data": {"action": "finish()"}})
    host = ArticleHost()
    result, lines = run(host, backend)
    assert result.code == 0
    (body,) = bodies
    assert body["domMode"] == "hybrid" and body["screenshot"] == "/9j/4AAQ"
    assert body["skeletonDom"] == article and "Version 2 fixes the login bug." in body["skeletonDom"]
    assert "dom" not in body
    assert ("html", {"tab": AGENT_OBS.tab, "mode": "full", "max_chars": 100_000}) in host.calls
    assert (
        "step 1: the page lists no element: sending skeletonDom (the page's HTML: nothing on it to act on), "
        "screenshot instead (domMode hybrid)" in lines
    )


def test_the_skeleton_of_a_page_without_controls_is_empty_and_the_full_html_has_its_text() -> None:
    """Why the fallback above needs the full mode: the skeleton drops a text-only page whole."""
    from browserx.views.html import render_html
    from tests.builders import el, page, text

    snap = page(
        el("h1", text("Release notes"), role="heading", name="Release notes"),
        el("p", text("Version 2 fixes the login bug."), role="paragraph"),
    )
    assert render_html(snap, "skeleton").html == ""
    assert "Version 2 fixes the login bug." in render_html(snap, "full").html
