"""What browserx refuses to do, whoever asks: URLs it will not open and pages it will not read.
Checked before the tab is touched."""

from __future__ import annotations

from browserx.errors import BadRequest, PageOptedOut
from browserx.service import DomService

# Browser-internal pages: nothing an agent should drive, and chrome.debugger cannot attach there.
INTERNAL_SCHEMES = (
    "chrome:", "chrome-untrusted:", "chrome-search:", "chrome-extension:", "edge:", "brave:", "opera:",
    "vivaldi:", "devtools:", "view-source:",
)  # fmt: skip

OPTED_OUT_JS = (
    "(() => { const d = document; return !!(d.documentElement && d.documentElement.hasAttribute('data-no-ai')"
    " || d.body && d.body.hasAttribute('data-no-ai')); })()"
)


def check_url(url: str, allow_file_urls: bool) -> None:
    """Refuse a URL ``navigate`` must not open, with an error that says why."""
    lower = url.strip().lower()
    if lower.startswith("javascript:"):
        raise BadRequest("javascript: URLs are not navigations; use an action on the page instead.")
    if lower.startswith("data:"):
        raise BadRequest("data: URLs cannot be opened as a page (they can smuggle in any content).")
    if lower.startswith(INTERNAL_SCHEMES):
        raise BadRequest(
            f"{url.split(':', 1)[0]}: pages are the browser's own (settings, extensions, devtools); browserx "
            "does not open them. Ask the user to do this step themselves."
        )
    if lower.startswith("file:") and not allow_file_urls:
        raise BadRequest(
            "file:// URLs are off: they would expose the computer's files. The user can allow them with "
            '"allow_file_urls": true in the browserx config file (see `browserx status`).'
        )


async def refuse_opted_out(service: DomService) -> None:
    """Raise PageOptedOut when the tab's page says ``data-no-ai`` (read in the main world's
    document, nothing else of it). Before any ID of the page is looked up."""
    reply = await service.cdp("Runtime.evaluate", {"expression": OPTED_OUT_JS, "returnByValue": True})
    result = reply.get("result")
    if isinstance(result, dict) and result.get("value") is True:
        raise PageOptedOut(
            "This page opted out of AI agents (data-no-ai); browserx will not read or act on it. "
            "Ask the user to do this step themselves."
        )
