"""The typed CDP results (relay/cdp_types.py) read what Chromium sends. The payloads are real
replies, recorded from Chromium 156.0.8078.108 through the e2e harness (browser_with_extension and
the raw ``cdp`` method, on the fixture pages snap-frames.html, snap-shadow.html, act-shadow.html),
cut short where long (navigation history). Two are as the extension projects them (``keep``,
extension/cdp.js ``project``), computed from the recorded full replies: the click-like rows of
DOMDebugger.getEventListeners and the kept paths of DOMSnapshot.captureSnapshot. The odd shapes
below are written by hand: Chrome never sends them."""

from __future__ import annotations

import base64
from typing import Any

import msgspec
import pytest

from browserx.errors import CdpError
from browserx.relay.cdp_types import (
    CallFunctionOnResult,
    CaptureScreenshotResult,
    CaptureSnapshotResult,
    CreateIsolatedWorldResult,
    DescribeNodeResult,
    EvaluateResult,
    EventListenerRows,
    GetBoxModelResult,
    GetContentQuadsResult,
    GetFrameOwnerResult,
    GetFrameTreeResult,
    GetNavigationHistoryResult,
    GetPropertiesResult,
    NavigateResult,
    RemoteObject,
    ResolveNodeResult,
    decode_or_none,
)
from browserx.relay.connection import decode_result

