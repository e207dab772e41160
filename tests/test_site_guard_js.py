"""The site rules as the browser's network layer holds them (extension/site_guard.js, run under node
with a stand-in ``chrome``): the declarativeNetRequest rules refuse exactly the URLs the matcher
(controls.js, which agrees with the host's: tests/test_site_rules.py) keeps browserx off, for every
resource type and for every spelling of a host Chrome may send; they are in force only while a
call is guarded, skip the person's other tabs but not a tab opened meanwhile, and a rule the
browser would not take fails the call instead of letting it go unguarded."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.test_site_rules import MATCHES

EXTENSION = Path(__file__).resolve().parents[1] / "host" / "browserx" / "extension"

PRELUDE = """
const listeners = () => ({ addListener() {} });
const calls = [];
let failNext = false;
const stubUrls = new Map();
globalThis.chrome = {
  storage: { local: { get: async () => ({}) }, session: { get: async () => ({}), set: async () => {} }, onChanged: listeners() },
  tabs: { query: async () => [{ id: 1 }, { id: 2 }, { id: 3 }], get: async (id) => ({ id, pendingUrl: stubUrls.get(id), url: "" }),
          onUpdated: listeners(), onRemoved: listeners(), onCreated: { addListener(f) { globalThis.created = f; } } },
  debugger: { detach: async () => {} },
  declarativeNetRequest: {
    getSessionRules: async () => [],
    updateSessionRules: async (change) => {
      if (failNext) { failNext = false; throw new Error("Rule with id 1 specifies an invalid regexFilter"); }
      calls.push(change);
    },
  },
};
const attached = new Set(); const posted = [];
function post(m) { posted.push(m); } function forget() {} async function detachAll() {}
function badRequest(why) { return new Error(`bad request: ${why}`); }
"""

# What declarativeNetRequest does with the rules: the matching rule of the highest priority
# decides; at one priority, allow wins over block.
DNR = r"""
function refused(rules, url, type) {
  let best = null;
  for (const r of rules) {
    const c = r.condition;
    if (!c.resourceTypes.includes(type)) continue;
    if (c.regexFilter && !new RegExp(c.regexFilter, "i").test(url)) continue;
    if (c.requestDomains) {
      const host = new URL(url).hostname.replace(/\.+$/, "");
      if (!c.requestDomains.some((d) => host === d || host.endsWith("." + d))) continue;
    }
    if (!best || r.priority > best.priority || (r.priority === best.priority && r.action.type === "allow")) best = r;
  }
  return best !== null && best.action.type === "block";
}
"""


def _node(script: str) -> Any:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    source = PRELUDE + "\n".join(
        (EXTENSION / name).read_text("utf-8") for name in ("controls.js", "site_guard.js")
    )
    done = subprocess.run(
        [node, "-e", source + DNR + script], capture_output=True, text=True, timeout=30, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _urls(host: str) -> list[str]:
    """How a URL on ``host`` reaches the network layer: Chrome's serialisation of it, with a port,
    a user name, a path, and the host named in the query of another."""
    bracketed = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return [
        f"http://{bracketed}/",
        f"https://{bracketed}:8443/a/b?c=d#e",
        f"https://someone@{bracketed}/",
        f"ws://{bracketed}/socket",
        f"https://elsewhere.example/?next=https://{bracketed}/",
    ]


def test_the_network_rules_refuse_what_the_matcher_refuses() -> None:
    rules_cases = [{"siteMode": "all", "blockedSites": [p], "allowedSites": []} for p, _, _ in MATCHES]
    rules_cases += [
        {"siteMode": "listed", "blockedSites": ["*.bank.example"], "allowedSites": ["docs.example", "*.bank.example"]},
        {"siteMode": "ask", "blockedSites": ["mail.example.com"], "allowedSites": ["*.example"]},
    ]  # fmt: skip
    hosts = sorted({h for _, h, _ in MATCHES} | {"docs.example", "shop.example", "www.bank.example"})
    script = f"""
    const cases = {json.dumps(rules_cases)}; const hosts = {json.dumps(hosts)};
    const out = [];
    for (const rules of cases) {{
      Object.assign(personControls, rules);
      const net = guardRules([]);
      for (const host of hosts) {{
        let href;
        try {{ href = new URL(`http://${{host.includes(":") && !host.startsWith("[") ? `[${{host}}]` : host}}/`).href; }}
        catch {{ continue; }}
        const canonical = new URL(href).host;
        for (const url of {json.dumps(_urls("HOST"))}.map((u) => u.replace("HOST", canonical).replace("[[", "[").replace("]]", "]"))) {{
          const verdict = siteVerdict(url, personControls);
          for (const type of ["main_frame", "sub_frame", "image", "xmlhttprequest", "websocket"]) {{
            if (url.startsWith("ws:") && type !== "websocket") continue;
            const want = verdict === "blocked" || verdict === "unlisted" || (verdict === "ask" && type === "main_frame");
            const wsVerdict = url.startsWith("ws:") ? siteVerdict(url.replace("ws:", "http:"), personControls) : verdict;
            const wantWs = wsVerdict === "blocked" || wsVerdict === "unlisted";
            const expected = url.startsWith("ws:") ? wantWs : want;
            if (refused(net, url, type) !== expected) out.push([rules, url, type, expected]);
          }}
        }}
      }}
    }}
    console.log(JSON.stringify(out));
    """
    wrong = _node(script)
    assert wrong == [], wrong[:10]


def test_rules_are_in_force_only_while_a_call_is_guarded() -> None:
    script = """
    (async () => {
      const tick = (ms) => new Promise((r) => setTimeout(r, ms));
      const RULES = { mode: "all", blocked: ["127.0.0.2"], allowed: [] };  // the config file's only
      const out = {};
      out.armed = await guardHandlers.siteGuard({ tabId: 2, on: true, rules: RULES });
      out.rules = calls.at(-1).addRules;
      await guardHandlers.siteGuard({ tabId: 2, on: true, rules: RULES }); // a second call: nothing new
      out.after_second = calls.length;
      // the page opens a popup (tab 4), the person a tab from theirs (5): one stays under the rules
      created({ id: 4, openerTabId: 2 }); created({ id: 5, openerTabId: 1 });
      await guardHandlers.siteGuard({ tabId: 3, on: true, rules: RULES });  // another tab's call
      out.skipped = calls.at(-1).addRules[0].condition.excludedTabIds;
      for (const t of [2, 2, 3]) await guardHandlers.siteGuard({ tabId: t, on: false });
      await tick(300);
      out.lingering = calls.length;  // its effects settle
      await tick(3000);
      out.lifted = calls.at(-1);
      // nothing restrictive: no rule, and nothing asked of the browser
      const before = calls.length;
      await guardHandlers.siteGuard({ tabId: 2, on: true, rules: { mode: "all", blocked: [], allowed: [] } });
      out.untouched = calls.length === before;
      await guardHandlers.siteGuard({ tabId: 2, on: false });
      await tick(3200);
      // rules the browser refuses fail every call waiting on them: none runs unguarded
      failNext = true;
      out.failed = await Promise.all([1, 2].map(() =>
        guardHandlers.siteGuard({ tabId: 3, on: true, rules: RULES }).then(() => "guarded", (e) => String(e.message))));
      // a tab already on its way to a blocked site
      stubUrls.set(6, "http://127.0.0.2/transfer");
      out.going = await guardHandlers.siteGuard({ tabId: 6, on: true, rules: RULES }).then(() => "guarded", (e) => String(e.message));
      try { await guardHandlers.siteGuard({ tabId: "x", on: true }); } catch (e) { out.bad = String(e.message); }
      out.long = patternCondition("a".repeat(70) + ".example");
      out.wild = patternCondition("*.bank.example");
      console.log(JSON.stringify(out));
      process.exit(0);  // (the guards' expiry timers)
    })();
    """
    out = _node(script)
    assert out["armed"] == {"guarded": True, "rules": 1}
    assert all(
        r["condition"]["excludedTabIds"] == [1, 3] for r in out["rules"]
    )  # a tab opened later: refused
    assert all("main_frame" in r["condition"]["resourceTypes"] for r in out["rules"])
    assert out["after_second"] == 1
    assert out["skipped"] == [1, 5]  # the popup (4) stays under the rules, tab 3 is guarded now
    assert out["lingering"] == 3  # (the arm, the person's new tab, tab 3's arm)
    assert out["lifted"]["addRules"] == []
    assert out["untouched"]
    assert all("invalid regexFilter" in f for f in out["failed"]), out["failed"]
    assert out["going"].startswith("site_blocked")
    assert out["bad"].startswith("bad request")
    assert out["long"] == {"requestDomains": ["a" * 70 + ".example"]}  # stricter: its subdomains too
    assert out["wild"] == {"requestDomains": ["bank.example"]}
