"""The wire protocol between the host and the extension's service worker.

Host → extension: ``{id, type: "cdp"|"batch"|"attach"|"detach"|"tabs"|"newTab"|"closeTab"|"activateTab"|"ping", ...}``
(``batch`` carries ``commands: [{method, params, after?, when?}]`` for one tab/session, issued in
order without waiting, except that a command with ``after`` (an earlier command's index) is issued
once that one answered with ``true`` at the path ``when`` in its result, else answered
``skipped`` (a worker whose hello lists the feature ``gated-batch``); answered with
``{results: [{result} | {error}]}`` in the same order; ``watermark`` carries
``tabId, high``: the highest element ID given out in that tab, which the worker keeps in
``chrome.storage.session`` and hands to the next host in its ``hello`` as ``watermarks:
{tabId: high}``, so IDs stay unique across host restarts for the browser's life).
Extension → host: replies ``{id, result}`` / ``{id, error}`` (large replies split into
``{id, chunk, chunks, data}`` pieces whose ``data`` concatenate to the reply's JSON text), and
notices ``{type: "hello"|"event"|"detached"|"tab"|"controls", ...}``. The person's controls (Stop
agent, site rules, tab sharing: control/person/controls.py): the hello carries ``controls`` and a
``controls`` notice comes on every change; the host sends ``activity`` (``entry``: one line of the
popup's Activity list) and ``agentState`` (``working``, ``tabId``).
``siteGuard`` (``tabId``, ``on``) holds the person's site rules in the browser's network layer for
a call that may change the tab (answered once they are in force) and lifts them after it; the
notice ``{type: "siteBlocked", tabId, url}`` says a tab went to a site the rules refuse and was let
go (control/person/site_guard.py; a worker whose hello lists ``site-guard``).
``ask`` carries ``askId, kind ("question"|"confirm"|"site"), question, choices, timeoutS, tabId``:
a question for the person in the popup, answered at once with ``{queued: true}`` and later by the
notice ``{type: "answer", askId, answer, allowed}``; ``askDone`` (``askId``) takes back one nobody
answered (control/person/ask.py).

Results stay ``msgspec.Raw`` until a caller decodes them into the type it expects, so a
multi-megabyte snapshot is parsed once, straight into Structs.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import msgspec

from browserx.environment import environment
from browserx.errors import CdpError

HOST_NAME = "com.browserx.host"
EXTENSION_ID = "bdmcchjakioickidfhiggdbapfpibgdc"

# Exactly the methods the host sends (keep in step with extension/allowlist.js; tests/relay/
# test_protocol.py checks that they agree and that the host's code uses every one of them).
CDP_ALLOWLIST: frozenset[str] = frozenset(
    {
        "Accessibility.getPartialAXTree",
        "DOM.describeNode",
        "DOM.focus",
        "DOM.getBoxModel",
        "DOM.getContentQuads",
        "DOM.getFrameOwner",
        "DOM.resolveNode",
        "DOM.scrollIntoViewIfNeeded",
        "DOM.setFileInputFiles",
        "DOMDebugger.getEventListeners",
        "DOMSnapshot.captureSnapshot",
        "Input.dispatchDragEvent",
        "Input.dispatchKeyEvent",
        "Input.dispatchMouseEvent",
        "Input.insertText",
        "Input.setInterceptDrags",
        "Network.disable",
        "Network.enable",
        "Page.addScriptToEvaluateOnNewDocument",
        "Page.captureScreenshot",
        "Page.createIsolatedWorld",
        "Page.enable",
        "Page.getFrameTree",
        "Page.getNavigationHistory",
        "Page.handleJavaScriptDialog",
        "Page.navigate",
        "Page.navigateToHistoryEntry",
        "Page.reload",
        "Page.setInterceptFileChooserDialog",
        "Runtime.callFunctionOn",
        "Runtime.disable",
        "Runtime.enable",
        "Runtime.evaluate",
        "Runtime.getProperties",
        "Runtime.releaseObjectGroup",
    }
)
# Methods only the test suite sends (it compares with Chrome's own accessibility tree, and
# crashes a renderer on purpose). Served only
# by a host started with BROWSERX_TEST_CDP=1, through an extension that carries
# allowlist-test.js (tests/e2e/harness.py writes both; the shipped extension has neither).
TEST_ONLY_CDP: frozenset[str] = frozenset({"Accessibility.getFullAXTree", "Page.crash"})


def allowed(method: str) -> bool:
    """Whether the relay may send ``method``."""
    if method in CDP_ALLOWLIST:
        return True
    return method in TEST_ONLY_CDP and environment().test_cdp


EMPTY = msgspec.Raw(b"")


class Gate(NamedTuple):
    """A batch command's condition: issued once command ``after`` answered with ``true`` at the
    path ``when`` in its result (text typed only into the field its focus call says took focus)."""

    after: int
    when: tuple[str, ...]


MAX_ARGS_FROM = 1000  # earlier answers the worker passes to one command (extension/cdp.js)


class ArgsFrom(NamedTuple):
    """A batch command's call arguments taken from earlier answers: issued once commands ``of``
    answered, with the objectId at ``path`` in each one's result appended to its arguments (null
    for one that failed): nodes resolved and read in one round trip."""

    of: tuple[int, ...]
    path: tuple[str, ...]


class Inbound(msgspec.Struct, omit_defaults=True):
    """Any message from the extension; which fields are set depends on its kind."""

    id: int | None = None
    type: str | None = None
    # Raw cannot sit in a union: an empty Raw means "absent".
    result: msgspec.Raw = msgspec.field(default_factory=lambda: EMPTY)
    error: str | None = None
    # chunked reply
    chunk: int | None = None
    chunks: int | None = None
    data: str | None = None
    # notices
    tabId: int | None = None
    sessionId: str | None = None
    method: str | None = None
    params: msgspec.Raw = msgspec.field(default_factory=lambda: EMPTY)
    reason: str | None = None
    event: str | None = None
    removedTabId: int | None = None
    openerTabId: int | None = None  # a created tab's: the tab whose page opened it
    windowId: int | None = None
    url: str | None = None
    title: str | None = None
    status: str | None = None
    version: str | None = None
    userAgent: str | None = None
    extensionId: str | None = None
    watermarks: dict[str, Any] | None = None  # hello: each tab's highest element ID so far
    # The person's controls (popup, options page): the hello's ``controls`` field, and a
    # ``controls`` notice's own fields; checked by control/person/controls.py (any shape here: a bad one
    # must not drop the frame).
    controls: Any = None
    stopped: Any = None
    siteMode: Any = None
    blockedSites: Any = None
    allowedSites: Any = None
    tabSharing: Any = None
    confirmSensitive: Any = None
    uploadFolders: Any = None
    autoDialogs: Any = None
    sharedTabs: Any = None
    # answer: the person's answer to an ``ask`` (control/person/ask.py): its id, the text or choice,
    # Allow/Deny
    askId: str | None = None
    answer: str | None = None
    allowed: bool | None = None

    @property
    def is_reply(self) -> bool:
        return self.id is not None and self.type is None


class TabInfo(msgspec.Struct, omit_defaults=True):
    tabId: int
    windowId: int = -1
    url: str = ""
    title: str = ""
    active: bool = False
    status: str = ""
    attached: bool = False
    focused: bool = False  # set by the host: in the last focused window


class TabsResult(msgspec.Struct):
    tabs: list[TabInfo]
    lastFocusedWindowId: int | None = None


class NewTabResult(msgspec.Struct):
    tabId: int
    windowId: int | None = None


class TargetInfo(msgspec.Struct, omit_defaults=True):
    targetId: str
    type: str = ""
    url: str = ""
    title: str = ""


class AttachedToTarget(msgspec.Struct, omit_defaults=True):
    sessionId: str
    targetInfo: TargetInfo
    waitingForDebugger: bool = False


class DetachedFromTarget(msgspec.Struct, omit_defaults=True):
    sessionId: str
    targetId: str = ""


def decode_raw(raw: msgspec.Raw | None, type: type[Any] = dict) -> Any:
    """Decode a Raw payload (absent → empty object) into ``type``; a payload of another shape
    (which Chrome never sends) is a CdpError, not a crash of whoever asked."""
    try:
        if not raw:
            return msgspec.convert({}, type)
        return msgspec.json.decode(raw, type=type)
    except msgspec.ValidationError as exc:
        raise CdpError(f"the extension sent a payload of an unexpected shape: {exc}") from None
    except (msgspec.DecodeError, RecursionError) as exc:
        raise CdpError(f"the extension sent an unreadable payload: {_why(exc)}") from None


def _why(exc: Exception) -> str:
    return "JSON nested too deeply" if isinstance(exc, RecursionError) else str(exc)
