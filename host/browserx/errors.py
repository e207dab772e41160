"""The one exception tree of browserx. Every error carries a stable ``code`` and a message
written for an LLM: it says what went wrong and what to do next.

    BrowserxError                    internal
    ├─ DuplicateId                   duplicate_id
    ├─ FramingError                  bad_frame
    ├─ BadRequest                    bad_request
    │  ├─ UnknownMethod              unknown_method
    │  ├─ MethodNotAllowed           method_not_allowed
    │  └─ UrlNotAllowed              url_not_allowed
    ├─ NoHost                        no_host
    │  └─ AmbiguousHost              ambiguous_host
    ├─ RelayError                    relay_error
    │  ├─ HostDisconnected           host_disconnected
    │  ├─ ExtensionDisconnected      extension_disconnected
    │  ├─ VersionMismatch            version_mismatch
    │  ├─ TabNotFound                unknown_tab
    │  ├─ TabClosed                  tab_closed
    │  ├─ DebuggerDetached           debugger_detached
    │  ├─ PageCrashed                page_crashed
    │  ├─ DialogOpen                 dialog_open
    │  ├─ PageOffLimits              page_off_limits
    │  ├─ FrameGone                  frame_gone
    │  ├─ CdpError                   cdp_error
    │  └─ CdpTimeout                 timeout
    ├─ PageScriptError               page_script_error
    ├─ PageOptedOut                  page_opted_out
    ├─ StoppedByUser                 stopped_by_user
    ├─ SiteBlocked                   site_blocked
    ├─ TabNotShared                  tab_not_shared
    ├─ ActionError                   action_failed
    │  ├─ ActionTimeout              action_timeout
    │  ├─ NavigationFailed           navigation_failed
    │  ├─ PageNavigated              page_navigated
    │  ├─ DeniedByUser               denied_by_user
    │  ├─ NoDialog                   no_dialog
    │  ├─ NoAnswer                   no_answer
    │  └─ FilesNotAllowed            files_not_allowed
    └─ ElementError                  element_error
       ├─ UnknownElement             unknown_id
       ├─ StaleElement               stale_id
       ├─ Occluded                   occluded
       ├─ NotInteractable            not_interactable
       └─ OptionNotFound             option_not_found
"""

from __future__ import annotations

from typing import Any, ClassVar


class BrowserxError(Exception):
    code: ClassVar[str] = "internal"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out


class DuplicateId(BrowserxError):
    code = "duplicate_id"
    """Two nodes of one snapshot got one ID: a bug that fails loudly, never output (an agent
    acting on such an ID could hit an element other than the one it saw)."""


class FramingError(BrowserxError):
    code = "bad_frame"


class BadRequest(BrowserxError):
    code = "bad_request"


class UnknownMethod(BadRequest):
    code = "unknown_method"


class MethodNotAllowed(BadRequest):
    code = "method_not_allowed"


class UrlNotAllowed(BadRequest):
    code = "url_not_allowed"
    """A URL outside the allowlist (http, https, about:blank, file:// when enabled): refused
    before it reaches Chrome, for every way a tab could be sent there."""


class NoHost(BrowserxError):
    code = "no_host"


class AmbiguousHost(NoHost):
    code = "ambiguous_host"
    """More than one live host and no socket named: the call would pick a browser at random."""


class RelayError(BrowserxError):
    code = "relay_error"


class HostDisconnected(RelayError):
    code = "host_disconnected"


class ExtensionDisconnected(RelayError):
    code = "extension_disconnected"


class VersionMismatch(RelayError):
    code = "version_mismatch"
    """The extension in the browser is another version than this host (an old unpacked extension
    with a newer host, or the reverse): requests are refused until the two agree."""


class TabNotFound(RelayError):
    code = "unknown_tab"


class TabClosed(RelayError):
    code = "tab_closed"


class DebuggerDetached(RelayError):
    code = "debugger_detached"


class PageOffLimits(RelayError):
    code = "page_off_limits"
    """The tab shows a page no extension may debug (chrome://, another extension's, the Web Store):
    browserx can navigate it away, nothing else."""


class PageCrashed(RelayError):
    code = "page_crashed"
    """The tab's renderer died (out of memory, a crash): nothing in the page answers until the
    tab is reloaded or navigated."""


class DialogOpen(RelayError):
    code = "dialog_open"
    """A JavaScript dialog (alert, confirm, prompt, beforeunload) holds the tab: nothing in the page
    answers until it is accepted or dismissed. ``details.dialog``: its type, message and default
    prompt value."""


class FrameGone(RelayError):
    code = "frame_gone"


class CdpError(RelayError):
    code = "cdp_error"


