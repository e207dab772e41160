"""Hypothesis strategies shared by the fuzz targets: JSON of every shape, the shapes nobody
should send (deep nesting, huge strings, odd numbers), byte-level garbage, and the replies and
notices of shapes Chrome never sends that the extension might pass to the host."""

from __future__ import annotations

import json
from typing import Any

import msgspec
from hypothesis import strategies as st

from browserx.relay.protocol import Inbound


# Hypothesis keeps every str and bytes value a strategy returned, for the last 10,000 cases (to
# mutate them into new ones): with megabyte strings that is gigabytes. Big values are therefore
# returned as these subclasses, which it does not keep; they read as plain str and bytes.
class Big(str):
    __slots__ = ()


class Blob(bytes):
    __slots__ = ()


def _plain(obj: Any) -> Any:
    if isinstance(obj, str):
        return str(obj)
    if isinstance(obj, bytes):
        return bytes(obj)
    raise NotImplementedError(f"cannot encode {type(obj).__name__}")


_encoder = msgspec.json.Encoder(enc_hook=_plain)


def encode(value: Any) -> bytes:
    """msgspec's JSON encoding of a value that may hold Big strings."""
    return _encoder.encode(value)


def plain(value: Any) -> Any:
    """``value`` with every Big and Blob turned into a plain str and bytes (for code under test
    that checks exact types)."""
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, str | bytes) and type(value) not in (str, bytes):
        return _plain(value)
    return value


# Scalars as JSON has them, with the awkward corners: big and negative ints, floats, unicode
# (including what needs escaping), empty strings.
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
    st.sampled_from(["", "\x00", "\u2028", "é€😀", "\\", '"', "\n", "null", "{}", "[]"]),
)

json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(st.text(max_size=12), children, max_size=5),
    ),
    max_leaves=10,
)


def deep(depth: int, kind: str = "list", leaf: str = "1") -> str:
    """JSON nested ``depth`` levels deep (lists, objects, or both)."""
    if kind == "list":
        return "[" * depth + leaf + "]" * depth
    if kind == "object":
        return '{"a":' * depth + leaf + "}" * depth
    return '{"a":[' * (depth // 2) + leaf + "]}" * (depth // 2)


deep_json = st.builds(
    lambda depth, kind: Big(deep(depth, kind)),
    st.one_of(st.integers(1, 64), st.integers(900, 1100), st.integers(1, 20_000)),
    st.sampled_from(["list", "object", "mixed"]),
)

# A long string without asking hypothesis to draw every character of it.
huge_strings = st.builds(
    lambda ch, n: Big(ch * n),
    st.sampled_from(["x", "é", "😀", "\\", '"', "\x00", " "]),
    # Mostly tens of kilobytes; now and then over a megabyte (past the host's 1 MiB frames).
    st.one_of(*[st.integers(1_000, 70_000)] * 4, st.integers(200_000, 1_100_000)),
)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# Bytes that are not UTF-8: lone continuation bytes, overlongs, surrogates encoded in UTF-8,
# truncated sequences, 0xFF.
bad_utf8 = st.sampled_from(
    [b"\xff", b"\xfe", b"\x80", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82", b"\xf4\x90\x80\x80", b"\xc3"]
)


def garbage_bytes() -> st.SearchStrategy[bytes]:
    """Bytes that are almost JSON, or not at all."""
    return _garbage_bytes().map(Blob)


@st.composite
def _garbage_bytes(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["binary", "json", "broken-json", "bad-utf8", "deep", "text"]))
    if kind == "binary":
        return draw(st.binary(max_size=200))
    if kind == "json":
        return dumps(draw(json_values)).encode()
    if kind == "broken-json":
        text = dumps(draw(json_values)).encode()
        cut = draw(st.integers(0, len(text)))
        return text[:cut] + draw(st.sampled_from([b"", b",", b"}", b"]", b"'", b"\x00", b"trailing"]))
    if kind == "bad-utf8":
        text = dumps(draw(st.dictionaries(st.text(max_size=5), json_scalars, max_size=3))).encode()
        cut = draw(st.integers(0, len(text)))
        return text[:cut] + draw(bad_utf8) + text[cut:]
    if kind == "deep":
        return draw(deep_json).encode()
    return draw(st.text(max_size=100)).encode("utf-8", "surrogatepass")


@st.composite
def chunkings(draw: st.DrawFn, data: bytes) -> list[bytes]:
    """``data`` cut into pieces at arbitrary points (the pipe delivers bytes as it pleases)."""
    if not data:
        return []
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(data) - 1)), max_size=12))))
    pieces, last = [], 0
    for cut in [*cuts, len(data)]:
        if cut > last:
            pieces.append(data[last:cut])
            last = cut
    return pieces


