"""Negotiation (interfaces/agent/negotiation.py): what a ``needs_context`` answer asks for, and the
artifacts sent for it (a screenshot unchanged since the last is ``null`` with its hash; what the
host cannot give is left out, with a note in the log)."""

from __future__ import annotations

from typing import Any

from browserx.errors import PageOptedOut
from browserx.interfaces.agent.backend import parse_response
from browserx.interfaces.agent.negotiation import Needs, gather_artifacts, needs_of
from tests.builders import AGENT_OBS
from tests.fakes import FakeAgentClient


def test_needs_of() -> None:
    def ask(**data: Any) -> Needs:
        return needs_of(parse_response({"data": {"status": "needs_context", **data}}))

    assert ask(needsScreenshot=True, needsSkeletonDom=True).names() == ["screenshot", "skeletonDom"]
    assert ask(needsScreenshot=True).names() == ["screenshot"]
    # No flag: requestedDomMode says it.
    assert ask(requestedDomMode="hybrid").names() == ["screenshot", "skeletonDom"]
    assert ask(requestedDomMode="skeleton").names() == ["skeletonDom"]
    assert ask(requestedDomMode="full").names() == ["dom"]
    # Either flag given: the flags alone say what is sent (an absent one is false), hybrid or not.
    assert ask(requestedDomMode="hybrid", needsSkeletonDom=True).names() == ["skeletonDom"]
    assert ask(requestedDomMode="hybrid", needsScreenshot=False, needsSkeletonDom=True).names() == [
        "skeletonDom"
    ]
    assert ask(requestedDomMode="hybrid", needsScreenshot=True).names() == ["screenshot"]
    assert ask(requestedDomMode="hybrid", needsScreenshot=False).names() == []
    assert ask(requestedDomMode="skeleton", needsScreenshot=True).names() == ["screenshot"]
    # The full DOM has no flag in the contract: requestedDomMode "full" asks for it whatever the flags say.
    assert ask(requestedDomMode="full", needsSkeletonDom=True).names() == ["skeletonDom", "dom"]
    assert ask(requestedDomMode="full", needsScreenshot=False, needsSkeletonDom=False).names() == ["dom"]
    legacy = needs_of(parse_response({"data": {"status": "needs_full_dom"}}))
    assert legacy.names() == ["dom"]
    assert ask(reason="?").names() == []


def test_gather_artifacts_sends_what_was_asked() -> None:
    host = FakeAgentClient()
    lines: list[str] = []
    everything = Needs(screenshot=True, skeleton=True, full_dom=True)
    out, shot_hash = gather_artifacts(host, AGENT_OBS.tab, everything, None, lines.append)  # type: ignore[arg-type]
    assert out == {"screenshot": "/9j/4AAQ", "screenshotHash": "c3c3c3c3c3c3c3c3", "skeletonDom": "<skeleton/>",
                   "dom": "<full/>"}  # fmt: skip
    assert shot_hash == "c3c3c3c3c3c3c3c3" and lines == []
    assert (
        "screenshot",
        {"tab": AGENT_OBS.tab, "format": "jpeg", "quality": 70, "max_width": 1024},
    ) in host.calls
    assert ("html", {"tab": AGENT_OBS.tab, "mode": "full", "max_chars": 200_000}) in host.calls
    # The same picture again: null, with its hash.
    again, _ = gather_artifacts(host, AGENT_OBS.tab, Needs(screenshot=True), shot_hash, lines.append)  # type: ignore[arg-type]
    assert again == {"screenshot": None, "screenshotHash": "c3c3c3c3c3c3c3c3"}


def test_what_the_host_cannot_give_is_left_out_with_a_note() -> None:
    class OptedOut(FakeAgentClient):
        def call(self, method: str, **params: Any) -> dict[str, Any]:
            if method == "html":
                raise PageOptedOut("This page opted out of AI agents.")
            return super().call(method, **params)

    lines: list[str] = []
    out, shot_hash = gather_artifacts(OptedOut(), 1, Needs(skeleton=True), "ff", lines.append)  # type: ignore[arg-type]
    assert out == {} and shot_hash == "ff"
    assert len(lines) == 1 and lines[0].startswith("  skeletonDom left out: ")