class CdpTimeout(RelayError):
    code = "timeout"


# What a call into the page fails with while the tab itself is fine: the document, frame or child
# session it went to is gone (CdpError "Cannot find context with specified id", FrameGone, a child
# session's DebuggerDetached), or it did not answer in time (CdpTimeout). Code that only looks
# goes on after these; a closed tab, a crashed renderer or a lost extension is never one of them,
# and ends the request instead of passing for "nothing there".
PAGE_CALL_ERRORS: tuple[type[BrowserxError], ...] = (CdpError, CdpTimeout, FrameGone, DebuggerDetached)


class PageScriptError(BrowserxError):
    code = "page_script_error"
    """A browserx snippet threw in the page (page/page_call.py): the page changed something the
    snippet relies on (a DOM method, a prototype, a getter). ``details``: the snippet's file
    (``snippet``, its path under host/browserx) and the page's own message (``page_message``)."""


class PageOptedOut(BrowserxError):
    code = "page_opted_out"


class StoppedByUser(BrowserxError):
    code = "stopped_by_user"
    """The person pressed "Stop agent" in browserx's popup: every tab was let go, requests that were
    running failed, and every request fails until they press "Resume"."""


class SiteBlocked(BrowserxError):
    code = "site_blocked"
    """The person's site rules (the options page, or the config file's ``site_rules``) keep browserx
    off this site: nothing of it is read, acted on or navigated to."""


class TabNotShared(BrowserxError):
    code = "tab_not_shared"
    """Tab sharing is on: browserx may use only the tabs it opened itself and those the person
    shared from the popup ("Share this tab")."""


class ElementError(BrowserxError):
    code = "element_error"


class UnknownElement(ElementError):
    code = "unknown_id"


class StaleElement(ElementError):
    code = "stale_id"


class Occluded(ElementError):
    code = "occluded"


class NotInteractable(ElementError):
    code = "not_interactable"


class OptionNotFound(ElementError):
    """select(): no option of the list has the asked value or label."""

    code = "option_not_found"


class ActionError(BrowserxError):
    """An action that is not about one element failed (navigation, waiting)."""

    code = "action_failed"


class ActionTimeout(ActionError):
    code = "action_timeout"


class NavigationFailed(ActionError):
    code = "navigation_failed"


class PageNavigated(ActionError):
    code = "page_navigated"
    """The page left for another while the action ran (its handler navigated mid-typing): the
    action stopped there; details say how far it got."""


class DeniedByUser(ActionError):
    code = "denied_by_user"
    """The person pressed "Deny" in browserx's popup when asked to confirm a sensitive action (a
    payment, a deletion, a password form): nothing was done."""


class NoDialog(ActionError):
    code = "no_dialog"
    """``dialog`` found no JavaScript dialog open in the tab: nothing to accept or dismiss."""


class FilesNotAllowed(ActionError):
    code = "files_not_allowed"
    """Chrome refused to hand local files to the page (``upload``): it lets an extension's debugger
    set a file input only when the person allowed the extension access to file URLs."""


class NoAnswer(ActionError):
    code = "no_answer"
    """Nobody answered in browserx's popup in time (``ask_user``'s question, or the confirmation a
    sensitive action waits for, which then does nothing)."""


def all_error_classes() -> list[type[BrowserxError]]:
    """Every class of the tree, root first (used to check codes are unique and documented)."""
    seen: list[type[BrowserxError]] = []
    stack: list[type[BrowserxError]] = [BrowserxError]
    while stack:
        cls = stack.pop(0)
        seen.append(cls)
        stack.extend(cls.__subclasses__())
    return seen


ERROR_BY_CODE: dict[str, type[BrowserxError]] = {cls.code: cls for cls in all_error_classes()}


def error_from_dict(data: dict[str, Any]) -> BrowserxError:
    """Rebuild a structured error received over the control socket."""
    cls = ERROR_BY_CODE.get(str(data.get("code")), BrowserxError)
    err = cls(str(data.get("message", "unknown error")), **dict(data.get("details") or {}))
    if cls is BrowserxError and data.get("code") not in (None, "internal"):
        err.details["code"] = data.get("code")
    return err


def clip(text: str, limit: int) -> str:
    """Text for an error message or a log line, cut at ``limit`` characters (saying how long it was):
    a name, an id or an error text from outside can be megabytes."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def raised_at(exc: BaseException) -> str:
    """Where an exception was raised, as ``file:line`` (the innermost frame), for a short log line
    instead of a traceback."""
    tb = exc.__traceback__
    if tb is None:
        return "?"
    while tb.tb_next is not None:
        tb = tb.tb_next
    return f"{tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}"