NAVIGATE = rb'{"frameId":"AEA9DE1BC8B55FEDE0F3D0B484FD4C47","isDownload":false,"loaderId":"F419C092829C8A362E2A22D69B189D24"}'
NAVIGATE_SAME_DOCUMENT = rb'{"frameId":"AEA9DE1BC8B55FEDE0F3D0B484FD4C47","isDownload":false}'
NAVIGATE_FAILED = rb'{"errorText":"net::ERR_UNSAFE_PORT","frameId":"AEA9DE1BC8B55FEDE0F3D0B484FD4C47","isDownload":false,"loaderId":"9B1F54D5CB3C5322D9CEA85C2A23643E"}'
HISTORY = rb'{"currentIndex":1,"entries":[{"id":17,"title":"Snapshot shadow DOM","transitionType":"typed","url":"http://127.0.0.1:38159/snap-shadow.html#there","userTypedURL":"http://127.0.0.1:38159/snap-shadow.html"},{"id":20,"title":"127.0.0.1","transitionType":"typed","url":"http://127.0.0.1:9/","userTypedURL":""}]}'
FRAME_TREE = rb'{"frameTree":{"childFrames":[{"frame":{"adFrameStatus":{"adFrameType":"none","explanations":[]},"crossOriginIsolatedContextType":"NotIsolated","domainAndRegistry":"","gatedAPIFeatures":[],"id":"7F0642460F1CF29BB17CA82B83007F1E","loaderId":"BA3C9965A9D0AEF3C91D375AC458996B","mimeType":"text/html","name":"same","parentId":"AEA9DE1BC8B55FEDE0F3D0B484FD4C47","secureContextType":"SecureLocalhost","securityOrigin":"http://127.0.0.1:38159","securityOriginDetails":{"isLocalhost":true},"url":"http://127.0.0.1:38159/snap-samechild.html"}}],"frame":{"adFrameStatus":{"adFrameType":"none"},"crossOriginIsolatedContextType":"NotIsolated","domainAndRegistry":"","gatedAPIFeatures":[],"id":"AEA9DE1BC8B55FEDE0F3D0B484FD4C47","loaderId":"8E822A24901B0C86E8C1738E00BDBD40","mimeType":"text/html","secureContextType":"SecureLocalhost","securityOrigin":"http://127.0.0.1:38159","securityOriginDetails":{"isLocalhost":true},"url":"http://127.0.0.1:38159/snap-frames.html"}}}'
FRAME_OWNER = rb'{"backendNodeId":6}'
BOX_MODEL = rb'{"model":{"border":[8,100.875,432,100.875,432,214.875,8,214.875],"content":[10,102.875,430,102.875,430,212.875,10,212.875],"height":114,"margin":[8,100.875,432,100.875,432,214.875,8,214.875],"padding":[10,102.875,430,102.875,430,212.875,10,212.875],"width":424}}'
RESOLVE_NODE = rb'{"object":{"className":"HTMLIFrameElement","description":"iframe#same","objectId":"-8050895672228204638.1.1","subtype":"node","type":"object"}}'
EVALUATE_VALUE = rb'{"result":{"type":"object","value":[true,"Snapshot frames",1.5,null]}}'
EVALUATE_UNDEFINED = rb'{"result":{"type":"undefined"}}'
EVALUATE_NULL = rb'{"result":{"subtype":"null","type":"object","value":null}}'
EVALUATE_THROWS = rb'{"exceptionDetails":{"columnNumber":9,"exception":{"className":"TypeError","description":"TypeError: nope\n    at <anonymous>:1:16\n    at <anonymous>:1:40","objectId":"-8050895672228204638.1.3","subtype":"error","type":"object"},"exceptionId":1,"lineNumber":0,"scriptId":"11","stackTrace":{"callFrames":[{"columnNumber":15,"functionName":"","lineNumber":0,"scriptId":"11","url":""},{"columnNumber":39,"functionName":"","lineNumber":0,"scriptId":"11","url":""}]},"text":"Uncaught"},"result":{"className":"TypeError","description":"TypeError: nope\n    at <anonymous>:1:16\n    at <anonymous>:1:40","objectId":"-8050895672228204638.1.2","subtype":"error","type":"object"}}'
EVALUATE_HANDLE = rb'{"result":{"className":"HTMLButtonElement","description":"button","objectId":"-8050895672228204638.1.4","subtype":"node","type":"object"}}'
CALL_FUNCTION_ON = rb'{"result":{"type":"string","value":"Main frame button"}}'
CONTENT_QUADS = rb'{"quads":[[8,79.875,131.421875,79.875,131.421875,100.875,8,100.875]]}'
EVALUATE_ARRAY_HANDLE = rb'{"result":{"className":"Array","description":"Array(2)","objectId":"-8050895672228204638.1.5","subtype":"array","type":"object"}}'
GET_PROPERTIES = rb'{"internalProperties":[{"name":"[[Prototype]]","value":{"className":"Array","description":"Array(0)","objectId":"-8050895672228204638.1.8","subtype":"array","type":"object"}}],"result":[{"configurable":true,"enumerable":true,"isOwn":true,"name":"0","value":{"className":"HTMLIFrameElement","description":"iframe#same","objectId":"-8050895672228204638.1.6","subtype":"node","type":"object"},"writable":true},{"configurable":true,"enumerable":true,"isOwn":true,"name":"1","value":{"className":"HTMLIFrameElement","description":"iframe#cross","objectId":"-8050895672228204638.1.7","subtype":"node","type":"object"},"writable":true},{"configurable":false,"enumerable":false,"isOwn":true,"name":"length","value":{"description":"2","type":"number","value":2},"writable":true}]}'
SCREENSHOT = rb'{"data":"iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAE0lEQVR4nGL5//8/AwMDEwMYAAAAAP//aYxtrAAAAAZJREFUAwAkMAMEkRkhTQAAAABJRU5ErkJggg=="}'
DESCRIBE_NODE = rb'{"node":{"attributes":["id","closed-host"],"backendNodeId":10,"childNodeCount":0,"children":[],"localName":"x-closed","nodeId":0,"nodeName":"X-CLOSED","nodeType":1,"nodeValue":"","shadowRoots":[{"backendNodeId":11,"childNodeCount":2,"children":[{"attributes":["type","button","data-expect","interactive","data-name","Closed shadow button","data-role","button"],"backendNodeId":12,"childNodeCount":1,"localName":"button","nodeId":0,"nodeName":"BUTTON","nodeType":1,"nodeValue":"","parentId":0},{"attributes":["aria-label","Closed shadow input","data-expect","interactive","data-name","Closed shadow input","data-role","textbox"],"backendNodeId":7,"childNodeCount":0,"localName":"input","nodeId":0,"nodeName":"INPUT","nodeType":1,"nodeValue":"","parentId":0,"shadowRoots":[{"backendNodeId":13,"childNodeCount":1,"localName":"","nodeId":0,"nodeName":"#document-fragment","nodeType":11,"nodeValue":"","shadowRootType":"user-agent"}]}],"localName":"","nodeId":0,"nodeName":"#document-fragment","nodeType":11,"nodeValue":"","shadowRootType":"closed"}]}}'
EVENT_LISTENER_ROWS = rb'{"listeners":[["click",16]]}'
CAPTURE_SNAPSHOT_KEPT = rb'{"documents":[{"nodes":{"backendNodeId":[14,17,15,18,19,20,21,22,23,24,25,26,27,16,28,29,30,31,32],"isClickable":{"index":[13]}}}]}'


