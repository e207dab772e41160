"""The downloads a tab's pages started, as Chrome tells the tab's debugger (Page.downloadWillBegin,
Page.downloadProgress): the file's name, its address, its size and how it ended. An action's
result lists those it started (``since``); the ``downloads`` tool lists the tab's recent ones.

browserx never says where a file goes: Chrome saves it where the person's settings say (and asks
them, if they chose that), so no agent can write outside their download folder. The page's
address is shown as every address is (secrets masked); nothing of the file's content."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from browserx.errors import CdpError
from browserx.relay.cdp_types import DownloadProgress, DownloadWillBegin
from browserx.relay.protocol import Inbound, decode_raw
from browserx.snapshot.redaction import redact_url

WILL_BEGIN = "Page.downloadWillBegin"
PROGRESS = "Page.downloadProgress"
MAX_KEPT = 20  # a tab's recent downloads
STATES = {"inProgress": "in_progress", "completed": "completed", "canceled": "canceled"}


@dataclass
class Download:
    seq: int  # the order downloads began in (``since``)
    guid: str
    name: str
    url: str
    state: str = "in_progress"
    size: int | None = None  # bytes: the total once known
    received: int = 0

    def facts(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "url": redact_url(self.url), "state": self.state}
        if self.size:
            out["size"] = self.size
        if self.state == "in_progress":
            out["received"] = self.received
        return out


class DownloadLog:
    """One tab's recent downloads, fed by its session's events."""

    def __init__(self) -> None:
        self._downloads: dict[str, Download] = {}
        self._seq = itertools.count(1)
        self.last_seq = 0

    def on_event(self, msg: Inbound) -> None:
        if msg.method not in (WILL_BEGIN, PROGRESS):
            return
        try:
            if msg.method == WILL_BEGIN:
                began = decode_raw(msg.params, DownloadWillBegin)
                self.last_seq = next(self._seq)
                self._downloads[began.guid] = Download(
                    self.last_seq, began.guid, began.suggestedFilename, began.url
                )
                while len(self._downloads) > MAX_KEPT:
                    del self._downloads[next(iter(self._downloads))]
                return
            progress = decode_raw(msg.params, DownloadProgress)
        except CdpError:
            return  # a shape Chrome never sends
        download = self._downloads.get(progress.guid)
        if download is not None:
            download.state = STATES.get(progress.state, download.state)
            download.size = int(progress.totalBytes) or download.size
            download.received = int(progress.receivedBytes)

    def since(self, seq: int) -> list[dict[str, Any]]:
        """The downloads that began after ``seq`` (a ``last_seq`` read earlier), oldest first."""
        return [d.facts() for d in self._downloads.values() if d.seq > seq]

    def recent(self) -> list[dict[str, Any]]:
        """The tab's recent downloads, newest first."""
        return [d.facts() for d in reversed(self._downloads.values())]


__all__ = ["Download", "DownloadLog"]
