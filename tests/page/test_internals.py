"""ElementInternals roles (page/internals.py): what Chrome's accessibility tree says of a custom
element, read from Accessibility.getPartialAXTree replies recorded from Chromium 156 on the oracle
corpus's Material Web page (tests/e2e/apps/oracle/pages/material-web.html: the reply for
``md-primary-tab[active]``, ``md-radio[checked]`` and ``md-list-item``, fetchRelatives false)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from browserx.page.internals import apply_internal_roles, facts_of, internal_roles
from browserx.relay.cdp_types import PartialAXTreeResult
from browserx.snapshot.frames import RawFrame

RECORDED = json.loads((Path(__file__).parent / "ax_replies" / "material-web.json").read_text())


def facts(selector: str) -> dict[str, object]:
    reply = msgspec.convert(RECORDED[selector], PartialAXTreeResult)
    return facts_of(reply.nodes[0])


def test_a_tab_and_a_radio_take_chromes_role_and_states() -> None:
    assert facts("md-primary-tab[active]") == {"axRole": "tab", "selected": True}
    assert facts("md-radio[checked]") == {"axRole": "radio", "checked": True}


def test_an_element_chrome_leaves_out_is_role_none() -> None:
    assert facts("md-list-item") == {"axRole": "none"}


def test_the_facts_join_the_state_of_the_node_the_collector_named() -> None:
    raw = RawFrame(url="", title="", viewport=[0, 0], scroll=[0, 0], dpr=1, docSize=[0, 0], noAi=False,
                   box=[], flags=[], text={}, attrs={}, state={7: {"focused": True}}, suspects=0,
                   frameOwners=[], pruned=0, internals=[3, 7])  # fmt: skip
    apply_internal_roles(raw, {1: {"axRole": "tab", "selected": True}, 5: {"axRole": "radio"}})
    assert raw.state == {7: {"focused": True, "axRole": "tab", "selected": True}}


def test_chrome_is_asked_again_only_about_elements_whose_attributes_changed() -> None:
    """A page snapshotted again asks Chrome nothing while its custom elements' attributes stay as
    they were; a tab whose attribute changed (active moved) is asked about again, alone."""
    import asyncio

    from tests.fakes import fake_tab

    asked: list[str] = []

    def answer(method: str, params: dict[str, Any], session_id: str | None) -> Any:
        if method == "Runtime.callFunctionOn":  # the registry's list of elements with internals
            return {"result": {"type": "object", "objectId": "array"}}
        if method == "Runtime.getProperties":
            return {
                "result": [
                    {"name": str(i), "value": {"type": "object", "objectId": f"el{i}"}} for i in range(2)
                ]
            }
        if method == "Accessibility.getPartialAXTree":
            asked.append(params["objectId"])
            return RECORDED["md-primary-tab[active]"]
        return {}

    tab, _ = fake_tab(answer)

    def raw(sigs: list[str]) -> RawFrame:
        return RawFrame(url="", title="", viewport=[0, 0], scroll=[0, 0], dpr=1, docSize=[0, 0], noAi=False,
                        key=[0, 11, 12], box=[], flags=[], text={}, attrs={}, state={}, suspects=0, frameOwners=[],
                        pruned=0, internals=[1, 2], internalsSig=sigs)  # fmt: skip

    async def run() -> None:
        first = await internal_roles(tab.capture, None, 5, raw(["active=", "x="]))
        assert first == {0: {"axRole": "tab", "selected": True}, 1: {"axRole": "tab", "selected": True}}
        assert asked == ["el0", "el1"]
        again = await internal_roles(tab.capture, None, 5, raw(["active=", "x="]))
        assert again == first and asked == ["el0", "el1"]  # nothing asked
        await internal_roles(tab.capture, None, 5, raw(["", "x=;active="]))
        assert asked == ["el0", "el1", "el0", "el1"]  # no signature: asked; changed: asked

    asyncio.run(run())
