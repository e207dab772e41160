"""What the host reads of CDP results, as msgspec Structs: ``TabSession.cdp(..., result_type=X)``
decodes Chrome's reply straight into them (relay/connection.py), and a reply of another shape
(which Chrome never sends) is a CdpError there, not a KeyError somewhere above.

One Struct per result the host reads (Chromium 156's protocol), holding only the fields it reads:
msgspec skips the rest while decoding. Field names are CDP's own (camelCase). A field CDP may
omit has a default; so does the ``result`` of an evaluation (an empty answer reads as "no value",
as the host always read it). Commands whose result the host ignores (input, focus, scrolling,
enabling a domain, releasing handles, reloading) keep the plain ``dict`` default. The raw ``cdp``
control method hands Chrome's answer on untouched and types nothing.

Two results come projected by the extension (``keep``, extension/cdp.js ``project``): only some
paths of ``DOMSnapshot.captureSnapshot`` (same shape, fewer fields: ``CaptureSnapshotResult``),
and ``DOMDebugger.getEventListeners`` as rows of the kept fields (``EventListenerRows``).
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

T = TypeVar("T")


# -- Runtime ----------------------------------------------------------------------------------


class RemoteObject(msgspec.Struct):
    """Runtime.RemoteObject: a value (``returnByValue``: any JSON) or a handle (``objectId``).
    An absent ``value`` and a JSON null both read as None: the host never tells them apart."""

    subtype: str | None = None  # "node", "null", "array", ...
    value: Any = None
    objectId: str | None = None
    description: str | None = None  # of an element: "button#save.primary"


class ExceptionDetails(msgspec.Struct):
    """Runtime.ExceptionDetails: the page's code threw."""

    text: str = ""
    exception: RemoteObject | None = None


class EvaluateResult(msgspec.Struct):
    """Runtime.evaluate and Runtime.callFunctionOn (the same result)."""

    result: RemoteObject = msgspec.field(default_factory=RemoteObject)
    exceptionDetails: ExceptionDetails | None = None


CallFunctionOnResult = EvaluateResult


class PropertyDescriptor(msgspec.Struct):
    """Runtime.PropertyDescriptor: an accessor property has no ``value``."""

    name: str
    value: RemoteObject | None = None


class GetPropertiesResult(msgspec.Struct):
    """Runtime.getProperties."""

    result: list[PropertyDescriptor]


# -- Page -------------------------------------------------------------------------------------


class CreateIsolatedWorldResult(msgspec.Struct):
    """Page.createIsolatedWorld."""

    executionContextId: int


class Frame(msgspec.Struct):
    """Page.Frame."""

    id: str


class FrameTree(msgspec.Struct):
    """Page.FrameTree: a frame and the frames inside it."""

    frame: Frame
    childFrames: list[FrameTree] = []


class GetFrameTreeResult(msgspec.Struct):
    """Page.getFrameTree."""

    frameTree: FrameTree


class NavigateResult(msgspec.Struct):
    """Page.navigate: ``loaderId`` is absent for a same-document navigation, ``errorText``
    present only when the navigation failed."""

    frameId: str
    loaderId: str | None = None
    errorText: str | None = None


class NavigationEntry(msgspec.Struct):
    """Page.NavigationEntry."""

    id: int
    url: str = ""


class GetNavigationHistoryResult(msgspec.Struct):
    """Page.getNavigationHistory."""

    currentIndex: int
    entries: list[NavigationEntry]


class DragIntercepted(msgspec.Struct):
    """Input.dragIntercepted: the browser's data of an HTML5 drag it held back (handed back to it
    with Input.dispatchDragEvent, never read)."""

    data: msgspec.Raw


class FileChooserOpened(msgspec.Struct):
    """Page.fileChooserOpened: a file chooser the page opened, held back (interception on)."""

    mode: str = "selectSingle"
    backendNodeId: int = 0  # the input it would fill (0: none named)


class DownloadWillBegin(msgspec.Struct):
    """Page.downloadWillBegin: a download the page started (a link, a form, a script)."""

    guid: str
    url: str = ""
    suggestedFilename: str = ""


class DownloadProgress(msgspec.Struct):
    """Page.downloadProgress: how far a download got (state inProgress, completed or canceled)."""

    guid: str
    totalBytes: float = 0
    receivedBytes: float = 0
    state: str = "inProgress"


