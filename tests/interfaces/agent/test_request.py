"""The body of ``POST /api/agent/interact`` (interfaces/agent/request.py), built from a recorded
observation: field by field, with the contract's types, on the first request and after an action that
succeeded, failed or carried a verification; the outcome line."""

from __future__ import annotations

import json
import re
from pathlib import Path

from browserx.interfaces.agent.backend import InteractRequest, check_request
from browserx.interfaces.agent.request import (
    ActionOutcome,
    Observation,
    build_request,
    domain_of,
    frame_number,
    v2_node,
    v3_node,
)
from tests.builders import AGENT_OBS, AGENT_PAGE

PAGE_KEYS = {"domMode", "interactiveTree", "url", "query", "tabId", "domain", "title", "pageTitle", "viewport",
             "scrollPosition", "scrollableContainers", "recentEvents", "hasErrors", "hasSuccess", "dom_filtered",
             "semanticNodes", "roleCodes"}  # fmt: skip


def test_first_request_is_the_semantic_first_contract() -> None:
    body = build_request("Fill the form", AGENT_OBS)
    assert set(body) == PAGE_KEYS  # no taskId before one was given, no dom/skeletonDom/screenshot
    assert body["domMode"] == "semantic"
    assert body["url"] == "http://127.0.0.1:36261/form.html"
    assert body["query"] == "Fill the form"
    assert body["tabId"] == 373200592 and type(body["tabId"]) is int
    assert body["pageTitle"] == body["title"] == "Snapshot frames"
    assert body["domain"] == "127.0.0.1"
    assert body["dom_filtered"] is False  # the whole page: no filter figures
    assert not {"filter_reason", "original_node_count", "token_reduction", "sessionId"} & set(body)
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
    assert tree[1]["f"] == 1  # the contract numbers frames; browserx labels them f1, f2
    assert tree[2] == {"i": "5", "r": "inp", "n": "Cross-site field", "v": "Ada", "s": "required,focused",
                       "xy": [366, 281], "f": 1}  # fmt: skip
    assert tree[3] == {"i": "7", "r": "scr", "n": "", "xy": [209, 181], "box": [8, 80, 402, 202],
                       "scr": {"depth": "0%", "h": True}}  # fmt: skip
    assert tree[4]["occ"] is True
    # the same elements with full keys, roles spelled out
    nodes = body["semanticNodes"]
    assert [n["id"] for n in nodes] == ["1", "4", "5", "7", "9"]
    assert nodes[0] == {"id": "1", "role": "button", "name": "Main frame button",
                        "bounds": {"x": 8, "y": 80, "width": 123, "height": 21}}  # fmt: skip
    assert nodes[2] == {"id": "5", "role": "textbox", "name": "Cross-site field", "value": "Ada",
                        "state": "required,focused", "frameId": 1}  # fmt: skip
    assert nodes[3]["role"] == "scroll container"
    assert body["roleCodes"] == {
        "btn": "button",
        "inp": "textbox",
        "scr": "scroll container",
    }  # those it uses
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
            "changes": {"navigated": True, "new_url": AGENT_PAGE["url"], "dom_mutations": None},
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
    body = build_request("t", AGENT_OBS, task_id="task-1", last=last)
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
        "click(99)", False, AGENT_PAGE["url"], code="unknown_id", message="No element 99.", element_id=99
    )
    body = build_request("t", AGENT_OBS, task_id="task-1", last=last)
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
    body = build_request(
        "t", AGENT_OBS, last=ActionOutcome('type(5, "x")', True, AGENT_PAGE["url"], result=result)
    )
    assert body["clientObservations"] == {"didDomMutate": False, "didUrlChange": False}


def test_the_outcome_is_one_line_with_its_parts_joined_by_semicolons() -> None:
    result = {"success": True, "action": "click", "id": 3, "duration_ms": 12.0,
              "changes": {"navigated": False, "dom_mutations": 1}, "network": {"requests": 0},
              "verification": {"passed": True, "feedback": "Verified: 'Saved' appears."}}  # fmt: skip
    last = ActionOutcome(
        "click(3)", True, AGENT_PAGE["url"], result=result, notes=["[2] was stale_id: ran click(3)"]
    )
    assert last.summary() == (
        "click succeeded on [3] in 12 ms: no navigation, 1 DOM mutation, no requests; "
        "Verified: 'Saved' appears.; [2] was stale_id: ran click(3)"
    )
    assert build_request("t", AGENT_OBS, last=last)["lastActionResult"]["actualState"] == last.summary()


def test_v3_node_types() -> None:
    assert v3_node({"i": 12, "r": "link", "n": "Gmail"}) == {"i": "12", "r": "link", "n": "Gmail"}
    assert v3_node({"i": 3, "r": "btn", "f": "m:odd", "xy": [1.5, 2]}) == {
        "i": "3",
        "r": "btn",
        "n": "",
        "xy": [1.5, 2],
    }
    assert v3_node({"i": 3, "r": "btn", "f": "f12", "occ": False}) == {"i": "3", "r": "btn", "n": "", "f": 12}


