"""The person answers the agent from the browser (issue 22, items 5, 6 and their part of 8), on real
Chromium through the extension's popup, opened as an extension page in a tab:

- ``browserx ask-user`` (the CLI, a process of its own) waits until the answer typed in the popup's
  "Answer" box and sent with "Send" arrives, and prints it; the badge shows "?" meanwhile; a choice
  button answers too; no answer in time is ``no_answer`` and the popup drops the question, as it
  does when the client that asked hangs up.
- "Confirm before sensitive actions": a click on "Pay now" waits for "Allow" and happens; a form
  with a password sent with "Sign in" is denied (``denied_by_user``) and nothing happens; a plain
  "Save" is not asked about.
- ``browserx agent`` with a backend answering ``needs_user_input`` goes on with the answer given in
  the popup: the next request carries it as ``userInput``.
- "Ask the first time a site is used": Allow lets the call through and lists the site in
  allowedSites; Block answers ``site_blocked`` and lists it in blockedSites.

The browser is shared by the whole test session: every setting changed here is put back.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from browserx import Client
from browserx.errors import BrowserxError, DeniedByUser, SiteBlocked
from browserx.relay.protocol import EXTENSION_ID
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import ExtensionTab, id_of, js, open_page
from tests.e2e.test_agent import fake_backend

POPUP = f"chrome-extension://{EXTENSION_ID}/popup.html"
SETTINGS = ("siteMode", "blockedSites", "allowedSites", "confirmSensitive")


class Popup(ExtensionTab):
    """The popup, open in a second tab of Selenium's window."""

    def __init__(self, browser: Browser) -> None:
        super().__init__(browser)
        with self.inside():
            self.driver.get(POPUP)

    def question(self, text: str, timeout: float = 15.0) -> Any:
        """The popup's box for the question that contains ``text`` (waits for it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.inside():
                for box in self.driver.find_elements(By.CSS_SELECTOR, "#ask .ask"):
                    if text in box.find_element(By.CSS_SELECTOR, ".ask-question").text:
                        return box.get_attribute("data-ask-id")
            time.sleep(0.1)
        raise AssertionError(f"no question with {text!r} in the popup: {self.shown()}")

    def shown(self) -> list[str]:
        with self.inside():
            return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, "#ask .ask-question")]

    def press(self, ask_id: str, label: str) -> None:
        with self.inside():
            box = self.driver.find_element(By.CSS_SELECTOR, f'#ask .ask[data-ask-id="{ask_id}"]')
            (button,) = [b for b in box.find_elements(By.TAG_NAME, "button") if b.text == label]
            button.click()

    def type_answer(self, ask_id: str, text: str) -> None:
        with self.inside():
            box = self.driver.find_element(By.CSS_SELECTOR, f'#ask .ask[data-ask-id="{ask_id}"]')
            label = box.find_element(By.TAG_NAME, "label")
            assert label.text.strip() == "Answer"
            field = label.find_element(By.TAG_NAME, "input")
            field.clear()
            field.send_keys(text)

    def badge(self) -> str:
        return str(self.chrome("return await chrome.action.getBadgeText({});"))

    def wait_gone(self, ask_id: str, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.inside():
                if not self.driver.find_elements(By.CSS_SELECTOR, f'#ask .ask[data-ask-id="{ask_id}"]'):
                    return
            time.sleep(0.1)
        raise AssertionError(f"question {ask_id} still shown")


@pytest.fixture
def popup(browser: Browser) -> Iterator[Popup]:
    p = Popup(browser)
    saved = p.chrome("return await chrome.storage.local.get(a[0]);", list(SETTINGS))
    try:
        yield p
    finally:
        p.chrome(
            "await chrome.storage.local.remove(a[1].filter((k) => !(k in a[0])));"
            "await chrome.storage.local.set(a[0]);",
            saved,
            list(SETTINGS),
        )
        p.close()


def set_controls(popup: Popup, bx: Client, **values: Any) -> None:
    """Set the person's controls in chrome.storage.local and wait until the host has them."""
    popup.chrome("await chrome.storage.local.set(a[0]);", values)
    keys = {"confirmSensitive": "confirm_sensitive"}
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        page = (bx.status().get("person") or {}).get("options_page") or {}
        if all(page.get(keys[k]) == v for k, v in values.items() if k in keys) and (
            "siteMode" not in values or (page.get("site_rules") or {}).get("mode") == values["siteMode"]
        ):
            return
        time.sleep(0.05)
    raise AssertionError(f"the host did not get {values}: {bx.status().get('person')}")


