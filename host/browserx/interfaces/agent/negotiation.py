"""Negotiation (docs/DESIGN.md, "The backend loop"): an answer with ``status: "needs_context"`` (or the legacy
``needs_full_dom``) is retried as the same call, same ``taskId``, plus only what it asked for
(``needs_of``): when the answer has either flag (``needsScreenshot``, ``needsSkeletonDom``), the
flags alone say what is sent — an absent one is false; only when it has neither is
``requestedDomMode`` read (hybrid → screenshot + skeleton, skeleton → skeleton). The contract has
no flag for the full DOM: ``dom`` is sent for ``requestedDomMode: "full"`` or the legacy
``needs_full_dom``, whatever the flags say. The artifacts (``gather_artifacts``): ``screenshot`` +
``screenshotHash`` (JPEG ≤ 1024 px wide, quality 70; ``null`` when the hash equals the last one
sent), ``skeletonDom``, ``dom``; the loop (interfaces/agent/loop.py) retries at most
``MAX_NEGOTIATION_ROUNDS`` times a step."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from browserx.errors import ActionError, BadRequest, CdpError, PageOptedOut, clip
from browserx.interfaces.agent.backend import InteractData

if TYPE_CHECKING:
    from browserx.control.client import Client

MAX_NEGOTIATION_ROUNDS = 2
SCREENSHOT_WIDTH, SCREENSHOT_QUALITY = 1024, 70  # JPEG, as the contract asks
HTML_MAX_CHARS = {"skeleton": 100_000, "full": 200_000}  # the contract's caps
# An artifact the host cannot give (no such tool yet, an opted-out page, a CDP refusal) is left out.
ARTIFACT_FAILURES = (BadRequest, PageOptedOut, CdpError, ActionError)

Log = Callable[[str], None]


@dataclass(frozen=True)
class Needs:
    screenshot: bool = False
    skeleton: bool = False
    full_dom: bool = False

    def names(self) -> list[str]:
        return [n for n, on in (("screenshot", self.screenshot), ("skeletonDom", self.skeleton),
                                ("dom", self.full_dom)) if on]  # fmt: skip


def needs_of(data: InteractData) -> Needs:
    """What a needs_context answer asks for. Its flags win when it has either of them
    (``needsScreenshot``, ``needsSkeletonDom``; an absent one is then false); only when it has
    neither is ``requestedDomMode`` read: hybrid → screenshot + skeleton, skeleton → skeleton.
    The full DOM has no flag in the contract: ``requestedDomMode: "full"`` or the legacy
    ``needs_full_dom`` asks for it either way."""
    if data.needsScreenshot is not None or data.needsSkeletonDom is not None:
        screenshot, skeleton = bool(data.needsScreenshot), bool(data.needsSkeletonDom)
    else:
        mode = data.requestedDomMode
        screenshot, skeleton = mode == "hybrid", mode in ("hybrid", "skeleton")
    return Needs(screenshot=screenshot, skeleton=skeleton, full_dom=data.wants_full_dom)


def gather_artifacts(
    client: Client, tab: int, needs: Needs, last_hash: str | None, log: Log
) -> tuple[dict[str, Any], str | None]:
    """The requested artifacts as request fields, and the hash of the screenshot now sent. One the
    host cannot give is left out, with a note in the log."""
    out: dict[str, Any] = {}
    if needs.screenshot:
        try:
            shot = client.screenshot(
                tab=tab, format="jpeg", quality=SCREENSHOT_QUALITY, max_width=SCREENSHOT_WIDTH
            )
        except ARTIFACT_FAILURES as exc:
            log(f"  screenshot left out: {exc.code}: {clip(exc.message, 200)}")
        else:
            phash = shot.get("phash")
            out["screenshot"] = None if phash and phash == last_hash else shot["data"]
            if phash:
                out["screenshotHash"] = str(phash)
                last_hash = str(phash)
    for wanted, mode, key in ((needs.skeleton, "skeleton", "skeletonDom"), (needs.full_dom, "full", "dom")):
        html = page_html(client, tab, mode, HTML_MAX_CHARS[mode], key, log) if wanted else None
        if html is not None:
            out[key] = html
    return out, last_hash


def page_html(client: Client, tab: int, mode: str, max_chars: int, key: str, log: Log) -> str | None:
    """The html tool's answer in ``mode``, or None (said in the log as ``key`` left out)."""
    try:
        html = client.call("html", tab=tab, mode=mode, max_chars=max_chars)
    except ARTIFACT_FAILURES as exc:
        log(f"  {key} left out: {exc.code}: {clip(exc.message, 200)}")
        return None
    if isinstance(html, Mapping) and isinstance(html.get("html"), str):
        return str(html["html"])
    log(f"  {key} left out: the html tool answered without an html string")
    return None


# A view that lists no element (a page drawn on a canvas, an article without controls, one still
# loading) tells the backend nothing: the request then shows the page as the skeleton HTML and a
# picture (domMode "hybrid"; "skeleton" or "semantic" for what the host could give). The skeleton
# holds only controls and the context around them, so on a page with nothing to act on it is
# empty: then the page's HTML whole (the html tool's full mode, cut at the skeleton's cap) stands
# in for it, so that the page's text reaches the backend as text, not only as pixels. The `dom`
# field stays for a backend that asks for it.
EMPTY_TREE_NEEDS = Needs(screenshot=True, skeleton=True)


def empty_tree_fallback(
    client: Client, tab: int, body: dict[str, Any], last_hash: str | None, log: Log, prefix: str = ""
) -> str | None:
    """When ``body``'s interactiveTree is empty, add the skeleton (the whole page's HTML when the
    skeleton is empty) and the screenshot to it and say so in ``domMode`` (and in the log, after
    ``prefix``); the hash of the screenshot now sent."""
    if body.get("interactiveTree"):
        return last_hash
    artifacts, last_hash = gather_artifacts(client, tab, EMPTY_TREE_NEEDS, last_hash, log)
    whole = ""
    if "skeletonDom" in artifacts and not artifacts["skeletonDom"].strip():
        page = page_html(client, tab, "full", HTML_MAX_CHARS["skeleton"], "skeletonDom", log)
        if page is not None and page.strip():
            artifacts["skeletonDom"], whole = page, " (the page's HTML: nothing on it to act on)"
    body.update(artifacts)
    shot, skeleton = "screenshot" in artifacts, "skeletonDom" in artifacts
    body["domMode"] = "hybrid" if shot else "skeleton" if skeleton else "semantic"
    sent = [f"skeletonDom{whole}"] * skeleton + ["screenshot"] * shot
    log(f"{prefix}the page lists no element: sending {', '.join(sent) or 'nothing more'} instead "
        f"(domMode {body['domMode']})")  # fmt: skip
    return last_hash


__all__ = [
    "EMPTY_TREE_NEEDS",
    "MAX_NEGOTIATION_ROUNDS",
    "Log",
    "Needs",
    "empty_tree_fallback",
    "gather_artifacts",
    "needs_of",
    "page_html",
]
