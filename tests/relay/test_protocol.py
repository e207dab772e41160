"""The host ↔ extension wire protocol: the CDP allowlist agrees with the extension's, and every
kind of inbound message decodes into Inbound."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from browserx.errors import CdpError
from browserx.framing import decode_body
from browserx.relay.protocol import (
    CDP_ALLOWLIST,
    EMPTY,
    AttachedToTarget,
    Inbound,
    TabsResult,
    decode_raw,
)

REPO = Path(__file__).resolve().parents[2]
ALLOWLIST_JS = REPO / "host" / "browserx" / "extension" / "allowlist.js"


def _js_allowlist() -> list[str]:
    text = ALLOWLIST_JS.read_text(encoding="utf-8")
    match = re.search(r"const\s+CDP_ALLOWLIST\s*=\s*\[(?P<body>.*?)\];", text, re.S)
    assert match, "CDP_ALLOWLIST array not found in extension/allowlist.js"
    body = re.sub(r"//[^\n]*", "", match.group("body"))
    names = re.findall(r"""["']([^"']+)["']""", body)
    # Nothing but quoted strings, commas and whitespace inside the array.
    leftover = re.sub(r"""["'][^"']+["']|,|\s""", "", body)
    assert leftover == "", f"unparsed text in allowlist.js: {leftover!r}"
    return names


def test_allowlist_matches_the_extension() -> None:
    names = _js_allowlist()
    assert len(names) == len(set(names)), "duplicates in allowlist.js"
    assert set(names) == set(CDP_ALLOWLIST), {
        "only in js": sorted(set(names) - CDP_ALLOWLIST),
        "only in python": sorted(CDP_ALLOWLIST - set(names)),
    }


def test_allowlist_entries_look_like_cdp_methods() -> None:
    for name in CDP_ALLOWLIST:
        assert re.fullmatch(r"[A-Z][A-Za-z]+\.[a-z][A-Za-z]+", name), name


def test_allowlist_excludes_dangerous_methods() -> None:
    for name in (
        "Browser.close",
        "Target.createTarget",  # tabs are opened through the extension's tabs API, not CDP
        "Storage.clearDataForOrigin",
    ):
        assert name not in CDP_ALLOWLIST


# -- Inbound -----------------------------------------------------------------------------------


def test_result_reply() -> None:
    msg = decode_body(b'{"id": 3, "result": {"value": [1, 2], "s": "\xc3\xa9"}}', Inbound)
    assert msg.is_reply
    assert msg.id == 3
    assert msg.error is None
    assert isinstance(msg.result, msgspec.Raw)
    assert decode_raw(msg.result) == {"value": [1, 2], "s": "é"}


def test_error_reply() -> None:
    msg = decode_body(b'{"id": 4, "error": "No tab with given id 5"}', Inbound)
    assert msg.is_reply
    assert msg.error == "No tab with given id 5"
    assert msg.result == EMPTY
    assert not msg.result


def test_reply_result_decodes_into_a_struct() -> None:
    msg = decode_body(
        b'{"id": 1, "result": {"tabs": [{"tabId": 5, "windowId": 2, "active": true}], '
        b'"lastFocusedWindowId": 2}}',
        Inbound,
    )
    tabs = decode_raw(msg.result, TabsResult)
    assert tabs.lastFocusedWindowId == 2
    assert tabs.tabs[0].tabId == 5
    assert tabs.tabs[0].active is True
    assert tabs.tabs[0].url == ""


def test_event_notice() -> None:
    msg = decode_body(
        b'{"type": "event", "tabId": 7, "sessionId": "S1", "method": "Target.attachedToTarget",'
        b' "params": {"sessionId": "S2", "targetInfo": {"targetId": "T", "type": "iframe"}}}',
        Inbound,
    )
    assert not msg.is_reply
    assert (msg.type, msg.tabId, msg.sessionId, msg.method) == ("event", 7, "S1", "Target.attachedToTarget")
    attached = decode_raw(msg.params, AttachedToTarget)
    assert attached.sessionId == "S2"
    assert attached.targetInfo.targetId == "T"
    assert attached.targetInfo.type == "iframe"


def test_detached_notice() -> None:
    msg = decode_body(b'{"type": "detached", "tabId": 7, "reason": "canceled_by_user"}', Inbound)
    assert not msg.is_reply
    assert (msg.type, msg.tabId, msg.reason) == ("detached", 7, "canceled_by_user")


def test_tab_notices() -> None:
    replaced = decode_body(b'{"type": "tab", "event": "replaced", "tabId": 9, "removedTabId": 5}', Inbound)
    assert (replaced.event, replaced.tabId, replaced.removedTabId) == ("replaced", 9, 5)
    updated = decode_body(
        b'{"type": "tab", "event": "updated", "tabId": 9, "status": "complete", "url": "https://a/",'
        b' "title": "A"}',
        Inbound,
    )
    assert (updated.status, updated.url, updated.title) == ("complete", "https://a/", "A")


def test_hello_notice() -> None:
    msg = decode_body(
        b'{"type": "hello", "version": "0.1.0", "userAgent": "UA", "extensionId": "abc"}', Inbound
    )
    assert not msg.is_reply
    assert (msg.version, msg.userAgent, msg.extensionId) == ("0.1.0", "UA", "abc")


def test_chunk_message() -> None:
    msg = decode_body(b'{"id": 8, "chunk": 1, "chunks": 3, "data": "{\\"id\\": 8, "}', Inbound)
    assert (msg.id, msg.chunk, msg.chunks) == (8, 1, 3)
    assert msg.data == '{"id": 8, '


def test_unknown_fields_are_ignored() -> None:
    msg = decode_body(b'{"id": 2, "result": {}, "someFutureField": [1]}', Inbound)
    assert msg.is_reply
    assert decode_raw(msg.result) == {}


def test_empty_result_object_is_present_not_absent() -> None:
    msg = decode_body(b'{"id": 2, "result": {}}', Inbound)
    assert bytes(msg.result) == b"{}"


# -- decode_raw --------------------------------------------------------------------------------


class _AllDefaults(msgspec.Struct):
    a: int = 1
    b: str = "x"


@pytest.mark.parametrize("raw", [None, EMPTY, msgspec.Raw(b"")])
def test_decode_raw_of_absent_payload_is_an_empty_object(raw: msgspec.Raw | None) -> None:
    assert decode_raw(raw) == {}
    assert decode_raw(raw, _AllDefaults) == _AllDefaults()


def test_decode_raw_of_absent_payload_into_a_struct_with_required_fields_fails() -> None:
    with pytest.raises(CdpError, match="unexpected shape"):
        decode_raw(EMPTY, TabsResult)


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        (msgspec.Raw(b'{"tabs": 5}'), "unexpected shape"),
        (msgspec.Raw(b'{"tabs": [{"tabId": "one"}]}'), "unexpected shape"),
        (msgspec.Raw(b'{"x": ' + b"[" * 5000 + b"]" * 5000 + b"}"), "nested too deeply"),
        (msgspec.Raw(b"{"), "unreadable payload"),
    ],
)
def test_decode_raw_of_a_payload_chrome_never_sends_is_a_cdp_error(raw: msgspec.Raw, fragment: str) -> None:
    with pytest.raises(CdpError, match=fragment):
        decode_raw(raw, TabsResult)


def test_decode_raw_of_present_payload() -> None:
    assert decode_raw(msgspec.Raw(b'{"a": 5}'), _AllDefaults) == _AllDefaults(a=5)
    assert decode_raw(msgspec.Raw(b'{"k": [true]}')) == {"k": [True]}


def test_absent_params_on_a_notice() -> None:
    msg = decode_body(b'{"type": "event", "tabId": 1, "method": "Page.loadEventFired"}', Inbound)
    assert not msg.params
    assert decode_raw(msg.params) == {}
