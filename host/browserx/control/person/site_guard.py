"""The person's site rules in the browser's network layer, the host's side.

A prediction is not a guard: a link's ``href`` can change as it is pressed, a same-site URL can
answer 302 to another site, a handler can set ``location``. So a call that may change a tab is
*guarded* before anything of it reaches the page: the extension (extension/site_guard.js) puts
``declarativeNetRequest`` session rules in force that refuse every request from that tab, and
from any tab it opens meanwhile, to a site the person's rules keep browserx off, and answers
once they are. The guard is lifted when the call ends; the rules go a moment later (its effects
settle), so the person's own browsing is never refused.

When the browser refuses a page this way (or the person goes to a blocked site), the extension
lets the tab go and says so (a ``siteBlocked`` notice); the call running in that tab then ends
with ``site_blocked`` (control/person/controls.py).
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import structlog

from browserx.errors import BrowserxError, SiteBlocked, clip
from browserx.relay.connection import ExtensionConnection
from browserx.relay.protocol import decode_raw
from browserx.site_rules import SiteRules

log = structlog.get_logger("browserx.site_guard")

ARM_TIMEOUT_S = 5.0

UNGREETED = (
    "The person's site rules are on, and the browserx extension has not said hello yet, so it "
    "cannot hold them in the browser. Nothing was done; try again in a moment."
)


class Held(msgspec.Struct):
    """The worker's answer to a guard: how many rules it holds."""

    guarded: bool = False
    rules: int = 0


class SiteGuard:
    """Guards tabs in the extension for the calls that run in them."""

    def __init__(self, conn: ExtensionConnection | None) -> None:
        self.conn = conn
        self._background: set[asyncio.Task[Any]] = set()

    async def arm(self, tab_id: int, rules: SiteRules) -> None:
        """Put ``rules`` (the config file's and the options page's, merged; the worker unites them
        with the options page's as they are then) in force for ``tab_id``; returns once the browser
        holds them. A worker that says it holds none fails the call: it never runs unguarded."""
        conn = self.conn
        if conn is None:
            return
        if conn.hello is None:  # (a worker of another version is refused before: api.check_versions)
            raise SiteBlocked(UNGREETED, tab=tab_id)
        reply = await conn.request(
            "siteGuard", timeout=ARM_TIMEOUT_S, tabId=tab_id, on=True, rules=rules.to_dict()
        )
        held = decode_raw(reply.result, Held)
        if held.rules < 1:
            raise SiteBlocked(
                "The person's site rules are on, and the browserx extension holds none of them in the "
                "browser; nothing was done. Ask the person to reload the extension (chrome://extensions).",
                tab=tab_id,
            )

    def lift(self, tab_id: int) -> None:
        """The call in ``tab_id`` ended (not waited for: nobody's answer depends on it)."""
        if self.conn is None or self.conn.closed:
            return
        task = asyncio.ensure_future(self._lift(tab_id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _lift(self, tab_id: int) -> None:
        assert self.conn is not None
        try:
            await self.conn.request("siteGuard", timeout=ARM_TIMEOUT_S, tabId=tab_id, on=False)
        except BrowserxError as exc:  # the worker lifts it by itself in time (GUARD_MAX_MS)
            log.debug("site_guard_lift_failed", tab=tab_id, error=clip(exc.message, 200))