def test_a_filtered_view_says_so_and_the_session_is_echoed() -> None:
    figures = {"reason": "token budget", "originalCount": 500, "filteredCount": 40, "tokenReduction": 92}
    obs = Observation(AGENT_OBS.tab, {**AGENT_PAGE, "filtered": figures})
    body = build_request("t", obs, task_id="t-1", session_id="s-9")
    assert body["sessionId"] == "s-9" and body["taskId"] == "t-1"
    assert (body["dom_filtered"], body["filter_reason"], body["original_node_count"], body["token_reduction"]) == (
        True, "token budget", 500, 92)  # fmt: skip
    check_request(body)


def test_the_url_is_redacted_and_the_domain_is_its_root() -> None:
    secret = "https://ada:pw@www.bbc.co.uk/account?token=abc123&page=2"
    body = build_request("t", Observation(AGENT_OBS.tab, {**AGENT_PAGE, "url": secret}))
    assert "pw" not in body["url"] and "abc123" not in body["url"]
    assert body["domain"] == "bbc.co.uk"
    assert domain_of("https://app.example.com/x") == "example.com"
    assert domain_of("http://localhost:8080/") == "localhost"
    assert domain_of("http://[::1]:80/") == "::1"
    assert domain_of("about:blank") == ""


def test_v2_node_keys() -> None:
    entry = {"i": 3, "r": "chk", "n": "Subscribe", "s": "checked", "ph": "x", "f": "f2"}
    assert v2_node(entry) == {"id": "3", "role": "checkbox", "name": "Subscribe", "state": "checked",
                              "placeholder": "x", "frameId": 2}  # fmt: skip
    assert v2_node({"i": 4, "r": "article"})["role"] == "article"  # no code: spelled out already


def test_dom_changes_compare_the_trees_before_and_after_the_action() -> None:
    before = [{"i": 1, "r": "btn", "n": "Main frame button"}, {"i": 2, "r": "sel", "n": "Size"},
              {"i": 3, "r": "btn", "n": "Gone"}]  # fmt: skip
    result = {"success": True, "action": "click", "id": 2, "duration_ms": 212.4,
              "changes": {"dom_mutations": 9}, "network": {"requests": 0}}  # fmt: skip
    last = ActionOutcome("click(2)", True, AGENT_PAGE["url"], result=result, tree_before=before)
    options = [{"i": 30, "r": "opt", "n": "S"}, {"i": 31, "r": "opt", "n": "M", "v": "secret"}]
    page = {**AGENT_PAGE, "interactive_tree": [*before[:2], *options]}
    body = build_request("t", Observation(AGENT_OBS.tab, page), last=last)
    assert body["domChanges"] == {"addedCount": 2, "removedCount": 1, "dropdownDetected": True,
                                  "dropdownOptions": ["S", "M"], "stabilizationTime": 212,
                                  "previousUrl": AGENT_PAGE["url"], "urlChanged": False,
                                  "didNetworkOccur": False}  # fmt: skip
    check_request(body)
    # no tree before (no action ran from a view): no domChanges
    assert "domChanges" not in build_request(
        "t", AGENT_OBS, last=ActionOutcome("x", False, AGENT_PAGE["url"])
    )


def test_a_failed_default_check_says_it_was_the_default() -> None:
    result = {"success": True, "action": "click", "id": 3, "duration_ms": 12.0, "changes": {"dom_mutations": 0},
              "verification": {"passed": False, "feedback": "Not verified: expected something changes."}}  # fmt: skip
    last = ActionOutcome("click(3)", True, AGENT_PAGE["url"], result=result, default_check=True)
    assert last.summary().endswith(
        "Not verified: expected something changes.; (the default check of this kind of action: no "
        "expectedOutcome was given)"
    )
    body = build_request("t", AGENT_OBS, last=last)
    assert body["verification_passed"] is False


def test_frame_labels_become_numbers() -> None:
    assert [frame_number(label) for label in ("f1", "f12", "s1", "s12", "f1s2", "f2s3")] == [1, 12, 1001, 1012, 2002,
                                                                                            3003]  # fmt: skip
    assert [frame_number(label) for label in ("m:odd", "", "x", True, None)] == [None] * 5


def test_the_docs_example_request_is_one_the_loop_sends() -> None:
    """docs/AGENT.md's request after a stale click: valid against the contract, with every page field
    and every after-action field the loop sends there, and each field it names in its list."""
    section = (Path(__file__).resolve().parents[3] / "docs" / "AGENT.md").read_text(encoding="utf-8")
    example = json.loads(section.split("```json\n")[1].split("```")[0])
    check_request(example)
    after = {"taskId", "sessionId", "lastActionStatus", "lastActionResult", "previousUrl",
             "clientObservations", "clientVerification", "domChanges", "verification_passed",
             "verification_message", "errors_detected", "success_messages"}  # fmt: skip
    assert set(example) == PAGE_KEYS | after
    named = set(re.findall(r"`(\w+)", section))
    assert set(InteractRequest.model_fields) - named == set()  # every request field is described
