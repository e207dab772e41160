"""Secrets masked by kind, everywhere (issue 20, item 7): on a hostile page holding a password
revealed by its "show password" toggle, a card code, a one-time code and a card number failing
Luhn (every field reporting what is typed into it with ``fetch('/hit?v=…')``), links and a location
with ``user:pass@``, ``?token=`` and ``#access_token=``, and navigations that put secrets into the
URL, no answer of any call of any agent tool (tests/e2e/every_tool.py), with and without
``include_values``, holds a secret."""

from __future__ import annotations

import json
from typing import Any

from browserx import Client
from browserx.control.tools import AGENT_TOOLS
from tests.e2e.every_tool import LEAVES_PAGE, calls_for_every_tool, run_calls
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import open_page

# Every secret of the page and of the URLs has this part; the card number is the other secret.
SECRETS = ("SECRET-", "4111 1111 1111 1112", "4111111111111112", "4111%201111", "4111+1111")
PASSWORD = "SECRET-PW-5521"


def _arm(browser: Browser, bx: Client, tab: int) -> None:
    """The page's secrets in place (one script): on a new document the password is typed in while
    the field is one (and browserx looks at the page), then revealed; fields typed over are filled
    again."""
    d = browser.driver
    if not d.execute_script("if (!window.__armed) return false; window.__arm(2); return true"):
        d.execute_script("window.__arm(1)")
        bx.snapshot(tab=tab)
        d.execute_script("window.__arm(2)")


def _leaks(answers: list[tuple[str, dict[str, Any], str]]) -> list[tuple[str, dict[str, Any], str]]:
    return [(n, p, a[:400]) for n, p, a in answers if any(s in a for s in SECRETS)]


def test_no_secret_in_any_answer_of_any_tool(browser: Browser, bx: Client, servers: Servers) -> None:
    page = servers.url("hostile-secrets.html")
    tab = open_page(browser, bx, page)
    d = browser.driver
    # The links put secrets into the location (user:pass@, ?token=, #access_token=), the referrer
    # and the tab's history: followed first (their answers checked too), so that the one page every
    # tool then runs on holds all of them beside its fields' secrets and the requests its fields
    # send (to its origin: a location with user:pass@ refuses a relative fetch).
    answers: list[tuple[str, dict[str, Any], str]] = []
    for name in ("Open with credentials", "Relative link"):
        _arm(browser, bx, tab)
        link = next(c["id"] for c in _controls(bx, tab)[0] if c.get("name") == name)
        before = d.current_url
        answers += run_calls(bx, [("click", {"id": link})], tab)
        assert d.current_url != before and "SECRET-" in d.current_url, (name, before, d.current_url)
    _arm(browser, bx, tab)
    # The secrets are there to leak: the password revealed in clear, the location carrying tokens.
    assert d.execute_script("const f = document.getElementById('phrase'); return [f.type, f.value]") == [
        "text",
        PASSWORD,
    ]
    assert "SECRET-QTOKEN" in d.current_url and "SECRET-FTOKEN" in d.current_url
    navigation = page.replace("http://", "http://user:SECRET-NAVPW@") + (
        "?token=SECRET-NTOKEN&state=1#access_token=SECRET-NFRAG&token_type=bearer"
    )
    # Every call of every tool on this one page: its fields filled again after each call that may
    # have typed over them (a read changes nothing: the reads that follow one another share one
    # arming), then the calls that leave it.
    calls = _calls(bx, tab, navigation)
    read_only = {t.name for t in AGENT_TOOLS if t.hints.read_only}
    armed = False
    for name, params in calls:
        if name in LEAVES_PAGE:
            continue
        if not armed:
            _arm(browser, bx, tab)
        answers += run_calls(bx, [(name, params)], tab)
        armed = name in read_only
    answers += run_calls(bx, [c for c in calls if c[0] in LEAVES_PAGE], tab)
    assert _leaks(answers) == []
    assert {n for n, _, _ in answers} == {t.name for t in AGENT_TOOLS}  # every tool was called
    # The checks looked at something: values were shown (masked) and the page's requests listed.
    text = "\n".join(a for _, _, a in answers)
    assert "••••" in text and "[card code]" in text and "[one-time code]" in text and "[card number]" in text
    assert "/hit?v=" in text and '"navigated": true' in text
    assert "token=…" in text and "access_token=…" in text


