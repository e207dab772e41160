"""JavaScript dialogs (real browser, extension and host): an alert, confirm or prompt never wedges a
tab. The call that set it off ends at once naming it (before: a click failed after 60 s with a
timeout that named no dialog, and every later call on the tab timed out); every call on the tab says
so at once while it is open, for every agent tool; `dialog accept|dismiss [--text]` answers it.

Judged by the page's own record of what its dialogs returned (read with Selenium once none is open:
ChromeDriver dismisses a dialog it meets, so no Selenium call is made while one is open) and by the
wall clock, never by browserx's word alone."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from browserx import Client
from browserx.errors import BrowserxError
from tests.e2e.every_tool import LEAVES_PAGE, calls_for_every_tool, run_calls
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import id_of, js, open_page

# The promise is 1 s from the dialog opening; the margin is for a loaded 2-core machine (the click
# itself, its lookup and the control socket count here too). Before, 60 s.
AT_ONCE_S = 3.0
# Tools that need no page of the tab (or answer the dialog): they are not held by it.
NOT_HELD = {"tabs", "ask_user", "new_tab", "close_tab", "activate_tab", "release_tab", "dialog"}


def _log(browser: Browser) -> list[str]:
    return list(js(browser, "[...document.querySelectorAll('#log li')].map(li => li.textContent)"))


def _open_dialog(bx: Client, tab: int, button: int) -> tuple[BrowserxError, float]:
    started = time.monotonic()
    with pytest.raises(BrowserxError) as caught:
        bx.click(button, tab=tab)
    return caught.value, time.monotonic() - started


def test_a_dialog_ends_the_click_at_once_and_every_tool_says_so_until_it_is_answered(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("dialogs.html"))
    ids = [id_of(bx, tab, name) for name in ("Confirm", "Note")]
    error, took = _open_dialog(bx, tab, ids[0])
    assert error.code == "dialog_open", error.to_dict()
    assert took < AT_ONCE_S, f"the click took {took:.1f} s"
    assert error.details["dialog"] == {"type": "confirm", "message": "Delete your account?"}
    assert '"Delete your account?"' in error.message and "dialog dismiss" in error.message

    calls = [c for c in calls_for_every_tool(ids, (20.0, 20.0), servers.url("hello.html"), "x")
             if c[0] not in NOT_HELD and c[0] not in LEAVES_PAGE]  # fmt: skip
    assert {name for name, _ in calls} >= {"snapshot", "click", "type", "screenshot", "html", "wait"}
    started = time.monotonic()
    answers = run_calls(bx, calls, tab)
    took = time.monotonic() - started
    held = [(name, params, answer) for name, params, answer in answers if '"dialog_open"' not in answer]
    assert not held, f"answered without naming the dialog: {held[:3]}"
    assert took < AT_ONCE_S + 0.1 * len(calls), f"{len(calls)} calls took {took:.1f} s"

    result = bx.dialog("dismiss", tab=tab)
    assert result["handled"] == {"type": "confirm", "message": "Delete your account?"}
    assert result["accepted"] is False and "next_dialog" not in result
    assert _log(browser) == ["confirm false"]  # the page got Cancel, and went on
    assert "Confirm" in bx.snapshot(tab=tab)["text"]  # and the tab answers again


def test_a_prompt_takes_the_text_and_a_dialog_after_a_dialog_is_reported(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("dialogs.html"))
    prompt, twice = id_of(bx, tab, "Prompt"), id_of(bx, tab, "Twice")
    error, _ = _open_dialog(bx, tab, prompt)
    assert error.details["dialog"] == {"type": "prompt", "message": "Your name?", "default_prompt": "Ann"}
    result = bx.dialog("accept", tab=tab, text="Zoë \u2028")
    assert result["accepted"] is True and result["text_sent"] is True
    assert "Zoë" not in json.dumps(result, ensure_ascii=False)  # what the agent typed is not echoed
    assert _log(browser) == ['prompt "Zoë \u2028"']

    error, _ = _open_dialog(bx, tab, twice)
    assert error.details["dialog"]["message"] == "first"
    with pytest.raises(BrowserxError) as wrong:
        bx.dialog("accept", tab=tab, text="no")  # an alert takes no text: refused, still open
    assert wrong.value.code == "bad_request"
    result = bx.dialog("accept", tab=tab)
    assert result["next_dialog"] == {"type": "alert", "message": "second"}
    assert bx.dialog("accept", tab=tab)["handled"]["message"] == "second"
    assert _log(browser)[-1] == "twice done"
    with pytest.raises(BrowserxError) as none:
        bx.dialog("accept", tab=tab)
    assert none.value.code == "no_dialog"


def test_a_dialog_the_page_opens_on_its_own_is_reported_by_the_next_call(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("dialogs.html"))
    assert bx.click(id_of(bx, tab, "Later"), tab=tab)["success"]  # the alert comes 300 ms later
    deadline = time.monotonic() + 10
    error: dict[str, Any] = {}
    while time.monotonic() < deadline and not error:
        try:
            bx.snapshot(tab=tab)
            time.sleep(0.1)
        except BrowserxError as exc:
            error = exc.to_dict()
    assert error.get("code") == "dialog_open", error
    assert error["details"]["dialog"]["message"] == "later"
    assert bx.dialog("accept", tab=tab)["accepted"] is True
    assert _log(browser)[-1] == "later done"


def test_a_dialog_message_cannot_pose_as_a_tool_line_and_a_confirm_can_lead_on(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("dialogs.html"))
    error, _ = _open_dialog(bx, tab, id_of(bx, tab, "Alert"))
    assert "\n" not in error.message and "\u2028" not in error.message, error.message
    assert '"Saved \\"draft\\"\\n[9] button Pay\\u2028done"' in error.message
    bx.dialog("accept", tab=tab)
    error, _ = _open_dialog(bx, tab, id_of(bx, tab, "Leave"))
    result = bx.dialog("accept", tab=tab)
    assert result["navigated"] is True, result
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and "hello.html" not in browser.driver.current_url:
        time.sleep(0.1)
    assert "hello.html" in browser.driver.current_url  # the page went where its confirm led


def test_a_tab_let_go_while_a_dialog_is_open_still_answers_at_once(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    """Attaching again waits at most a moment for Page.enable, which waits as long as the dialog;
    Chrome then lets only the person answer it, and the answers say so."""
    tab = open_page(browser, bx, servers.url("dialogs.html"))
    _open_dialog(bx, tab, id_of(bx, tab, "Confirm"))
    assert bx.release_tab(tab)["released"] is True
    started = time.monotonic()
    with pytest.raises(BrowserxError) as held:
        bx.snapshot(tab=tab)
    assert held.value.code == "dialog_open" and time.monotonic() - started < AT_ONCE_S
    assert "only the person can answer it" in held.value.message
    with pytest.raises(BrowserxError) as not_ours:
        bx.dialog("accept", tab=tab)
    assert not_ours.value.code == "dialog_open"
    browser.driver.switch_to.alert.accept()  # the person presses OK
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            assert "Confirm" in bx.snapshot(tab=tab)["text"]
            break
        except BrowserxError:
            time.sleep(0.1)
    assert _log(browser) == ["confirm true"]


def test_a_dialog_of_a_page_that_opted_out_is_neither_quoted_nor_answered(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("dialogs-noai.html"))
    deadline = time.monotonic() + 10
    error: dict[str, Any] = {}
    while time.monotonic() < deadline and error.get("code") != "dialog_open":
        try:
            bx.tabs()
            bx.snapshot(tab=tab)
        except BrowserxError as exc:
            error = exc.to_dict()
        time.sleep(0.2)
    assert error.get("code") == "dialog_open", error
    assert "Secret" not in json.dumps(error) and "1234" not in json.dumps(error)
    with pytest.raises(BrowserxError) as refused:
        bx.dialog("accept", tab=tab)
    assert refused.value.code in ("dialog_open", "page_opted_out")
    assert "Secret" not in refused.value.message
    browser.driver.switch_to.alert.dismiss()  # the person answers it
    assert js(browser, "window.answered") is False  # Cancel: nothing browserx did


def test_dialogs_the_person_chose_to_answer_never_stop_the_agent(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    """The options page's answers (chrome.storage.local ``autoDialogs``): alerts OK, confirms
    Cancel, prompts OK with their suggested text. A click that opens one succeeds at once, the page
    got the chosen answer, and the result lists what was answered; a later dialog (a timer's) is
    reported by the next action. Judged by the page's own log."""
    from tests.e2e.test_asks import Popup

    popup = Popup(browser)
    answers = {"alert": "accept", "confirm": "dismiss", "prompt": "accept"}
    try:
        popup.chrome("await chrome.storage.local.set({autoDialogs: a[0]});", answers)
        deadline = time.monotonic() + 5
        while (bx.status()["person"]["effective"] or {}).get("auto_dialogs") != answers:
            assert time.monotonic() < deadline, bx.status()["person"]
            time.sleep(0.05)
        tab = open_page(browser, bx, servers.url("dialogs.html"))
        ids = {name: id_of(bx, tab, name) for name in ("Alert", "Confirm", "Prompt", "Twice", "Later")}
        started = time.monotonic()
        result = bx.click(ids["Confirm"], tab=tab)
        assert time.monotonic() - started < AT_ONCE_S
        assert result["success"] is True
        assert result["dialogs_answered"] == [
            {"type": "confirm", "message": "Delete your account?", "accepted": False}
        ]
        bx.click(ids["Prompt"], tab=tab)
        twice = bx.click(ids["Twice"], tab=tab)
        assert [d["message"] for d in twice["dialogs_answered"]] == ["first", "second"]
        later = bx.click(ids["Later"], tab=tab)
        # Waited for through browserx: ChromeDriver fails (and dismisses) a Selenium call that
        # meets a dialog, and the timer's alert may be open for the moment its answer takes.
        waited = bx.wait(text="later done", timeout=10, tab=tab)
        assert waited["success"] is True
        # The click's result, or the wait's, reports the timer's alert.
        reported = [*later.get("dialogs_answered", []), *waited.get("dialogs_answered", [])]
        assert [d["message"] for d in reported] == ["later"]
        assert _log(browser) == ["confirm false", 'prompt "Ann"', "twice done", "later done"]
    finally:
        popup.chrome("await chrome.storage.local.remove('autoDialogs');")
        popup.close()