def cli(*args: str) -> subprocess.Popen[str]:
    """The `browserx` CLI as a process of its own (answered while it runs)."""
    return subprocess.Popen(
        [sys.executable, "-m", "browserx.interfaces.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )


def in_thread(call: Callable[[], Any]) -> Callable[[float], Any]:
    """Run ``call`` in a thread; the function returned waits for its result (or raises its error)."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["result"] = call()
        except BaseException as exc:  # handed to the waiter
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def wait(timeout: float) -> Any:
        thread.join(timeout)
        assert not thread.is_alive(), "still waiting"
        if "error" in out:
            raise out["error"]
        return out["result"]

    return wait


# -- ask_user ----------------------------------------------------------------------------------


def test_ask_user_waits_for_the_answer_typed_in_the_popup(browser: Browser, bx: Client, popup: Popup) -> None:
    proc = cli("ask-user", "Which size?")
    try:
        ask_id = popup.question("Which size?")
        assert popup.badge() == "?"  # an answer is awaited
        time.sleep(0.5)
        assert proc.poll() is None  # still waiting: nothing answered yet
        popup.type_answer(ask_id, "Medium, please")
        popup.press(ask_id, "Send")
        out, err = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert out == "Medium, please\n"
    popup.wait_gone(ask_id)
    assert popup.badge() == "on"  # the usual badge again


def test_a_choice_button_answers(browser: Browser, bx: Client, popup: Popup) -> None:
    answer = in_thread(lambda: bx.ask_user("Which colour?", choices=["Red", "Green", "Blue"], timeout_s=30))
    ask_id = popup.question("Which colour?")
    popup.press(ask_id, "Green")
    assert answer(15) == {"answer": "Green"}


def test_no_answer_in_time_is_no_answer_and_the_question_goes(
    browser: Browser, bx: Client, popup: Popup
) -> None:
    proc = cli("ask-user", "Anyone there?", "--timeout-s", "2", "--json")
    ask_id = popup.question("Anyone there?")
    out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 1
    assert '"code": "no_answer"' in out
    popup.wait_gone(ask_id)  # taken back (askDone)
    assert popup.badge() == "on"


def test_a_client_that_hangs_up_takes_its_question_back(browser: Browser, bx: Client, popup: Popup) -> None:
    proc = cli("ask-user", "Still need me?")
    ask_id = popup.question("Still need me?")
    proc.kill()  # the agent is gone: nobody will read the answer
    proc.communicate(timeout=10)
    popup.wait_gone(ask_id)
    assert popup.badge() == "on"


# -- confirm before sensitive actions ------------------------------------------------------------


def test_sensitive_actions_wait_for_allow_or_deny(
    browser: Browser, bx: Client, servers: Servers, popup: Popup
) -> None:
    tab = open_page(browser, bx, servers.url("ask-sensitive.html"))
    pay, save, sign_in = (id_of(bx, tab, n) for n in ("Pay now", "Save", "Sign in"))
    password = id_of(bx, tab, "Password")
    # Off (the default): nothing is asked.
    assert bx.click(save, tab=tab)["success"] is True
    set_controls(popup, bx, confirmSensitive=True)

    # A plain control is not asked about.
    assert bx.click(save, tab=tab)["success"] is True
    assert popup.shown() == []

    # "Pay now": asked; nothing happens until Allow, then the click does.
    result = in_thread(lambda: bx.click(pay, tab=tab))
    ask_id = popup.question("Pay now")
    assert "click button" in popup.shown()[0] and "127.0.0.1" in popup.shown()[0]
    assert js(browser, "actions") == ["saved", "saved"]  # not clicked yet
    popup.press(ask_id, "Allow")
    assert result(30)["success"] is True
    assert js(browser, "document.getElementById('state').textContent") == "paid"

    # "Sign in" sends a form with a password: Deny → denied_by_user, nothing sent.
    result = in_thread(lambda: bx.click(sign_in, tab=tab))
    ask_id = popup.question("Sign in")
    assert "a password" in popup.shown()[0]
    popup.press(ask_id, "Deny")
    with pytest.raises(DeniedByUser):
        result(30)
    # Enter in the password field would send it too.
    result = in_thread(lambda: bx.type_text(password, "x", submit=True, tab=tab))
    ask_id = popup.question("press Enter in")
    popup.press(ask_id, "Deny")
    with pytest.raises(DeniedByUser):
        result(30)
    assert js(browser, "actions") == ["saved", "saved", "paid"]
    assert js(browser, "document.getElementById('state').textContent") == "paid"
    assert js(browser, "document.querySelector('[name=pw]').value") == ""  # nothing typed either


def test_sensitive_actions_are_judged_as_the_page_is_when_they_run(
    browser: Browser, bx: Client, servers: Servers, popup: Popup
) -> None:
    """Other paths to the same acts (issue 34): each is asked about and, denied, leaves the page's
    own record of what happened empty."""
    tab = open_page(browser, bx, servers.url("ask-sensitive-paths.html"))
    go, delete, pay, zw, password, nxt = (
        id_of(bx, tab, n)
        for n in ("Continue", "Delete my account", "Pay now", "P\u200bay n\u200dow", "Password", "Next step")
    )
    nodes = bx.snapshot(tab=tab, format="semantic")["semantic"]["interactive_tree"]
    (x, y) = next(n["xy"] for n in nodes if n.get("n") == "Pay now")
    set_controls(popup, bx, confirmSensitive=True)
    js(browser, "document.getElementById('go').textContent = 'Pay 500 dollars'")  # after the snapshot
    js(browser, "document.getElementById('pay').focus()")
    attempts: list[tuple[str, Callable[[], Any], str]] = [
        ("renamed after the snapshot", lambda: bx.click(go, tab=tab), "Pay 500 dollars"),
        ("a checkbox", lambda: bx.check(delete, tab=tab), "Delete my account"),
        ("a point", lambda: bx.click_at(x, y, tab=tab), "Pay now"),
        ("Space on the focused button", lambda: bx.key("Space", tab=tab), "Pay now"),
        ("Enter by id", lambda: bx.key("Enter", id=pay, tab=tab), "Pay now"),
        ("a zero-width space", lambda: bx.click(zw, tab=tab), "ay n"),
        ("a script button of a card form", lambda: bx.click(nxt, tab=tab), "Next step"),
        ("Enter typed as \\r", lambda: bx.type_text(password, "x\r", per_char=True, tab=tab), "a password"),
    ]
    for what, call, shown in attempts:
        result = in_thread(call)
        ask_id = popup.question(shown)
        popup.press(ask_id, "Deny")
        with pytest.raises(DeniedByUser):
            result(30)
        assert js(browser, "actions") == [], what
    assert js(browser, "document.getElementById('del').checked") is False
    assert js(browser, "document.querySelector('[name=pw]').value") == ""


# -- browserx agent and needs_user_input -------------------------------------------------------


def test_agent_goes_on_with_the_answer_given_in_the_popup(
    browser: Browser, bx: Client, servers: Servers, popup: Popup
) -> None:
    tab = open_page(browser, bx, servers.url("agent-form.html"))

    def script(bodies: list[dict[str, Any]]) -> dict[str, Any]:
        if len(bodies) == 1:
            return {"success": True, "data": {"status": "needs_user_input", "userQuestion": "Which name shall I use?",
                                              "taskId": "task-ask"}}  # fmt: skip
        answer = bodies[-1].get("userInput")
        return {"success": True, "data": {"action": f'finish("name {answer}")', "taskId": "task-ask"}}

    with fake_backend(script) as backend:
        proc = cli(
            "agent", "--backend", backend.url, "--task", "Fill the name", "--tab", str(tab), "--timeout", "20"
        )
        try:
            ask_id = popup.question("Which name shall I use?")
            popup.type_answer(ask_id, "Ada")
            popup.press(ask_id, "Send")
            out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 0, (out, err)
    assert out.strip() == "finished after 2 steps: name Ada"
    first, second = backend.bodies
    assert "userInput" not in first
    assert second["userInput"] == "Ada" and second["taskId"] == "task-ask"
    assert "needs_user_input: asking the person" in err


# -- "ask the first time a site is used" ---------------------------------------------------------


def test_the_ask_site_mode_allows_and_blocks_as_the_person_says(
    browser: Browser, bx: Client, servers: Servers, popup: Popup
) -> None:
    tab = open_page(browser, bx, servers.url("hello.html"))
    set_controls(popup, bx, siteMode="ask", allowedSites=[], blockedSites=[])

    # 127.0.0.1: asked; Allow → the snapshot is taken, the site is listed as allowed.
    result = in_thread(lambda: bx.snapshot(tab=tab))
    ask_id = popup.question("Allow browserx on 127.0.0.1?")
    popup.press(ask_id, "Allow")
    assert "text" in result(30)
    assert popup.chrome("return (await chrome.storage.local.get('allowedSites')).allowedSites;") == [
        "127.0.0.1"
    ]
    bx.snapshot(tab=tab)  # not asked again
    assert popup.shown() == []

    # localhost, another site: Block → site_blocked, listed as blocked; asked no more.
    result = in_thread(lambda: bx.navigate(f"{servers.xorigin}/hello.html", tab=tab))
    ask_id = popup.question("Allow browserx on localhost?")
    popup.press(ask_id, "Block")
    with pytest.raises(SiteBlocked):
        result(30)
    assert popup.chrome("return (await chrome.storage.local.get('blockedSites')).blockedSites;") == [
        "localhost"
    ]
    with pytest.raises(BrowserxError) as again:
        bx.navigate(f"{servers.xorigin}/hello.html", tab=tab)
    assert again.value.code == "site_blocked"
    assert popup.shown() == []
