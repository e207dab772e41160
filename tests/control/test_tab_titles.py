"""The ``tabs`` tool's entries (control/tab_titles.py): a tab's id is ``tab``, and a tab the agent
may not use says why and shows nothing of its page."""

from __future__ import annotations

from browserx.control.tab_titles import tab_listing
from browserx.relay.protocol import TabInfo


def test_a_tabs_entry_names_its_id_tab_as_every_other_result_does() -> None:
    info = TabInfo(tabId=7, windowId=3, url="https://a.example/?token=abc", title="A", active=True)
    assert tab_listing(info, None) == {
        "tab": 7, "windowId": 3, "url": "https://a.example/?token=abc", "title": "A", "active": True
    }  # fmt: skip
    refused = tab_listing(info, "blocked")
    assert refused["tab"] == 7 and "tabId" not in refused
    assert refused["why"] == "site_blocked" and refused["url"] == "https://a.example/"
    unshared = tab_listing(info, "not_shared")
    assert unshared["why"] == "tab_not_shared" and unshared["url"] == "" and "A" not in unshared["title"]
    # a new tab has no title yet: the key is there all the same (scripts/demo.py reads it)
    assert tab_listing(TabInfo(tabId=8), None) == {"tab": 8, "url": "", "title": ""}
