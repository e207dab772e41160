"""The person's controls on the host (control/person/controls.py, control/person/activity.py): Stop
fails what runs and what comes, site rules and tab sharing refuse before a tab is touched, the
Activity line says what was done in words and never a value. Over a real ExtensionConnection whose
extension is this test (it says hello and sends ``controls`` notices; what the host sends it is
recorded)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import msgspec
import pytest

from browserx.control.person.activity import describe
from browserx.control.person.controls import PersonControls
from browserx.control.person.popup_notices import MAX_DELAY_S, QUIET_S
from browserx.control.schemas import ClickParams, NavigateParams, NewTabParams, TypeParams, WaitParams
from browserx.errors import SiteBlocked, StoppedByUser, TabNotShared
from browserx.relay.connection import ExtensionConnection
from browserx.relay.protocol import TabInfo
from browserx.site_rules import Controls, SiteRules

SECRET = "hunter2-Sup3rSecret"


class Extension:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.conn = ExtensionConnection(self.send)

    async def send(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)

    def say(self, **msg: Any) -> None:
        self.conn.feed(msgspec.json.encode(msg))

    def controls(self, **values: Any) -> None:
        base = {"stopped": False, "siteMode": "all", "blockedSites": [], "allowedSites": [], "tabSharing": False,
                "confirmSensitive": False, "sharedTabs": []}  # fmt: skip
        self.say(type="controls", **{**base, **values})

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("type") == kind]


def _named(tab_id: int) -> Any:
    return lambda element_id: ("textbox", "Password") if element_id == 13 else ("button", "Save")


def test_the_hello_carries_the_stop_across_a_host_restart() -> None:
    async def main() -> None:
        ext = Extension()
        ext.say(type="hello", version="1", controls={"stopped": True, "sharedTabs": [4]})
        person = PersonControls(ext.conn)
        assert person.stopped and person.shared(4)

        async def handler(p: Any) -> Any:
            raise AssertionError("a stopped agent runs nothing")

        with pytest.raises(StoppedByUser) as info:
            await person.guard("snapshot", WaitParams(tab=4), handler, _named)
        assert "Resume" in info.value.message and "paused" in info.value.message
        ext.controls(stopped=False)
        assert not person.stopped

    asyncio.run(main())


def test_stop_fails_a_running_request_at_once_and_every_new_one_until_resume() -> None:
    async def main() -> None:
        ext = Extension()
        person = PersonControls(ext.conn)
        cancelled = asyncio.Event()

        async def wait_long(p: Any) -> Any:
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                cancelled.set()
                raise
            return {}

        running = asyncio.create_task(person.guard("wait", WaitParams(tab=1, text="x"), wait_long, _named))
        await asyncio.sleep(MAX_DELAY_S + 0.05)  # long enough to show as working
        t0 = asyncio.get_running_loop().time()
        ext.controls(stopped=True)
        with pytest.raises(StoppedByUser):
            await running
        assert asyncio.get_running_loop().time() - t0 < 0.5 and cancelled.is_set()

        async def quick(p: Any) -> Any:
            return {"done": True}

        with pytest.raises(StoppedByUser):
            await person.guard("click", ClickParams(tab=1, id=3), quick, _named)
        ext.controls(stopped=False)
        assert await person.guard("click", ClickParams(tab=1, id=3), quick, _named) == {"done": True}
        await asyncio.sleep(MAX_DELAY_S + QUIET_S)
        states = [m["working"] for m in ext.of("agentState")]
        assert states[0] is True and states[-1] is False
        outcomes = [m["entry"]["outcome"] for m in ext.of("activity")]
        assert outcomes == ["stopped_by_user", "stopped_by_user", "ok"]

    asyncio.run(main())


def test_site_rules_refuse_before_the_tab_is_touched_config_and_page_united() -> None:
    async def main() -> None:
        ext = Extension()
        person = PersonControls(ext.conn, Controls(SiteRules("all", blocked=("*.bank.example",))))
        ext.controls(blockedSites=["mail.example.com"])
        tabs = [TabInfo(tabId=1, url="https://www.bank.example/acct"), TabInfo(tabId=2, url="https://mail.example.com/"),
                TabInfo(tabId=3, url="https://shop.example/")]  # fmt: skip

        async def list_tabs() -> list[TabInfo]:
            return tabs

        person.list_tabs = list_tabs
        for tab in (1, 2):
            with pytest.raises(SiteBlocked):
                await person.gate(tab)
        await person.gate(3)

        async def touched(p: Any) -> Any:
            raise AssertionError("the tab was touched")

        for url in ("https://bank.example/", "http:/\\www.bank.example/", "mail.example.com/inbox"):
            with pytest.raises(SiteBlocked):
                await person.guard("navigate", NavigateParams(tab=3, url=url), touched, _named)
            with pytest.raises(SiteBlocked):
                await person.guard("new_tab", NewTabParams(url=url), touched, _named)
        assert person.status()["effective"]["site_rules"]["blocked"] == ["*.bank.example", "mail.example.com"]
        assert [person.refused(t) for t in tabs] == ["blocked", "blocked", None]
        # only listed sites
        ext.controls(siteMode="listed", allowedSites=["shop.example"])
        await person.gate(3)
        tabs.append(TabInfo(tabId=4, url="https://other.example/"))
        with pytest.raises(SiteBlocked, match="not one of the sites"):
            await person.gate(4)

    asyncio.run(main())


def test_tab_sharing_lets_the_agent_use_only_shared_and_its_own_tabs() -> None:
    async def main() -> None:
        ext = Extension()
        person = PersonControls(ext.conn)
        await person.gate(7)  # sharing off: any tab
        ext.controls(tabSharing=True, sharedTabs=[5])
        await person.gate(5)
        with pytest.raises(TabNotShared):
            await person.gate(7)

        async def opens(p: Any) -> Any:
            return {"tab": 9}

        await person.guard("new_tab", NewTabParams(), opens, _named)
        await person.gate(9)  # the agent's own tab

    asyncio.run(main())


def test_activity_lines_say_what_was_done_never_a_value() -> None:
    named = _named(1)
    assert describe("click", {"id": 12}, named) == 'click [12] button "Save"'
    typed = describe("type", TypeParams(id=13, text=SECRET, submit=True).model_dump(), named)
    assert typed == 'type into [13] textbox "Password" and submit'
    lines = [
        describe("select", {"id": 12, "value": SECRET}, named),
        describe("key", {"key": "h"}, named),
        describe("key", {"key": "Shift+H"}, named),
        describe("wait", {"text": SECRET, "gone": SECRET}, named),
        describe("snapshot", {"query": SECRET, "filter": SECRET}, named),
        describe("navigate", {"url": f"https://a.example/reset?token={SECRET}"}, named),
        describe("new_tab", {"url": f"https://u:{SECRET}@a.example/"}, named),
    ]
    assert not [line for line in lines if "hunter2" in line or "Sup3r" in line]
    assert describe("key", {"key": "Ctrl+A"}, named) == "press Ctrl+A"
    assert describe("key", {"key": "Enter", "id": 12}, named) == 'press Enter in [12] button "Save"'
    assert describe("navigate", {"url": "https://a.example/x"}, named) == "navigate to https://a.example/x"
    assert describe("click", {"id": 99}, lambda _: None) == "click [99]"


def test_the_activity_sent_to_the_extension_has_no_typed_text() -> None:
    async def main() -> None:
        ext = Extension()
        person = PersonControls(ext.conn)

        async def typed(p: Any) -> Any:
            return {"success": True}

        await person.guard("type", TypeParams(tab=2, id=13, text=SECRET), typed, _named)
        await asyncio.sleep(MAX_DELAY_S + QUIET_S)
        (entry,) = [m["entry"] for m in ext.of("activity")]
        assert entry["tabId"] == 2 and entry["outcome"] == "ok"
        assert entry["text"] == 'type into [13] textbox "Password"'
        assert SECRET not in json.dumps(ext.sent)

    asyncio.run(main())


def test_the_popup_hears_of_quick_calls_after_them_not_beside_them() -> None:
    """Notices go in the host's quiet moments (control/person/popup_notices.py): none while a burst of
    quick calls runs, then one line each and no working/idle flicker; a long call shows as working
    while it runs."""

    async def main() -> None:
        ext = Extension()
        person = PersonControls(ext.conn)

        async def quick(p: Any) -> Any:
            await asyncio.sleep(0.005)
            return {"done": True}

        for element_id in range(1, 6):
            await person.guard("click", ClickParams(tab=1, id=element_id), quick, _named)
            assert ext.of("activity") == [] and ext.of("agentState") == []
        await asyncio.sleep(MAX_DELAY_S + QUIET_S)
        assert len(ext.of("activity")) == 5
        assert [m["working"] for m in ext.of("agentState")] == [False]

        async def slow(p: Any) -> Any:
            await asyncio.sleep(MAX_DELAY_S + 2 * QUIET_S)
            assert [m["working"] for m in ext.of("agentState")] == [False, True]
            return {"done": True}

        await person.guard("click", ClickParams(tab=1, id=9), slow, _named)
        await asyncio.sleep(MAX_DELAY_S + QUIET_S)
        assert [m["working"] for m in ext.of("agentState")] == [False, True, False]

    asyncio.run(main())