# -- what the extension might send (test_fuzz_relay.py, test_fuzz_host.py) ------------------------

PENDING = (1, 2, 3, 4)  # the ids of the four requests each relay case starts, in order
INBOUND_FIELDS = list(Inbound.__struct_fields__)
EVENTS = [
    "Target.attachedToTarget",
    "Target.detachedFromTarget",
    "Page.frameNavigated",
    "DOM.documentUpdated",
    "Page.loadEventFired",
    "Runtime.executionContextCreated",
    "Page.lifecycleEvent",
]


reply_ids = st.one_of(
    st.sampled_from(PENDING),
    st.integers(-5, 10),
    st.integers(),
    st.integers(min_value=2**63, max_value=10**300),
    json_values,
)


def _raw(text: str) -> Any:
    return msgspec.Raw(text.encode())


# Mostly ordinary JSON; deep nesting and huge strings now and then (each one is costly).
payloads = st.one_of(
    *[json_values] * 6,
    deep_json.map(_raw),
    huge_strings,
    st.builds(lambda s: {"data": s}, huge_strings),
)


@st.composite
def replies(draw: st.DrawFn) -> bytes:
    """A reply to a request (one of PENDING, or an id nobody asked for) of any shape."""
    body: dict[str, Any] = {"id": draw(reply_ids)}
    for key in draw(st.sets(st.sampled_from(["result", "error", "type", "chunk", "data", "tabId"]))):
        body[key] = draw(payloads if key in ("result", "error", "data") else json_values)
    if draw(st.booleans()):
        body["error"] = draw(
            st.one_of(
                st.text(max_size=60),
                st.sampled_from(["No tab with given id 1", "Debugger is not attached", "method not allowed"]),
                deep_json,
                huge_strings,
                st.builds(lambda v: json.dumps({"code": -1, "message": v, "data": v}), json_values),
            )
        )
    return Blob(encode(body))


@st.composite
def notices(draw: st.DrawFn) -> bytes:
    """A notice (event, detach, tab change, hello) of any shape."""
    body: dict[str, Any] = {
        "type": draw(st.one_of(st.sampled_from(["event", "detached", "tab", "hello"]), json_values)),
    }
    fields = draw(st.sets(st.sampled_from(INBOUND_FIELDS), max_size=6))
    for key in fields:
        body[key] = draw(payloads if key in ("params", "result") else json_values)
    if draw(st.booleans()):
        body["tabId"] = draw(st.sampled_from([1, 2, -1]))
    if draw(st.booleans()):
        body["method"] = draw(st.one_of(st.sampled_from(EVENTS), st.text(max_size=20)))
        body["params"] = draw(
            st.one_of(
                payloads,
                st.fixed_dictionaries(
                    {},
                    optional={
                        "sessionId": json_values,
                        "targetInfo": st.one_of(
                            json_values, st.fixed_dictionaries({"targetId": json_values})
                        ),
                        "targetId": json_values,
                    },
                ),
            )
        )
    if body.get("type") == "tab":
        body["event"] = draw(st.sampled_from(["removed", "replaced", "updated"]))
    return Blob(encode(body))