def _calls(bx: Client, tab: int, navigation: str) -> list[tuple[str, dict[str, Any]]]:
    """Every call of every tool on the page's controls but its links (followed on their own), each
    twice where values may be asked for: as the recipe says, and the other way round."""
    controls, boxes = _controls(bx, tab)
    ids = [c["id"] for c in controls if c.get("role") != "link"]
    phrase = next(c["id"] for c in controls if c.get("name") == "Login phrase")
    x, y, w, h = boxes[phrase]
    out: list[tuple[str, dict[str, Any]]] = []
    for name, params in calls_for_every_tool(ids, (x + w / 2, y + h / 2), navigation, text="Zq"):
        out.append((name, params))
        if "include_values" in params:
            out.append((name, {**params, "include_values": not params["include_values"]}))
    return out


def test_a_field_typed_into_reports_its_requests_keys_only_unless_values_were_asked(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("hostile-secrets.html"))
    _arm(browser, bx, tab)
    ids = {n: i for i, n in ((c["id"], c.get("name")) for c in _controls(bx, tab)[0])}
    note, phrase = ids["Note"], ids["Login phrase"]
    plain = bx.call("type", id=note, text="plain words", tab=tab)
    assert [r["url"].split("/hit", 1)[1] for r in plain["network"]["xhr"]][-1] == "?v=…"
    valued = bx.call("type", id=note, text=" more", tab=tab, include_values=True)
    assert valued["changes"]["new_value"] == "plain words more"
    assert any(r["url"].endswith("/hit?v=plain%20words%20more") for r in valued["network"]["xhr"])
    # The revealed password: nothing of it, values asked for or not.
    for include in (False, True):
        secret = bx.call("type", id=phrase, text="Zq", tab=tab, include_values=include)
        shown = json.dumps(secret)
        assert PASSWORD not in shown and "SECRET-" not in shown and secret["changes"]["new_value"] is None
        assert any(r["url"].endswith("/hit?v=…") for r in secret["network"]["xhr"])


def test_what_is_typed_stays_out_of_request_paths_too(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("secret-path.html"))
    ids = {n: i for i, n in ((c["id"], c.get("name")) for c in _controls(bx, tab)[0])}
    typed = bx.call("type", id=ids["Coupon"], text="summer sale", tab=tab)
    urls = [r["url"] for r in typed["network"]["xhr"]]
    assert urls and not any("summer" in u for u in urls), urls  # (asked for: shown, below)
    asked = bx.call("type", id=ids["Coupon"], text="x", clear=True, tab=tab, include_values=True)
    assert any(u["url"].endswith("/hit/x") for u in asked["network"]["xhr"])
    for include in (False, True):  # a password: never, values asked for or not
        secret = bx.call(
            "type", id=ids["Password"], text="Hunter2-pw", clear=True, tab=tab, include_values=include
        )
        urls = [r["url"] for r in secret["network"]["xhr"]]
        assert urls and "Hunter2" not in json.dumps(secret), urls


def _controls(bx: Client, tab: int) -> tuple[list[dict[str, Any]], dict[int, list[float]]]:
    """The page's controls (json-view nodes with an ID) and their boxes, from one snapshot."""
    found: list[dict[str, Any]] = []

    def walk(node: dict[str, Any]) -> None:
        if isinstance(node.get("id"), int):
            found.append(node)
        for child in node.get("children", []):
            walk(child)

    walk(bx.snapshot(tab=tab, format="json", boxes=True)["json"]["page"]["body"])
    return found, {c["id"]: c["box"] for c in found if c.get("box")}
