"""The host's side of the site guard (control/person/site_guard.py, control/person/controls.py):
with site rules in force (the config file's too), every call that touches a tab has the extension
hold them in the network layer before its work starts, and lifts them after, however it ends; calls
without rules ask nothing; an extension that cannot hold them, fails to, or says it holds none stops
the call before anything reaches the page; a page the browser refused during a call ends that call
with ``site_blocked`` at once."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tests.control.person.test_controls import Extension, _named

from browserx.control.person.controls import PersonControls
from browserx.control.schemas import ClickParams, SnapshotParams
from browserx.errors import NavigationFailed, SiteBlocked
from browserx.relay.protocol import TabInfo
from browserx.site_rules import Controls, SiteRules


class GuardingExtension(Extension):
    """Says hello (unless not ``greets``) and answers each ``siteGuard`` (or fails it: ``refuse``)."""

    def __init__(self, greets: bool = True, refuse: str = "", held: int = 1) -> None:
        super().__init__()
        self.refuse = refuse
        self.held = held
        self.log: list[str] = []  # "guard 3" / "lift 3" / what the call did, in order
        if greets:
            self.say(type="hello", version="1", controls={"blockedSites": ["bank.example"]})

    async def send(self, msg: dict[str, Any]) -> None:
        await super().send(msg)
        if msg.get("type") == "siteGuard":
            self.log.append(f"{'guard' if msg['on'] else 'lift'} {msg['tabId']}")
            held = {"guarded": msg["on"], "rules": self.held}
            answer = {"error": self.refuse} if self.refuse else {"result": held}
            asyncio.get_running_loop().call_soon(lambda: self.say(id=msg["id"], **answer))


def _person(
    ext: Extension, url: str = "https://shop.example/", config: Controls | None = None
) -> PersonControls:
    person = PersonControls(ext.conn, config)

    async def list_tabs() -> list[TabInfo]:
        return [TabInfo(tabId=3, url=url)]

    person.list_tabs = list_tabs
    return person


def test_a_call_that_touches_a_tab_is_guarded_before_its_work_and_lifted_after() -> None:
    async def main() -> None:
        ext = GuardingExtension()
        person = _person(ext)

        async def click(p: Any) -> Any:
            await person.gate(3)
            ext.log.append("click")
            return {"success": True}

        await person.guard("click", ClickParams(tab=3, id=1), click, _named)
        await asyncio.sleep(0.01)
        assert ext.log == ["guard 3", "click", "lift 3"]
        (sent,) = [m for m in ext.of("siteGuard") if m["on"]]
        assert sent["rules"] == {"mode": "all", "blocked": ["bank.example"], "allowed": []}
        # reading a page runs its code too (a snapshot scrolls): guarded as well
        ext.log.clear()

        async def look(p: Any) -> Any:
            await person.gate(3)
            return {}

        await person.guard("snapshot", SnapshotParams(tab=3), look, _named)
        await asyncio.sleep(0.01)
        assert ext.log == ["guard 3", "lift 3"]
        ext.log.clear()
        # no rule in force: nothing asked either
        ext.controls(blockedSites=[])
        await person.guard("click", ClickParams(tab=3, id=1), click, _named)
        assert ext.log == ["click"]

    asyncio.run(main())


def test_the_config_files_rules_are_held_too_and_a_guard_that_holds_none_stops_the_call() -> None:
    async def main() -> None:
        ext = GuardingExtension()
        person = _person(ext, config=Controls(SiteRules("listed", allowed=("shop.example",))))
        ext.controls(blockedSites=[])  # nothing on the options page

        async def click(p: Any) -> Any:
            await person.gate(3)
            return {"success": True}

        await person.guard("click", ClickParams(tab=3, id=1), click, _named)
        (sent,) = [m for m in ext.of("siteGuard") if m["on"]]
        assert sent["rules"] == {"mode": "listed", "blocked": [], "allowed": ["shop.example"]}
        ext.held = 0  # a worker that says it holds nothing

        async def never(p: Any) -> Any:
            await person.gate(3)
            raise AssertionError("the call ran unguarded")

        with pytest.raises(SiteBlocked, match="holds none"):
            await person.guard("click", ClickParams(tab=3, id=1), never, _named)
        await asyncio.sleep(0.01)
        assert ext.log[-1] == "lift 3"  # a guard that failed is lifted too

    asyncio.run(main())


@pytest.mark.parametrize(
    ("greets", "refuse", "says"),
    [
        (False, "", "not said hello"),
        (True, "Rule with id 1 specifies an invalid regexFilter", "regexFilter"),
    ],
)
def test_a_call_the_extension_cannot_guard_never_runs(greets: bool, refuse: str, says: str) -> None:
    async def main() -> None:
        ext = GuardingExtension(greets, refuse)
        person = _person(ext, config=Controls(SiteRules("listed", allowed=("shop.example",))))

        async def click(p: Any) -> Any:
            await person.gate(3)
            raise AssertionError("the call ran unguarded")

        with pytest.raises(Exception, match=says) as info:
            await person.guard("click", ClickParams(tab=3, id=1), click, _named)
        assert not isinstance(info.value, AssertionError)

    asyncio.run(main())


def test_a_page_the_browser_refused_ends_the_call_at_once_with_site_blocked() -> None:
    async def main() -> None:
        ext = GuardingExtension()
        person = _person(ext)
        cancelled = asyncio.Event()

        async def click(p: Any) -> Any:
            await person.gate(3)
            try:
                await asyncio.sleep(30)  # (waiting on a page that will never come)
            except asyncio.CancelledError:
                cancelled.set()
                raise

        call = asyncio.ensure_future(person.guard("click", ClickParams(tab=3, id=1), click, _named))
        await asyncio.sleep(0.05)
        ext.say(type="siteBlocked", tabId=3, url="https://bank.example/transfer?to=me")
        with pytest.raises(SiteBlocked) as info:
            await asyncio.wait_for(call, 1.0)
        assert (
            cancelled.is_set()
            and "bank.example" in info.value.message
            and "transfer" not in info.value.message
        )
        # a notice for another tab ends nothing
        ext.log.clear()

        async def quick(p: Any) -> Any:
            await person.gate(3)
            ext.say(type="siteBlocked", tabId=9, url="https://bank.example/")
            return {"success": True}

        assert (await person.guard("click", ClickParams(tab=3, id=1), quick, _named))["success"]

    asyncio.run(main())


def test_a_call_whose_page_is_refused_after_it_answers_says_so() -> None:
    """The notice may come after the action's own answer: the answer (a navigation to the refused
    page) or the tab's URL, read again, says site_blocked."""

    async def main() -> None:
        ext = GuardingExtension()
        person = _person(ext, url="https://bank.example/error")

        async def click(p: Any) -> Any:
            await person.gate(3)
            return {"success": True, "changes": {"navigated": True, "new_url": "https://bank.example/"}}

        with pytest.raises(SiteBlocked):
            await person.guard("click", ClickParams(tab=3, id=1), click, _named)

        async def failed(p: Any) -> Any:
            await person.gate(3)
            raise NavigationFailed("net::ERR_BLOCKED_BY_CLIENT")

        with pytest.raises(SiteBlocked):
            await person.guard("click", ClickParams(tab=3, id=1), failed, _named)

    asyncio.run(main())
