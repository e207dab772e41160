"""What browserx refuses to do, whoever asks: URLs it will not open and pages it will not read.
Checked before the tab is touched."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import msgspec

from browserx import page_js
from browserx.errors import PAGE_CALL_ERRORS, BadRequest, PageOptedOut, UrlNotAllowed
from browserx.relay.cdp_types import (
    CreateIsolatedWorldResult,
    EvaluateResult,
    FrameTree,
    GetFrameTreeResult,
    decode_or_none,
)
from browserx.snapshot.capture import LATE_FRAME_WINDOW
from browserx.snapshot.worlds import WORLD_NAME
from browserx.tabs.tab import Tab

LATE_FRAME_SETTLE_S = 0.3

# The URL allowlist: anything else (every browser page under any name, about:version included,
# script and data URLs, external protocol handlers) is refused before it reaches Chrome. Some of
# those pages kill the whole browser when opened by CDP; a denylist always misses one alias.
WEB_SCHEMES = frozenset({"http", "https"})
# What the WHATWG URL parser (Chrome's) drops before parsing: tabs and newlines anywhere, C0
# controls and spaces at either end. "java\tscript:" is javascript: to Chrome, so it is to us.
_ANYWHERE = re.compile(r"[\t\n\r]")
_C0_OR_SPACE = "".join(chr(c) for c in range(0x21))
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_HOST_SLASHES = re.compile(r"^[/\\]*")  # http:/\\host and http:host are http://host to Chrome
# A bare host (and port) means the web site: "example.com", "localhost:8000".
_NOT_A_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:\d")

OPTED_OUT_JS = page_js.load("browserx.control", "policy_opted_out.js")


def allowed_url(url: str, allow_file_urls: bool) -> str:
    """The URL a navigation will send to Chrome (a bare host gets https://), or UrlNotAllowed:
    only http and https (with a host), exactly about:blank (a fragment allowed), and file:// when
    the user allowed it."""
    cleaned = _ANYWHERE.sub("", url).strip(_C0_OR_SPACE)
    if not cleaned:
        raise BadRequest("url must not be empty")
    match = _SCHEME.match(cleaned)
    if match is None or _NOT_A_SCHEME.match(cleaned):
        cleaned = "https://" + cleaned  # what navigate does with "example.com"
        match = _SCHEME.match(cleaned)
        assert match is not None
    scheme = match.group(1).lower()
    rest = cleaned[match.end() :]
    if scheme in WEB_SCHEMES:
        host = re.split(r"[/\\?#]", _HOST_SLASHES.sub("", rest), maxsplit=1)[0]
        if host.rpartition("@")[2].split(":", 1)[0]:
            return cleaned
        raise UrlNotAllowed("That web address has no host; give a full one (https://example.com/...).")
    if scheme == "about" and rest.split("#", 1)[0] == "blank":  # exactly: about:BLANK is not it
        return cleaned
    if scheme == "file":
        if allow_file_urls:
            return cleaned
        raise UrlNotAllowed(
            "file:// URLs are off: they would expose the computer's files. The user can allow them with "
            '"allow_file_urls": true in the browserx config file (see `browserx status`).'
        )
    raise UrlNotAllowed(
        f"browserx opens only web pages (http:// and https://) and about:blank; {scheme}: URLs are refused "
        "(browser pages, scripts, data and other apps' links can harm the browser or the computer). "
        "Ask the user to do this step themselves.",
        scheme=scheme,
    )


def check_url(url: str, allow_file_urls: bool) -> None:
    """Refuse a URL a tab must not be sent to (``allowed_url``), with an error that says why."""
    allowed_url(url, allow_file_urls)


async def refuse_opted_out(tab: Tab) -> None:
    """Raise PageOptedOut when the tab's page says ``data-no-ai`` (read in the main world's
    document, nothing else of it). Before any ID of the page is looked up."""
    # Read leniently: an answer of a shape Chrome never sends is no opt-out (and no error).
    reply = await tab.session.cdp(
        "Runtime.evaluate", {"expression": OPTED_OUT_JS, "returnByValue": True}, result_type=msgspec.Raw
    )
    if _says_opted_out(decode_or_none(reply, EvaluateResult)):
        raise PageOptedOut(
            "This page opted out of AI agents (data-no-ai); browserx will not read or act on it. "
            "Ask the user to do this step themselves."
        )


def _says_opted_out(reply: EvaluateResult | None) -> bool:
    """Whether an OPTED_OUT_JS evaluation answered yes (no answer, or any other value: no)."""
    return reply is not None and reply.result.value is True


async def refuse_opted_out_frames(tab: Tab) -> None:
    """For what shows every frame (a screenshot): refuse when any frame's document says
    ``data-no-ai`` — frames of the page's own process (through an isolated world of each) and
    out-of-process ones (their sessions), nested ones included. The main document is
    ``refuse_opted_out``'s."""
    await tab.session.ensure_attached()
    if time.monotonic() - tab.session.attached_at < LATE_FRAME_WINDOW:
        # Out-of-process frames announce themselves just after attaching.
        await asyncio.sleep(LATE_FRAME_SETTLE_S)
    sessions: list[str | None] = [
        None,
        *(sid for sid, t in tab.session.sessions.items() if t.type == "iframe"),
    ]
    for session_id in sessions:
        checks: list[dict[str, Any]] = []
        if session_id is not None:
            checks.append({"expression": OPTED_OUT_JS, "returnByValue": True})
        try:
            raw_tree = await tab.session.cdp(
                "Page.getFrameTree", session_id=session_id, result_type=msgspec.Raw
            )
        except PAGE_CALL_ERRORS:
            continue  # the frame went away
        # A tree of a shape Chrome never sends has no child frames to check; the session's own
        # document is checked all the same.
        tree = decode_or_none(raw_tree, GetFrameTreeResult)
        for frame_id in _child_frame_ids(tree.frameTree) if tree is not None else []:
            try:
                world = await tab.session.cdp(
                    "Page.createIsolatedWorld",
                    {"frameId": frame_id, "worldName": WORLD_NAME},
                    session_id=session_id,
                    result_type=CreateIsolatedWorldResult,
                )
            except PAGE_CALL_ERRORS:
                continue  # out of this process: its own session is checked
            context = world.executionContextId
            checks.append({"expression": OPTED_OUT_JS, "returnByValue": True, "contextId": context})
        for params in checks:
            try:
                reply = await tab.session.cdp(
                    "Runtime.evaluate", params, session_id=session_id, result_type=EvaluateResult
                )
            except PAGE_CALL_ERRORS:  # an answer of a shape Chrome never sends included: no opt-out
                continue
            if _says_opted_out(reply):
                raise PageOptedOut(
                    "A frame of this page opted out of AI agents (data-no-ai): a screenshot would show it, so "
                    "browserx takes none. Take a snapshot (it leaves that frame out), or ask the user."
                )


def _child_frame_ids(node: FrameTree) -> list[str]:
    """The ids of every frame below the root of a Page.getFrameTree node."""
    out: list[str] = []
    stack = list(node.childFrames)
    while stack:
        child = stack.pop()
        out.append(child.frame.id)
        stack.extend(child.childFrames)
    return out
