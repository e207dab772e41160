"""browserx through its control socket, as an agent calls it: ``Client.snapshot`` (text view, with
stats), timed client-side. Also the page loading the bench does through the raw ``cdp`` method, the
views besides the default one, and where a snapshot's time went (``time_split``, from the host's
stats; corpus.py reads it too)."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import time
from typing import Any

from harness import short_error

from adapters import CALL_TIMEOUT_S, Sample
from browserx import BrowserxError, Client
from browserx.views.text import parse_controls


def time_split(stats: dict[str, Any], ms: float) -> dict[str, float]:
    """Where a snapshot's ``ms`` (client-side) went, from the host's stats: capture (page → host),
    build (host CPU), view (render, budget) and stability (the DOM-quiet wait first) when the host
    times them apart (older hosts did not), and the rest (socket, relay, token count)."""
    split = {"capture_ms": float(stats["capture_ms"]), "build_ms": float(stats["build_ms"])}
    if "view_ms" in stats:
        split["view_ms"] = float(stats["view_ms"])
    if isinstance(stats.get("stability"), dict):
        split["stability_ms"] = float(stats["stability"].get("waited_ms", 0))
    split["rest_ms"] = ms - sum(split.values())
    return split


class BrowserxConnection:
    """One control-socket client, replaced after a failed call (a late answer to an abandoned
    request would otherwise be read as the next call's)."""

    def __init__(self, timeout: float = CALL_TIMEOUT_S - 10) -> None:  # fail before wait_for does
        self.timeout = timeout
        self.client = Client(timeout=timeout)

    def reset(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()
        self.client = Client(timeout=self.timeout)


class BrowserxTool:
    """``browserx``: the snapshot as an agent calls it (host defaults, incl. any token budget);
    ``browserx full``: the same with ``max_tokens=0`` (the whole page), when the client has it.
    Both variants share one connection."""

    def __init__(self, conn: BrowserxConnection, tab: int, full: bool = False) -> None:
        self.conn = conn
        self.tab = tab
        self.full = full
        self.name = "browserx full" if full else "browserx"
        self.options: dict[str, Any] = {"max_tokens": 0} if full else {}

    @classmethod
    def connect(cls) -> BrowserxTool:
        conn = BrowserxConnection()
        tabs = conn.client.tabs()
        if not tabs:
            conn.client.close()
            raise RuntimeError("browserx lists no tab")
        return cls(conn, int(tabs[0]["tab"]))

    def whole_page(self) -> BrowserxTool | None:
        """The ``browserx full`` variant on the same connection, if this client can ask for it."""
        if "max_tokens" not in inspect.signature(Client.snapshot).parameters:
            return None
        return BrowserxTool(self.conn, self.tab, full=True)

    def _eval(self, expression: str) -> Any:
        reply = self.conn.client.cdp(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True}, tab=self.tab
        )
        return reply.get("result", {}).get("value")

    def navigate(self, url: str, timeout: float = 60.0) -> None:
        """Page.navigate, then wait for the load event (readyState) and a short settle."""
        self.conn.client.cdp("Page.navigate", {"url": url}, tab=self.tab)
        deadline = time.monotonic() + timeout
        seen: object = None
        while time.monotonic() < deadline:
            try:  # the old document may go away mid-call
                seen = (self._eval("location.href"), self._eval("document.readyState"))
                if seen == (url, "complete"):
                    break
            except Exception as exc:
                seen = short_error(exc)
                if not isinstance(exc, BrowserxError):
                    self.conn.reset()
            time.sleep(0.1)
        else:
            raise TimeoutError(f"{url} did not load within {timeout:.0f} s (last seen: {seen})")
        time.sleep(0.5)  # let the cross-site iframe and custom elements settle

    def view_checks(self, whole_page: str, with_query: bool, query_max_tokens: int) -> dict[str, Any]:
        """Tokens of the views with floors of their own besides the default one, a call each
        (not timed): ``viewport_only``, and on the largest page a query-focused view naming a
        button far below the fold (picked from the whole-page view) — is that button in it?"""
        client = self.conn.client
        viewport = client.snapshot(tab=self.tab, format="text", viewport_only=True, stats=True)
        out: dict[str, Any] = {"viewport_only": int(viewport["stats"]["tokens"])}
        buttons = [name for role, name in parse_controls(whole_page).values() if role == "button" and name]
        if with_query and buttons:
            name = buttons[len(buttons) * 4 // 5]
            result = client.snapshot(
                tab=self.tab, format="text", query=name, max_tokens=query_max_tokens, stats=True
            )
            found = ("button", name) in parse_controls(result["text"]).values()
            out["query"] = {"text": name, "tokens": int(result["stats"]["tokens"]), "found": found}
        return out

    def page_facts(self) -> tuple[int | None, tuple[int, int] | None]:
        height = self._eval("document.documentElement.scrollHeight")
        size = self._eval("[innerWidth, innerHeight]")
        return (int(height) if height else None), (tuple(size) if size else None)

    def _snapshot(self) -> Sample:
        t0 = time.perf_counter()
        try:
            result = self.conn.client.snapshot(tab=self.tab, format="text", stats=True, **self.options)
        except Exception:
            self.conn.reset()
            raise
        ms = (time.perf_counter() - t0) * 1000
        text: str = result["text"]
        stats = result["stats"]
        extra = time_split(stats, ms)
        extra["elements"] = float(stats.get("elements", 0))
        extra["stats_interactive"] = float(stats.get("interactive", 0))
        names = [name for _, name in parse_controls(text).values()]  # [12] button Pay, [7] Terms → /t
        return Sample(ms, text, names, extra)

    async def snapshot(self) -> Sample:
        return await asyncio.to_thread(self._snapshot)  # the socket client blocks; keep the loop free

    async def close(self) -> None:
        if not self.full:  # the full variant borrows the connection
            self.conn.client.close()
