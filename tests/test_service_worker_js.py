"""The service worker's batches (extension/cdp.js), run under node with a stand-in
``chrome`` whose debugger answers as a page would: commands issued in order, a gated one only when
the answer it waits for says go, one taking earlier answers' objects as arguments (null for a
failed one) — and every malformed request answered with a clear error, never a
batch that fails whole."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

EXTENSION = Path(__file__).resolve().parents[1] / "host" / "browserx" / "extension"
# The worker's own scripts, in its load order (service-worker.js's importScripts, stubbed here).
WORKER = ("allowlist.js", "relay.js", "cdp.js", "tabs.js", "service-worker.js")

# Any chrome.* member is a callable stand-in (listeners, ports, badges); the debugger is the page.
PRELUDE = """
const stub = () => new Proxy(function () {}, { get: (t, k) => (k in t ? t[k] : (t[k] = stub())), apply: () => stub() });
globalThis.chrome = stub();
chrome.runtime.getManifest = () => ({ version: "0.0.0" });
globalThis.importScripts = () => {};
// What controls.js, asks.js and site_guard.js give the worker (tests/test_controls_js.py runs those).
globalThis.updateBadge = globalThis.quietly = () => {};
globalThis.controlHandlers = {};
globalThis.askHandlers = {};
globalThis.guardHandlers = {}; // (site_guard.js: tests/test_site_guard_js.py runs it)
globalThis.guardDropAll = async () => {};
globalThis.controlsHostStatus = globalThis.askBadge = globalThis.controlsTabOpened = () => {};
globalThis.controlsGate = async () => {};
globalThis.controlsSnapshot = () => ({});
const sent = [];
chrome.debugger.sendCommand = async (target, method, params) => {
  sent.push([method, params]);
  if (method === "DOM.describeNode") return { node: { backendNodeId: params.objectId === "gone" ? undefined : 42 } };
  if (method === "DOM.resolveNode") {
    if (params.backendNodeId === 0) throw new Error("No node with given id found");
    return { object: { objectId: "m" + params.backendNodeId } };
  }
  if (method === "Runtime.callFunctionOn") return { result: { value: params.arguments ?? [] } };
  if (method === "Runtime.evaluate") return { result: { value: params.expression === "go" } };
  return {};
};
"""

CASES = """
(async () => {
  const out = [];
  for (const commands of %(cases)s) {
    sent.length = 0;
    const answer = await handlers.batch({ tabId: 1, commands });
    out.push({ results: answer.results, sent: sent.map(([m, p]) => [m, p]) });
  }
  console.log(JSON.stringify(out));
  process.exit(0);
})();
"""


def _batches(*cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = (
        PRELUDE
        + "".join((EXTENSION / name).read_text("utf-8") for name in WORKER)
        + CASES % {"cases": json.dumps(list(cases))}
    )
    out = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=30, check=True)
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


def test_earlier_answers_objects_are_appended_to_a_calls_arguments_null_for_a_failed_one() -> None:
    (answer,) = _batches([
        {"method": "DOM.resolveNode", "params": {"backendNodeId": 7}},
        {"method": "DOM.resolveNode", "params": {"backendNodeId": 0}},
        {"method": "Runtime.callFunctionOn", "params": {"functionDeclaration": "f", "arguments": [{"value": 1}]},
         "args": {"from": [0, 1], "path": ["object", "objectId"]}},
    ])  # fmt: skip
    assert "error" in answer["results"][1]
    assert answer["results"][2] == {
        "result": {"result": {"value": [{"value": 1}, {"objectId": "m7"}, {"value": None}]}}
    }


def test_a_gated_command_goes_only_when_its_condition_says_go() -> None:
    def gated(expression: str) -> list[dict[str, Any]]:
        return [
            {"method": "Runtime.evaluate", "params": {"expression": expression}},
            {"method": "Input.insertText", "params": {"text": "hi"}, "after": 0, "when": ["result", "value"]},
        ]

    went, held = _batches(gated("go"), gated("stay"))
    assert [m for m, _ in went["sent"]] == ["Runtime.evaluate", "Input.insertText"]
    assert [m for m, _ in held["sent"]] == ["Runtime.evaluate"]
    assert held["results"][1] == {"error": "skipped: command 0 did not say go"}


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ({"method": "Runtime.callFunctionOn", "params": {}, "args": {"from": [0] * 1001, "path": []}},
         "at most 1000"),
        ({"method": "Runtime.callFunctionOn", "params": {"arguments": "x"}, "args": {"from": "0", "path": []}},
         "args.from"),
        ({"method": "Runtime.callFunctionOn", "params": {}, "args": {"from": [0], "path": []}, "after": 0},
         "one of after and args"),
        ({"method": "Runtime.callFunctionOn", "params": {}, "args": {"from": [0], "path": [1]}},
         "args.path must be a list of keys"),
        ({"method": "Browser.close", "params": {}, "args": {"from": [0], "path": ["node", "backendNodeId"]}},
         "method not allowed"),
    ],
)  # fmt: skip
def test_a_malformed_command_gets_its_own_error_and_the_rest_of_the_batch_runs(
    command: dict[str, Any], why: str
) -> None:
    (answer,) = _batches([{"method": "DOM.describeNode", "params": {"objectId": "e1"}}, command,
                          {"method": "DOM.describeNode", "params": {"objectId": "e2"}}])  # fmt: skip
    assert why in answer["results"][1]["error"], answer["results"][1]
    assert "result" in answer["results"][0] and "result" in answer["results"][2]
    assert [m for m, _ in answer["sent"]] == ["DOM.describeNode", "DOM.describeNode"]


def test_a_request_whose_type_is_not_a_string_is_refused_before_the_gate() -> None:
    """``["cdp"]`` names the cdp handler to ``Object.hasOwn`` but is not ``"cdp"`` to the person's
    gate: it must reach neither (the gate stands in for the stop, site rules and tab sharing)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    probe = """
(async () => {
  const gated = [];
  globalThis.controlsGate = async (msg) => { gated.push(msg.type); };
  const out = [];
  for (const type of [["cdp"], ["batch"], {toString: () => "cdp"}, "cdp"]) {
    sent.length = 0;
    try {
      await handle({ type, tabId: 1, method: "Runtime.evaluate", params: { expression: "go" } }, 7);
      out.push("ran");
    } catch (err) { out.push(String(err.message)); }
  }
  console.log(JSON.stringify({ out, gated, sent: sent.length }));
  process.exit(0);
})();
"""
    script = PRELUDE + "".join((EXTENSION / name).read_text("utf-8") for name in WORKER) + probe
    done = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=30, check=True)
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["out"][:3] == ["bad request: type must be a string"] * 3, answer
    assert answer["out"][3] == "ran" and answer["gated"] == ["cdp"] and answer["sent"] == 1, answer
