"""What browserx refuses to do, whoever asks: URLs it will not open and pages it will not read.
Checked before the tab is touched; what the page says is read by page/opt_out.py."""

from __future__ import annotations

from browserx.errors import PageOptedOut
from browserx.page.opt_out import a_frame_opted_out, page_opted_out
from browserx.tabs.tab import Tab
from browserx.url_policy import allowed_url

__all__ = ["allowed_url", "check_url", "refuse_opted_out", "refuse_opted_out_frames"]


def check_url(url: str, allow_file_urls: bool) -> None:
    """Refuse a URL a tab must not be sent to (``allowed_url``), with an error that says why."""
    allowed_url(url, allow_file_urls)


async def refuse_opted_out(tab: Tab) -> None:
    """Raise PageOptedOut when the tab's page says ``data-no-ai`` (page/opt_out.py reads it).
    Before any ID of the page is looked up."""
    if await page_opted_out(tab.session):
        raise PageOptedOut(
            "This page opted out of AI agents (data-no-ai); browserx will not read or act on it. "
            "Ask the user to do this step themselves."
        )


async def refuse_opted_out_frames(tab: Tab) -> None:
    """For what shows every frame (a screenshot): refuse when any frame's document says
    ``data-no-ai``. The main document is ``refuse_opted_out``'s."""
    if await a_frame_opted_out(tab.session):
        raise PageOptedOut(
            "A frame of this page opted out of AI agents (data-no-ai): a screenshot would show it, so "
            "browserx takes none. Take a snapshot (it leaves that frame out), or ask the user."
        )