def read(payload: bytes, type: type[Any], method: str = "Some.method") -> Any:
    """As the connection reads a reply."""
    return decode_result(payload, method, type)


# -- Runtime ----------------------------------------------------------------------------------


def test_an_evaluation_by_value_any_json() -> None:
    assert read(EVALUATE_VALUE, EvaluateResult).result.value == [True, "Snapshot frames", 1.5, None]
    assert read(CALL_FUNCTION_ON, CallFunctionOnResult).result.value == "Main frame button"
    for payload in (EVALUATE_UNDEFINED, EVALUATE_NULL):
        reply = read(payload, EvaluateResult)
        assert reply.result.value is None and reply.result.objectId is None and reply.exceptionDetails is None
    assert read(EVALUATE_NULL, EvaluateResult).result.subtype == "null"


def test_an_evaluation_that_answers_a_handle() -> None:
    element = read(EVALUATE_HANDLE, EvaluateResult).result
    assert element.subtype == "node" and element.description == "button"
    assert element.objectId == "-8050895672228204638.1.4" and element.value is None
    assert read(EVALUATE_ARRAY_HANDLE, EvaluateResult).result.subtype == "array"


def test_an_evaluation_that_threw() -> None:
    reply = read(EVALUATE_THROWS, EvaluateResult)
    assert reply.exceptionDetails is not None and reply.exceptionDetails.text == "Uncaught"
    assert reply.exceptionDetails.exception is not None
    assert (reply.exceptionDetails.exception.description or "").startswith("TypeError: nope")


def test_an_empty_evaluation_answer_reads_as_no_value() -> None:
    assert read(b"{}", EvaluateResult).result == RemoteObject()


def test_properties_of_an_array_handle() -> None:
    props = read(GET_PROPERTIES, GetPropertiesResult).result
    assert [p.name for p in props] == ["0", "1", "length"]
    assert [p.value.objectId for p in props if p.name.isdigit() and p.value is not None] == [
        "-8050895672228204638.1.6",
        "-8050895672228204638.1.7",
    ]
    assert props[2].value is not None and props[2].value.value == 2
    accessor = read(
        b'{"result":[{"name":"size","configurable":true,"enumerable":false}]}', GetPropertiesResult
    )
    assert accessor.result[0].value is None


# -- Page -------------------------------------------------------------------------------------


def test_a_frame_tree_with_a_child_frame() -> None:
    tree = read(FRAME_TREE, GetFrameTreeResult).frameTree
    assert tree.frame.id == "AEA9DE1BC8B55FEDE0F3D0B484FD4C47"
    assert [c.frame.id for c in tree.childFrames] == ["7F0642460F1CF29BB17CA82B83007F1E"]
    assert tree.childFrames[0].childFrames == []


def test_an_isolated_world_is_an_execution_context() -> None:
    # Hand-written from the protocol: the raw `cdp` method does not serve Page.createIsolatedWorld.
    assert read(b'{"executionContextId":42}', CreateIsolatedWorldResult).executionContextId == 42


def test_navigations_new_document_same_document_and_failed() -> None:
    new = read(NAVIGATE, NavigateResult)
    assert new.loaderId and new.errorText is None
    same = read(NAVIGATE_SAME_DOCUMENT, NavigateResult)
    assert same.loaderId is None and same.errorText is None
    assert read(NAVIGATE_FAILED, NavigateResult).errorText == "net::ERR_UNSAFE_PORT"