class JavaScriptDialogOpening(msgspec.Struct):
    """Page.javascriptDialogOpening: an alert, confirm, prompt or beforeunload holds the page."""

    type: str
    message: str = ""
    defaultPrompt: str = ""
    url: str = ""


class CaptureScreenshotResult(msgspec.Struct):
    """Page.captureScreenshot: the image, base64."""

    data: str


# -- DOM --------------------------------------------------------------------------------------

Quad = list[float]  # DOM.Quad: four corners, x1 y1 … x4 y4, clockwise


class GetFrameOwnerResult(msgspec.Struct):
    """DOM.getFrameOwner: the <iframe> (in the frame's parent document) that holds the frame."""

    backendNodeId: int


class BoxModel(msgspec.Struct):
    """DOM.BoxModel."""

    content: Quad


class GetBoxModelResult(msgspec.Struct):
    """DOM.getBoxModel."""

    model: BoxModel


class GetContentQuadsResult(msgspec.Struct):
    """DOM.getContentQuads: none for an element without a layout box."""

    quads: list[Quad] = []


class ObjectHandle(msgspec.Struct):
    """A Runtime.RemoteObject that is a handle, as DOM.resolveNode always answers."""

    objectId: str


class ResolveNodeResult(msgspec.Struct):
    """DOM.resolveNode."""

    object: ObjectHandle


class DomNode(msgspec.Struct):
    """DOM.Node, as far as the host reads one: its shadow roots (``pierce``), and what kind each
    root is."""

    backendNodeId: int
    shadowRootType: str | None = None  # "user-agent", "open" or "closed", on a shadow root
    shadowRoots: list[DomNode] = []


class DescribeNodeResult(msgspec.Struct):
    """DOM.describeNode."""

    node: DomNode


# -- DOMSnapshot, DOMDebugger (projected by the extension) -------------------------------------


class RareBooleanData(msgspec.Struct):
    """DOMSnapshot.RareBooleanData: the indexes of the nodes for which it is true."""

    index: list[int] = []


class NodeTreeSnapshot(msgspec.Struct):
    """DOMSnapshot.NodeTreeSnapshot: per-node columns."""

    backendNodeId: list[int] = []
    isClickable: RareBooleanData | None = None


class DocumentSnapshot(msgspec.Struct):
    """DOMSnapshot.DocumentSnapshot."""

    nodes: NodeTreeSnapshot = msgspec.field(default_factory=NodeTreeSnapshot)


class CaptureSnapshotResult(msgspec.Struct):
    """DOMSnapshot.captureSnapshot, of which the extension keeps only the paths asked for (a
    document none of whose kept paths exist comes as null)."""

    documents: list[DocumentSnapshot | None] = []


ListenerRow = tuple[str | None, int | None]  # [type, backendNodeId] of a DOMDebugger.EventListener


class EventListenerRows(msgspec.Struct):
    """DOMDebugger.getEventListeners as the extension projects it: one row per listener of the
    kept fields (``keep={"list": "listeners", "fields": ["type", "backendNodeId"]}``), a field
    the listener lacks as null."""

    listeners: list[ListenerRow] = []


# -- lenient reading ----------------------------------------------------------------------------


def decode_or_none(raw: msgspec.Raw, type: type[T]) -> T | None:
    """``raw`` (a result asked for with ``result_type=msgspec.Raw``) decoded as ``type``, or None
    when it has another shape: for the few callers to whom an answer Chrome never sends means
    "no answer", not an error."""
    try:
        return msgspec.json.decode(raw, type=type)
    except (msgspec.DecodeError, RecursionError):  # ValidationError included
        return None


# -- Accessibility ------------------------------------------------------------------------------


class AXValue(msgspec.Struct):
    """Accessibility.AXValue: only the value is read."""

    value: Any = None


class AXProperty(msgspec.Struct):
    name: str
    value: AXValue


class AXNode(msgspec.Struct):
    """Accessibility.AXNode: its role, whether Chrome leaves it out, and its properties."""

    ignored: bool = False
    role: AXValue | None = None
    properties: list[AXProperty] = []


class PartialAXTreeResult(msgspec.Struct):
    """Accessibility.getPartialAXTree (fetchRelatives false: the node itself first)."""

    nodes: list[AXNode]
