"""Running the backend's action (interfaces/agent/act.py) on a fake host: finish() and fail() end
the task, an action that does not parse or fails is an outcome to report, a stale ID is found
again by ``actionDetails.selectorPath``, and the expected outcome goes with the action."""

from __future__ import annotations

from browserx.control.tools import TOOLS_BY_NAME
from browserx.interfaces.agent.act import Ending, act
from browserx.interfaces.agent.backend import parse_response
from browserx.interfaces.agent.request import ActionOutcome, build_request
from tests.builders import AGENT_OBS
from tests.fakes import FakeAgentClient


def run_answer(host: FakeAgentClient, data: dict[str, object]) -> ActionOutcome | Ending:
    """``act`` on the answer ``{"data": data}``, in the tab of AGENT_OBS."""
    return act(host, AGENT_OBS.tab, parse_response({"data": data}), AGENT_OBS.url)  # type: ignore[arg-type]


def test_finish_and_fail_end_the_task_without_reaching_the_host() -> None:
    host = FakeAgentClient()
    assert run_answer(host, {"action": 'finish("done")'}) == Ending(True, "done")
    assert run_answer(host, {"action": "fail()"}) == Ending(False, None)
    assert host.calls == []


def test_an_action_that_does_not_parse_or_fails_is_an_outcome() -> None:
    host = FakeAgentClient()
    bad = run_answer(host, {"action": "  click(12 "})
    assert isinstance(bad, ActionOutcome) and not bad.success
    assert (bad.action, bad.code, bad.element_id) == ("click(12", "bad_request", None)
    assert bad.message is not None and bad.message.startswith("the action does not parse: expected")
    assert host.calls == []
    unknown = run_answer(host, {"action": "click(404)"})
    assert isinstance(unknown, ActionOutcome) and not unknown.success
    assert (unknown.code, unknown.message, unknown.element_id) == (
        "unknown_id",
        "No element 404 in this tab.",
        404,
    )
    assert unknown.selector_check is None  # no selectorPath: nothing looked up
    done = run_answer(host, {"action": "click(1)"})
    assert isinstance(done, ActionOutcome) and done.success and done.result is not None
    assert done.result["action"] == "click" and (done.code, done.message) == (None, None)


def test_a_stale_id_is_found_again_by_selector_path() -> None:
    host = FakeAgentClient(stale={3}, selector_ids={"[data-testid=save]": 17})
    outcome = run_answer(
        host, {"action": "click(3)", "actionDetails": {"elementId": 3, "selectorPath": "[data-testid=save]"}}
    )
    assert isinstance(outcome, ActionOutcome) and outcome.success and outcome.element_id == 17
    clicks = [p for name, p in host.calls if name == "click"]
    default = {"any_change": True, "timeout": 1.0}  # no expectedOutcome: a click's default check
    assert clicks == [{"id": 3, "tab": AGENT_OBS.tab, "expect": default},
                      {"id": 17, "tab": AGENT_OBS.tab, "expect": default}]  # fmt: skip
    assert (
        "snapshot",
        {"tab": AGENT_OBS.tab, "format": "semantic", "filter": "[data-testid=save]", "max_tokens": 0},
    ) in host.calls
    assert any("[3] was stale_id: ran click(17)" in note for note in outcome.notes)
    assert "[3] was stale_id: ran click(17)" in outcome.summary()  # the step log's outcome line
    body = build_request("t", AGENT_OBS, last=outcome)
    assert body["lastActionStatus"] == "success"
    assert "selectorPath" in body["lastActionResult"]["actualState"]
    # Said in the contract's own field too: clientVerification.
    check = body["clientVerification"]
    assert type(check.pop("timestamp")) is int
    assert check == {"elementFound": True, "selector": "[data-testid=save]", "urlChanged": False}
    assert set(body["lastActionResult"]) == {"success", "actualState"}  # its shape as the contract has it
    assert "clientVerification" not in build_request("t", AGENT_OBS)


def test_a_selector_path_that_finds_nothing_keeps_the_failure() -> None:
    host = FakeAgentClient(stale={3})
    outcome = run_answer(host, {"action": "click(3)", "actionDetails": {"selectorPath": "#nothing"}})
    assert isinstance(outcome, ActionOutcome) and not outcome.success
    assert outcome.code == "stale_id" and outcome.message is not None and "#nothing" in outcome.message
    assert outcome.selector_check is not None
    assert (outcome.selector_check["elementFound"], outcome.selector_check["selector"]) == (False, "#nothing")
    assert [p["id"] for name, p in host.calls if name == "click"] == [3]


def test_expected_outcome_goes_with_the_action_when_the_host_takes_it() -> None:
    host = FakeAgentClient()
    run_answer(host, {"action": "click(1)", "expectedOutcome": {"type": "element_appears", "text": "Saved"}})
    (click,) = [p for name, p in host.calls if name == "click"]
    if "expect" in TOOLS_BY_NAME["click"].params.model_fields:
        assert click["expect"] == {"element_appears": {"text": "Saved"}}
    else:
        assert "expect" not in click


def test_without_an_expected_outcome_the_action_kind_has_its_default_check() -> None:
    host = FakeAgentClient()
    typed = run_answer(host, {"action": 'type(5, "Ada")'})
    assert isinstance(typed, ActionOutcome) and typed.default_check
    scrolled = run_answer(host, {"action": 'scroll("down")'})
    assert isinstance(scrolled, ActionOutcome) and scrolled.default_check
    hovered = run_answer(host, {"action": "hover(1)"})
    assert isinstance(hovered, ActionOutcome) and not hovered.default_check
    expects = {name: p.get("expect") for name, p in host.calls}
    assert expects == {"type": {"value_changes": True, "timeout": 1.0},
                       "scroll": {"any_change": True, "timeout": 1.0}, "hover": None}  # fmt: skip
    given = run_answer(host, {"action": "click(1)", "expectedOutcome": {"type": "navigation"}})
    assert isinstance(given, ActionOutcome) and not given.default_check
