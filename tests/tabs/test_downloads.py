"""tabs/downloads.py: a tab's downloads from its debugger's events."""

from __future__ import annotations

from typing import Any

import msgspec

from browserx.relay.protocol import Inbound
from browserx.tabs.downloads import MAX_KEPT, DownloadLog


def _event(method: str, **params: Any) -> Inbound:
    return Inbound(type="event", method=method, params=msgspec.Raw(msgspec.json.encode(params)))


def test_downloads_are_followed_to_their_end_and_listed_newest_first() -> None:
    log = DownloadLog()
    before = log.last_seq
    log.on_event(
        _event(
            "Page.downloadWillBegin",
            guid="a",
            url="https://x.example/r?token=s3cr3t",
            suggestedFilename="r.pdf",
        )
    )
    log.on_event(
        _event("Page.downloadProgress", guid="a", totalBytes=10, receivedBytes=4, state="inProgress")
    )
    assert log.since(before) == [
        {
            "name": "r.pdf",
            "url": log.since(before)[0]["url"],
            "state": "in_progress",
            "size": 10,
            "received": 4,
        }
    ]
    assert "s3cr3t" not in log.since(before)[0]["url"]  # addresses are shown as every address is
    middle = log.last_seq
    log.on_event(
        _event("Page.downloadWillBegin", guid="b", url="https://x.example/b.csv", suggestedFilename="b.csv")
    )
    log.on_event(
        _event("Page.downloadProgress", guid="a", totalBytes=10, receivedBytes=10, state="completed")
    )
    log.on_event(_event("Page.downloadProgress", guid="b", state="canceled"))
    log.on_event(_event("Page.downloadProgress", guid="unknown", state="completed"))  # never began here
    log.on_event(_event("Page.downloadProgress"))  # a shape Chrome never sends
    assert [(d["name"], d["state"]) for d in log.since(middle)] == [("b.csv", "canceled")]
    assert [(d["name"], d["state"]) for d in log.recent()] == [("b.csv", "canceled"), ("r.pdf", "completed")]


def test_a_page_that_downloads_without_end_is_remembered_in_bounds() -> None:
    log = DownloadLog()
    for n in range(MAX_KEPT * 3):
        log.on_event(
            _event(
                "Page.downloadWillBegin", guid=str(n), url="https://x.example/", suggestedFilename=f"{n}.bin"
            )
        )
    assert len(log.recent()) == MAX_KEPT and log.recent()[0]["name"] == f"{MAX_KEPT * 3 - 1}.bin"
