"""The person's controls over the agent, the host's one copy of them: "Stop agent" /
"Resume", site rules, tab sharing and "Confirm before sensitive actions", as the extension's
popup and options page set them (chrome.storage, handed over in the hello's ``controls`` and in a
``controls`` notice on every change) merged with the config file's (settings.py) — the stricter
union (site_rules.merge_controls).

Every control request goes through ``guard``: while stopped it fails with ``stopped_by_user``;
a request running when the person presses Stop is cancelled and fails the same way; a tab on a
blocked site answers ``site_blocked`` and, with tab sharing on, a tab the person did not share
(and browserx did not open) ``tab_not_shared`` — before the tab is touched. After each call that
touched a tab, one line goes to the popup's Activity list (control/person/activity.py: words, never
values), and the popup learns when the agent starts and stops working (in the host's quiet
moments: control/person/popup_notices.py).

The service worker refuses the same things on its side (extension/controls.js): defence in depth.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import structlog

from browserx.control.person.activity import describe
from browserx.control.person.popup_notices import PopupNotices
from browserx.control.person.site_guard import SiteGuard
from browserx.control.schemas import Params
from browserx.errors import (
    BrowserxError,
    SiteBlocked,
    StoppedByUser,
    TabNotShared,
    clip,
)
from browserx.relay.connection import ExtensionConnection
from browserx.relay.protocol import Inbound, TabInfo
from browserx.site_rules import Controls, host_of, merge_controls, page_controls
from browserx.url_policy import allowed_url

log = structlog.get_logger("browserx.person")

Handler = Callable[[Any], Awaitable[Any]]
# Y's hook for the "ask the first time" mode: ask the person whether the agent may use this
# site (host name) in this tab; True when they allowed it. None: such a site is refused.
SiteAsker = Callable[[str, int | None], Awaitable[bool]]

# Tools that change nothing in a tab and name none: no site check, no Activity line.
NO_TAB_TOOLS = frozenset({"status", "tabs"})
# Tools never refused while stopped: the operator's look at the host.
ALWAYS_SERVED = frozenset({"status"})

STOPPED_MESSAGE = (
    'The person paused the agent ("Stop agent" in the browserx popup): every tab was let go and '
    "nothing runs until they press Resume. Wait and try again later, or ask the person."
)


class _Request:
    """What one request did so far (the tab it resolved, the tabs it guarded), shared with the
    tasks it starts."""

    def __init__(self) -> None:
        self.tab_id: int | None = None
        self.guarded: set[int] = set()  # tabs whose site guard this request holds (site_guard.py)
        self.blocked_url: str | None = None  # the browser refused a page it led to
        self.blocked = asyncio.Event()


_REQUEST: contextvars.ContextVar[_Request | None] = contextvars.ContextVar("browserx_request", default=None)


class PersonControls:
    def __init__(
        self, conn: ExtensionConnection | None, config: Controls | None = None, allow_file_urls: bool = False
    ) -> None:
        self.conn = conn
        self.config = config or Controls()
        self.allow_file_urls = allow_file_urls
        self._page: Controls | None = None  # the options page's, once a controls notice came
        self._stopped: bool | None = None
        self._shared: frozenset[int] | None = None
        self.opened_tabs: set[int] = set()  # tabs new_tab opened for the agent (always shared)
        self._stop = asyncio.Event()
        self._working = 0
        self.site_asker: SiteAsker | None = None
        # Lists the browser's tabs (TabRegistry.list_tabs), for a tab's URL when site rules need it.
        self.list_tabs: Callable[[], Awaitable[list[TabInfo]]] | None = None
        self._notices = PopupNotices(conn, busy=lambda: self._working > 0)
        self.site_guard = SiteGuard(conn)
        self._running: set[_Request] = set()
        if conn is not None:
            conn.on_notice(self._on_notice)

    # -- what the extension says ---------------------------------------------------------------

    def _on_notice(self, msg: Inbound) -> None:
        if msg.type == "siteBlocked" and msg.tabId is not None:
            for request in self._running:
                if msg.tabId in request.guarded:
                    request.blocked_url = msg.url or ""
                    request.blocked.set()
            return
        if msg.type != "controls":
            return
        self._take(
            {
                "stopped": msg.stopped,
                "siteMode": msg.siteMode,
                "blockedSites": msg.blockedSites,
                "allowedSites": msg.allowedSites,
                "tabSharing": msg.tabSharing,
                "confirmSensitive": msg.confirmSensitive,
                "uploadFolders": msg.uploadFolders,
                "autoDialogs": msg.autoDialogs,
                "sharedTabs": msg.sharedTabs,
            }
        )

    def _from_hello(self) -> None:
        """The hello's copy, until the first notice (read lazily: the hello comes before any request)."""
        hello = self.conn.hello if self.conn is not None else None
        if self._stopped is None and hello is not None and isinstance(hello.controls, dict):
            self._take(hello.controls)

    def _take(self, data: Mapping[str, Any]) -> None:
        shared = data.get("sharedTabs")
        self._page = page_controls(data)
        self._shared = frozenset(t for t in (shared if isinstance(shared, list) else []) if type(t) is int)
        was = self._stopped
        self._stopped = data.get("stopped") is True
        if self._stopped:
            self._stop.set()
        else:
            self._stop.clear()
        if was != self._stopped:
            log.info("person_controls", stopped=self._stopped)

    # -- what is in force -------------------------------------------------------------------------

    @property
    def page(self) -> Controls:
        self._from_hello()
        return self._page or Controls()

    @property
    def effective(self) -> Controls:
        return merge_controls(self.config, self.page)

    @property
    def upload_folders(self) -> tuple[str, ...]:
        return self.effective.upload_folders

    def dialog_answer(self, kind: str) -> bool | None:
        """How the person wants a dialog of this kind answered: accepted (True), dismissed
        (False), or left to the agent (None)."""
        answer = dict(self.effective.auto_dialogs).get(kind)
        return None if answer is None else answer == "accept"

    @property
    def stopped(self) -> bool:
        self._from_hello()
        return bool(self._stopped)

    def shared(self, tab_id: int) -> bool:
        self._from_hello()
        return tab_id in self.opened_tabs or tab_id in (self._shared or frozenset())

    def status(self) -> dict[str, Any]:
        """For ``browserx status``: both sources and the rules in force."""
        return {
            "stopped": self.stopped,
            "options_page": self.page.to_dict() if self._page is not None else None,
            "config_file": self.config.to_dict(),
            "effective": self.effective.to_dict(),
            "shared_tabs": sorted(self._shared or ()),
            "opened_tabs": sorted(self.opened_tabs),
        }

    # -- checks -----------------------------------------------------------------------------------

    def check_running(self) -> None:
        if self.stopped:
            raise StoppedByUser(STOPPED_MESSAGE)

    async def check_url(self, url: str, tab_id: int | None = None, target: bool = True) -> bool:
        """Refuse a URL on a site the rules keep browserx off (``target``: one it would go to);
        whether the person was asked (and allowed it): what the page shows may have changed
        meanwhile."""
        rules = self.effective.sites
        if not rules.restrictive:
            return False
        verdict = rules.verdict(url)
        if verdict == "allowed":
            return False
        host = host_of(url) or ""
        if verdict == "ask" and self.site_asker is not None and await self.site_asker(host, tab_id):
            return True
        what = "go to" if target else "use"
        why = {
            "blocked": "is on the person's blocked sites",
            "unlisted": "is not one of the sites the person allowed (browserx uses only listed sites)",
            "ask": "has not been allowed by the person yet",
        }[verdict]
        raise SiteBlocked(
            f"browserx may not {what} {clip(host, 200)}: the site {why}. Nothing of it was read or "
            "touched. Ask the person to do this step themselves, or to change their site rules.",
            site=host,
        )

    async def check_tab(self, tab_id: int, info: TabInfo | None) -> None:
        """Refuse a tab the agent may not use: on a blocked site, or not shared."""
        sharing = self.effective.tab_sharing
        if sharing and not self.shared(tab_id):
            raise TabNotShared(
                f"Tab {tab_id} is not shared with the agent: the person turned tab sharing on, so browserx "
                "uses only the tabs it opened itself (new_tab) and the tabs the person shared from the "
                'browserx popup ("Share this tab"). Use new_tab, or ask the person to share this tab.',
                tab=tab_id,
            )
        if info is not None:
            await self.check_url(info.url, tab_id, target=False)

    def needs_tab_info(self) -> bool:
        return self.effective.sites.restrictive

    def refused(self, info: TabInfo) -> str | None:
        """Why the agent may not use a listed tab (for ``tabs``): None, ``blocked`` or ``not_shared``."""
        controls = self.effective
        if controls.tab_sharing and not self.shared(info.tabId):
            return "not_shared"
        if controls.sites.restrictive and controls.sites.verdict(info.url) in ("blocked", "unlisted"):
            return "blocked"
        return None

    # -- running a request ----------------------------------------------------------------------

    async def gate(self, tab_id: int) -> None:
        """TabRegistry.gate: before a request touches a tab (any tool, the default tab included)."""
        request = _REQUEST.get()
        if request is not None:
            request.tab_id = tab_id
        self.check_running()
        info = None
        if self.needs_tab_info() and self.list_tabs is not None:
            info = next((t for t in await self.list_tabs() if t.tabId == tab_id), None)
        await self.check_tab(tab_id, info)
        await self.guard_tab(tab_id)

    async def guard_tab(self, tab_id: int) -> None:
        """Hold the site rules in the browser for the tab while this request runs (site_guard.py):
        every tool that touches a tab (reading a page runs its code too: a snapshot's scroll, a
        resize), and a tab new_tab opened."""
        request = _REQUEST.get()
        rules = self.effective.sites
        if request is None or tab_id in request.guarded or not rules.restrictive:
            return
        request.guarded.add(tab_id)  # (lifted however the request ends, the arm's failure too)
        await self.site_guard.arm(tab_id, rules)

    async def guard(
        self,
        tool: str,
        params: Params,
        handler: Handler,
        named: Callable[[int], Callable[[int], tuple[str | None, str] | None]],
    ) -> Any:
        """Run one control request under the person's controls (see the module docstring); the
        tab checks run in ``gate`` when the request resolves its tab."""
        if tool in ALWAYS_SERVED:
            return await handler(params)
        request = _Request()
        token = _REQUEST.set(request)
        self._running.add(request)
        outcome = "ok"
        started = False
        try:
            self.check_running()
            if tool in ("new_tab", "navigate"):
                url = getattr(params, "url", None)
                if isinstance(url, str):  # a URL the tool refuses is refused here, the same way
                    await self.check_url(allowed_url(url, self.allow_file_urls))
            started = True
            self._agent_state(True, getattr(params, "tab", None))
            result = await self._until_stopped(handler(params), request)
            await self._refuse_blocked_page(request, result)
            if tool == "new_tab" and isinstance(result, dict) and isinstance(result.get("tab"), int):
                request.tab_id = result["tab"]
                self.opened_tabs.add(result["tab"])
            return result
        except BrowserxError as exc:
            if exc.code != "site_blocked" and request.guarded:
                await self._refuse_blocked_page(request, None)  # (the page it led to, if refused)
            outcome = exc.code
            raise
        except asyncio.CancelledError:
            outcome = "cancelled"
            raise
        except Exception:
            outcome = "internal"
            raise
        finally:
            _REQUEST.reset(token)
            self._running.discard(request)
            for guarded in request.guarded:
                self.site_guard.lift(guarded)
            tab_id = request.tab_id  # the tab the request resolved (else the one it named)
            if tab_id is None and isinstance(getattr(params, "tab", None), int):
                tab_id = params.tab  # type: ignore[attr-defined]
            if started:
                self._agent_state(False, tab_id)
            if tool not in NO_TAB_TOOLS and (tab_id is not None or tool == "new_tab"):
                self._activity(tool, params, tab_id, outcome, named(tab_id) if tab_id is not None else None)

    async def _until_stopped(self, work: Awaitable[Any], request: _Request) -> Any:
        """``work``'s result, or StoppedByUser as soon as the person presses Stop, or SiteBlocked
        as soon as the browser refuses a page it led to (``work`` is cancelled then: its tab lock
        and waits are let go)."""
        task = asyncio.ensure_future(work)
        stop = asyncio.ensure_future(self._stop.wait())
        blocked = asyncio.ensure_future(request.blocked.wait())
        try:
            await asyncio.wait({task, stop, blocked}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            task.cancel()
            raise
        finally:
            stop.cancel()
            blocked.cancel()
        if task.done():
            return task.result()
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        if request.blocked.is_set():
            raise self._blocked(request.blocked_url or "")
        raise StoppedByUser(STOPPED_MESSAGE)

    async def _refuse_blocked_page(self, request: _Request, result: Any) -> None:
        """SiteBlocked when the request led a tab it guarded to a page the site rules refuse: the
        extension said so, the result names it, or (after a navigation or an error) the tab is
        on it now. (The browser refused it: nothing of it loaded, and the tab was let go.)"""
        if not request.guarded:
            return
        if request.blocked.is_set():
            raise self._blocked(request.blocked_url or "")
        rules = self.effective.sites
        changes = result.get("changes") if isinstance(result, dict) else None
        navigated = isinstance(changes, dict) and changes.get("navigated") is True
        if result is not None and not navigated:
            return
        urls = [changes.get("new_url")] if isinstance(changes, dict) else []
        if self.list_tabs is not None:
            urls += [t.url for t in await self.list_tabs() if t.tabId in request.guarded]
        for url in urls:
            if isinstance(url, str) and rules.verdict(url) != "allowed":
                raise self._blocked(url)

    def _blocked(self, url: str) -> SiteBlocked:
        host = clip(host_of(url) or "a site", 200)
        return SiteBlocked(
            f"The page this call led to, on {host}, is on a site the person's rules keep browserx off: "
            "the browser refused it, nothing of it was read, and browserx let the tab go. Ask the "
            "person to do this step themselves, or to change their site rules.",
            site=host,
        )

    # -- telling the popup ----------------------------------------------------------------------

    def _agent_state(self, starting: bool, tab_id: int | None) -> None:
        self._working += 1 if starting else -1
        self._notices.state(self._working > 0, tab_id)

    def _activity(
        self,
        tool: str,
        params: Params,
        tab_id: int | None,
        outcome: str,
        named: Callable[[int], tuple[str | None, str] | None] | None,
    ) -> None:
        try:
            text = describe(tool, params.model_dump(exclude_none=True), named or (lambda _: None))
        except Exception as exc:  # the Activity list must never break a request
            log.warning("activity_text_failed", tool=tool, error=clip(repr(exc), 200))
            text = tool
        entry = {
            "time": int(time.time() * 1000),
            "tabId": tab_id,
            "title": "",
            "text": text,
            "outcome": outcome,
        }
        self._notices.line(entry)
