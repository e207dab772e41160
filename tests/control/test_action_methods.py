"""When an action may skip the separate page opt-out check (pure: no browser). The promise itself
(an opted-out page refuses every tool) is tests/e2e/test_safety.py's."""

from __future__ import annotations

from tests.fakes import fake_tab

from browserx.control.action_methods import refused_by_lookup
from browserx.control.schemas import (
    CheckParams,
    ClickParams,
    HoverParams,
    KeyParams,
    ScrollParams,
    SelectParams,
    TypeParams,
    WaitParams,
)
from browserx.expectations import Expect
from browserx.snapshot.model import NodeRef


def test_only_an_element_of_the_top_document_with_nothing_read_first_skips_the_page_check() -> None:
    tab, _ = fake_tab()
    tab.ids.ref_of[7] = NodeRef("m", 1001)  # the top document: resolve.js checks its html and body
    tab.ids.ref_of[8] = NodeRef("f1", 1002)  # a frame's: its lookup cannot see the top document
    for params in (ClickParams(id=7), HoverParams(id=7), TypeParams(id=7, text="x"),
                   SelectParams(id=7, value="x"), CheckParams(id=7), KeyParams(key="Enter", id=7)):  # fmt: skip
        assert refused_by_lookup(tab, params)
    # Scroll's observation starts before its lookup, and with to_id it acts on another element than
    # ``id`` (one that may be in a frame that cannot see the top document).
    assert not refused_by_lookup(tab, ScrollParams(id=7))
    assert not refused_by_lookup(tab, ScrollParams(id=7, to_id=8))
    assert not refused_by_lookup(tab, ClickParams(id=8))
    assert not refused_by_lookup(tab, ClickParams(id=9))  # never issued: refused as a page first
    # An expectation reads the page before the element is looked up.
    assert not refused_by_lookup(tab, ClickParams(id=7, expect=Expect.model_validate({"url_contains": "/x"})))
    # No element: keys go to the focus, the page scrolls, text is waited for.
    assert not refused_by_lookup(tab, KeyParams(key="Enter"))
    assert not refused_by_lookup(tab, ScrollParams(to_id=7))
    assert not refused_by_lookup(tab, WaitParams(text="Saved"))
