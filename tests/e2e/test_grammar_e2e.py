"""The action grammar end to end: an action string, as an LLM backend emits it, acts on the real
page (through ``run_action`` and through ``browserx do``); the effect is checked through Selenium."""

from __future__ import annotations

import json

from browserx import Client
from browserx.interfaces.grammar import run_action
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import id_of, js, open_page, run_cli


def test_run_action_clicks_by_id(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("act-controls.html"))
    button = id_of(bx, tab, "Increment")
    result = run_action(bx, f"click({button})", tab=tab)
    assert result["success"] is True and result["action"] == "click"
    assert js(browser, "counts.inc") == 1
    run_action(bx, f'click("{button}")', tab=tab)  # a stable ID written as a string
    assert js(browser, "counts.inc") == 2
    assert run_action(bx, "finish()", tab=tab) == {"done": True, "success": True, "reason": None}
    assert js(browser, "counts.inc") == 2


def test_setvalue_replaces_the_field(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("act-controls.html"))
    field = id_of(bx, tab, "Full name")
    run_action(bx, f'type({field}, "Ada")', tab=tab)
    run_action(bx, f'setValue({field}, "Grace \\"Amazing\\" Hopper")', tab=tab)
    assert js(browser, "document.getElementById('name').value") == 'Grace "Amazing" Hopper'


def test_cli_do(browser: Browser, bx: Client, servers: Servers) -> None:
    tab = open_page(browser, bx, servers.url("act-controls.html"))
    button = id_of(bx, tab, "Increment")
    out = run_cli("do", f"click({button})", "--tab", str(tab))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("click succeeded"), out.stdout
    assert js(browser, "counts.inc") == 1
    out = run_cli("do", "--json", "--tab", str(tab), f'click("{button}")')
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["success"] is True
    assert js(browser, "counts.inc") == 2
    out = run_cli("do", f"click({button}", "--tab", str(tab))
    assert out.returncode == 2 and "at column" in out.stderr, out
    assert js(browser, "counts.inc") == 2
