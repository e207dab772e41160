"""ElementInternals roles (snapshot/internals.py): what Chrome's accessibility tree says of a custom
element, read from Accessibility.getPartialAXTree replies recorded from Chromium 156 on the oracle
corpus's Material Web page (tests/e2e/apps/oracle/pages/material-web.html: the reply for
``md-primary-tab[active]``, ``md-radio[checked]`` and ``md-list-item``, fetchRelatives false)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec

from browserx.relay.cdp_types import PartialAXTreeResult
from browserx.snapshot.frames import RawFrame
from browserx.snapshot.internals import apply_internal_roles, facts_of

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
