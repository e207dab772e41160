"""The service worker's own refusals (extension/controls.js, defence in depth behind the host's):
its gate run under node with a stand-in ``chrome`` whose storage holds the person's settings.
While stopped no attach, CDP command or new tab goes through; a tab on a blocked site, a navigation
there and, with tab sharing on, a tab not shared are refused — each with the error code the host
maps to its own error (relay/connection.py), so an agent reads the same answer from either side."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from browserx.errors import SiteBlocked, StoppedByUser, TabNotShared
from browserx.relay.connection import map_relay_error

CONTROLS_JS = Path(__file__).resolve().parents[1] / "host" / "browserx" / "extension" / "controls.js"

# A stand-in for what controls.js uses of chrome.* and of the worker's other scripts' globals.
PRELUDE = """
const store = { local: %(local)s, session: %(session)s };
const area = (name) => ({
  get: async (keys) => { const all = store[name]; if (keys == null) return {...all};
    const out = {}; for (const k of [].concat(keys)) if (k in all) out[k] = all[k]; return out; },
  set: async (v) => { Object.assign(store[name], v); },
});
const listeners = () => ({ addListener() {} });
globalThis.chrome = {
  storage: { local: area("local"), session: area("session"), onChanged: listeners() },
  tabs: { get: async (id) => ({ id, url: %(urls)s[id] ?? "" }), onUpdated: listeners(), onRemoved: listeners() },
  debugger: { detach: async () => {} },
};
const attached = new Set(); const posted = [];
function post(m) { posted.push(m); } function forget() {} async function detachAll() {}
function badRequest(why) { return new Error(`bad request: ${why}`); }
"""

CASES = """
const cases = %(cases)s;
(async () => {
  const out = [];
  for (const msg of cases) {
    try { await controlsGate(msg); out.push("ok"); } catch (e) { out.push(e.message); }
  }
  console.log(JSON.stringify(out));
})();
"""


def _gate(
    local: dict[str, Any], cases: list[dict[str, Any]], urls: dict[int, str], shared: tuple[int, ...] = ()
) -> list[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = (
        PRELUDE
        % {
            "local": json.dumps(local),
            "session": json.dumps({"sharedTabs": list(shared)}),
            "urls": json.dumps(urls),
        }
        + CONTROLS_JS.read_text("utf-8")
        + CASES % {"cases": json.dumps(cases)}
    )
    out = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=30, check=True)
    return list(json.loads(out.stdout))


URLS = {1: "https://www.bank.example/acct", 2: "https://shop.example/", 3: "about:blank"}
CDP: list[dict[str, Any]] = [
    {"type": "cdp", "tabId": 2, "method": "Runtime.evaluate"},
    {"type": "attach", "tabId": 2},
    {"type": "batch", "tabId": 2, "commands": []},
    {"type": "newTab"},
    {"type": "tabs"},
    {"type": "ping"},
]


def test_while_stopped_nothing_reaches_a_tab() -> None:
    answers = _gate({"stopped": True}, CDP, URLS)
    assert answers[:4] == [answers[0]] * 4 and answers[0].startswith("stopped_by_user:")
    assert answers[4:] == ["ok", "ok"]  # listing tabs and ping touch no tab
    assert isinstance(map_relay_error(answers[0], "Runtime.evaluate", 2), StoppedByUser)
    assert _gate({"stopped": False}, CDP, URLS) == ["ok"] * len(CDP)


def test_a_blocked_site_is_neither_touched_nor_navigated_to() -> None:
    local = {"blockedSites": ["*.bank.example"]}
    cases: list[dict[str, Any]] = [
        {"type": "cdp", "tabId": 1, "method": "Runtime.evaluate"},
        {"type": "attach", "tabId": 1},
        {"type": "batch", "tabId": 1, "commands": []},
        {"type": "cdp", "tabId": 2, "method": "Runtime.evaluate"},
        {"type": "cdp", "tabId": 2, "method": "Page.navigate", "params": {"url": "https://bank.example/"}},
        {
            "type": "cdp",
            "tabId": 3,
            "method": "Page.navigate",
            "params": {"url": "http:/\\\\www.BANK.example/"},
        },
        {
            "type": "batch",
            "tabId": 2,
            "commands": [{"method": "Page.navigate", "params": {"url": "https://a.bank.example"}}],
        },
        {"type": "navigateTab", "tabId": 3, "url": "https://bank.example/"},
        {"type": "navigateTab", "tabId": 3, "url": "https://shop.example/"},
    ]
    answers = _gate(local, cases, URLS)
    refused = [a.split(":", 1)[0] for a in answers]
    assert refused == ["site_blocked"] * 3 + ["ok"] + ["site_blocked"] * 4 + ["ok"], answers
    assert isinstance(map_relay_error(answers[0], "Runtime.evaluate", 1), SiteBlocked)
    listed = _gate({"siteMode": "listed", "allowedSites": ["shop.example"]}, cases[:4], URLS)
    assert [a.split(":", 1)[0] for a in listed] == ["site_blocked"] * 3 + ["ok"]


def test_with_tab_sharing_only_shared_tabs() -> None:
    cases = [{"type": "cdp", "tabId": 2, "method": "Runtime.evaluate"}, {"type": "attach", "tabId": 3}]
    answers = _gate({"tabSharing": True}, cases, URLS, shared=(3,))
    assert answers[0].startswith("tab_not_shared:") and answers[1] == "ok"
    assert isinstance(map_relay_error(answers[0], "Runtime.evaluate", 2), TabNotShared)