def test_navigation_history() -> None:
    history = read(HISTORY, GetNavigationHistoryResult)
    assert history.currentIndex == 1
    assert [(e.id, e.url) for e in history.entries] == [
        (17, "http://127.0.0.1:38159/snap-shadow.html#there"),
        (20, "http://127.0.0.1:9/"),
    ]


def test_a_screenshot_is_base64() -> None:
    data = base64.b64decode(read(SCREENSHOT, CaptureScreenshotResult).data)
    assert data.startswith(b"\x89PNG")


# -- DOM --------------------------------------------------------------------------------------


def test_an_iframe_owner_and_its_box() -> None:
    assert read(FRAME_OWNER, GetFrameOwnerResult).backendNodeId == 6
    assert read(BOX_MODEL, GetBoxModelResult).model.content == [
        10,
        102.875,
        430,
        102.875,
        430,
        212.875,
        10,
        212.875,
    ]
    assert read(CONTENT_QUADS, GetContentQuadsResult).quads == [
        [8, 79.875, 131.421875, 79.875, 131.421875, 100.875, 8, 100.875]
    ]
    assert read(b'{"quads":[]}', GetContentQuadsResult).quads == []


def test_a_resolved_node_is_a_handle() -> None:
    assert read(RESOLVE_NODE, ResolveNodeResult).object.objectId == "-8050895672228204638.1.1"


def test_a_described_host_shows_its_closed_shadow_root() -> None:
    node = read(DESCRIBE_NODE, DescribeNodeResult).node
    assert node.backendNodeId == 10
    assert [(r.backendNodeId, r.shadowRootType) for r in node.shadowRoots] == [(11, "closed")]
    assert read(b'{"node":{"backendNodeId":3,"nodeName":"DIV"}}', DescribeNodeResult).node.shadowRoots == []


def test_listeners_as_the_extension_projects_them() -> None:
    assert read(EVENT_LISTENER_ROWS, EventListenerRows).listeners == [("click", 16)]
    # A listener without a node (on window) comes with a null field.
    assert read(b'{"listeners":[["click",null]]}', EventListenerRows).listeners == [("click", None)]


def test_kept_paths_of_a_dom_snapshot() -> None:
    snap = read(CAPTURE_SNAPSHOT_KEPT, CaptureSnapshotResult)
    (document,) = snap.documents
    assert document is not None and document.nodes.isClickable is not None
    assert [document.nodes.backendNodeId[i] for i in document.nodes.isClickable.index] == [16]
    # Hand-written: a document with no clickable node, and one none of whose kept paths exist.
    other = read(b'{"documents":[{"nodes":{"backendNodeId":[1,2]}},null]}', CaptureSnapshotResult)
    assert other.documents[0] is not None and other.documents[0].nodes.isClickable is None
    assert other.documents[1] is None
    assert read(b"{}", CaptureSnapshotResult).documents == []


# -- shapes Chrome never sends ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "type"),
    [
        (b'{"result":"odd"}', EvaluateResult),
        (b'{"result":null}', EvaluateResult),
        (b'{"result":{"objectId":5}}', EvaluateResult),
        (b"{}", CreateIsolatedWorldResult),
        (b'{"frameTree":{"frame":{}}}', GetFrameTreeResult),
        (b'{"frameTree":{"frame":[]}}', GetFrameTreeResult),
        (b'{"object":{"subtype":"node"}}', ResolveNodeResult),
        (b'{"model":{}}', GetBoxModelResult),
        (b'{"listeners":[["click"]]}', EventListenerRows),
        (b'{"currentIndex":"1","entries":[]}', GetNavigationHistoryResult),
    ],
)
def test_a_shape_chrome_never_sends_is_a_cdp_error_or_no_answer(payload: bytes, type: type[Any]) -> None:
    with pytest.raises(CdpError, match=r"CDP error \(Some.method\): unexpected result shape"):
        read(payload, type)
    assert decode_or_none(msgspec.Raw(payload), type) is None


def test_no_answer_for_the_lenient_reader_is_only_an_odd_shape() -> None:
    assert decode_or_none(msgspec.Raw(EVALUATE_VALUE), EvaluateResult) == read(EVALUATE_VALUE, EvaluateResult)
    assert decode_or_none(msgspec.Raw(b"not json"), EvaluateResult) is None
