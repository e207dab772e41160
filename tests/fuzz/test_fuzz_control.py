"""Fuzzing the control socket (host/browserx/control/server.py) over a real Unix socket, with the
real method table and params models but fake handlers behind them: every request line gets
exactly one well-formed response, bad input gets a structured error (never `internal`) and a short
log line at most, the work per connection is bounded, and the server keeps serving."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import tempfile
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any, cast

import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st

from browserx.control import server as server_module
from browserx.control.api import build_methods
from browserx.control.schemas import Params
from browserx.control.server import ControlServer, Method
from browserx.settings import HostSettings
from browserx.tabs.registry import TabRegistry
from tests.fuzz import strategies as fs
from tests.fuzz.harness import (
    LOGS,
    STATS,
    assert_logs_small_since,
    case,
    check_response,
    examples,
    mb,
    new_loop,
    run,
    settled_rss,
)

LIMIT = 64 * 1024  # the fuzz server's line limit (the real one is 4 MiB): over-long lines stay cheap


class SlowParams(Params):
    ms: int = 0


class Backend:
    """Fake handlers behind the real method table; counts how many run at once."""

    def __init__(self) -> None:
        self.running = 0
        self.most = 0
        real = build_methods(
            cast(TabRegistry, SimpleNamespace(conn=None, services={})), "/nowhere", HostSettings()
        )
        self.methods = {name: Method(m.params, self._fake(name), m.doc) for name, m in real.items()}
        self.methods["slow"] = Method(SlowParams, self._slow)
        self.real_params = {name: m.params for name, m in real.items()}

    def _fake(self, name: str) -> Any:
        async def handler(p: pydantic.BaseModel) -> dict[str, Any]:
            return {"method": name, "fields": sorted(p.model_fields_set)}

        return handler

    async def _slow(self, p: SlowParams) -> dict[str, Any]:
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            await asyncio.sleep(p.ms / 1000)
            return {"slept": p.ms}
        finally:
            self.running -= 1


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = new_loop()
    yield loop
    loop.close()


@pytest.fixture(scope="module")
def served(loop: asyncio.AbstractEventLoop) -> Iterator[tuple[ControlServer, Backend]]:
    backend = Backend()
    with (
        tempfile.TemporaryDirectory(prefix="bx-fuzz-", dir="/tmp") as directory,
        pytest.MonkeyPatch.context() as patch,
    ):
        patch.setattr(server_module, "MAX_REQUEST_BYTES", LIMIT)
        server = ControlServer(os.path.join(directory, "control.sock"), backend.methods)
        loop.run_until_complete(server.start())
        try:
            yield server, backend
        finally:
            loop.run_until_complete(server.close())
            loop.run_until_complete(asyncio.sleep(0))


# -- what a client may send -------------------------------------------------------------------

_PARAMS: dict[str, type[pydantic.BaseModel]] = Backend().real_params
_METHODS = sorted(_PARAMS)


@st.composite
def request_lines(draw: st.DrawFn, request_id: int) -> tuple[bytes, int | None]:
    """One line (without its newline) and the id its response must carry when that is known."""
    methods = _METHODS
    kind = draw(
        st.sampled_from(
            ["valid", "valid", "wrong-types", "unknown-method", "garbage", "huge", "deep", "blank"]
        )
    )
    if kind == "valid":
        method = draw(st.sampled_from(methods))
        fields = sorted(_PARAMS[method].model_fields)
        params = draw(
            st.dictionaries(
                st.sampled_from([*fields, "colour"]) if fields else st.just("colour"),
                st.one_of(fs.json_values, st.integers(0, 50), st.sampled_from(["text", "down", "page"])),
                max_size=4,
            )
        )
        body: Any = {"id": request_id, "method": method, "params": params}
        if draw(st.booleans()):
            body.pop("params")
        return fs.dumps(body).encode(), request_id
    if kind == "wrong-types":
        body = {
            "id": draw(st.one_of(st.just(request_id), fs.json_values)),
            "method": draw(st.one_of(st.sampled_from(methods), fs.json_values)),
            "params": draw(fs.json_values),
        }
        for key in draw(st.sets(st.sampled_from(["id", "method", "params"]))):
            body.pop(key)
        body.update(draw(st.dictionaries(st.text(max_size=6), fs.json_scalars, max_size=2)))
        line = fs.dumps(body).encode()
        known = request_id if body.get("id") == request_id and type(body.get("id")) is int else None
        return line, known
    if kind == "unknown-method":
        name = draw(st.one_of(st.text(max_size=30), fs.huge_strings))
        return fs.dumps({"id": request_id, "method": name}).encode(), request_id
    if kind == "garbage":
        return draw(fs.garbage_bytes()), None
    if kind == "huge":
        huge = draw(fs.huge_strings)
        where = draw(st.sampled_from(["id", "method", "value", "key"]))
        if where == "id":
            return fs.dumps({"id": huge, "method": "status"}).encode(), None
        if where == "method":
            return fs.dumps({"id": request_id, "method": huge}).encode(), None
        if where == "value":
            body = {"id": request_id, "method": "type", "params": {"id": 1, "text": huge}}
        else:
            body = {"id": request_id, "method": "snapshot", "params": {huge: 1}}
        return fs.dumps(body).encode(), None
    if kind == "deep":
        nested = draw(fs.deep_json)
        where = draw(st.sampled_from(["line", "id", "params", "value"]))
        if where == "line":
            return nested.encode(), None
        if where == "id":
            return f'{{"id": {nested}, "method": "status"}}'.encode(), None
        if where == "params":
            return f'{{"id": {request_id}, "method": "cdp", "params": {nested}}}'.encode(), None
        return (
            f'{{"id": {request_id}, "method": "cdp", "params": {{"method": "DOM.enable", "params": {{"x": {nested}}}}}}}'
        ).encode(), None
    return draw(st.sampled_from([b"", b" ", b"\t", b"\r", b" \r \t"])), None


@st.composite
def conversations(draw: st.DrawFn) -> tuple[list[tuple[bytes, int | None]], bytes, bool]:
    """Lines for one connection, a last piece without a newline, and whether to stop reading."""
    lines = [draw(request_lines(request_id=1000 + i)) for i in range(draw(st.integers(1, 12)))]
    tail = draw(st.one_of(st.just(b""), st.just(b"   "), fs.garbage_bytes()))
    return lines, tail.replace(b"\n", b" "), draw(st.booleans())


# -- the checks -------------------------------------------------------------------------------


async def converse(path: str, payload: bytes, shut: bool = True) -> list[bytes]:
    """Send ``payload``, half-close, and read every response line until the server closes."""
    reader, writer = await asyncio.open_unix_connection(path, limit=8 * 1024 * 1024)
    try:

        async def send() -> None:
            writer.write(payload)
            await writer.drain()
            if shut:
                writer.write_eof()

        sender = asyncio.ensure_future(send())
        lines = []
        while True:
            line = await reader.readline()
            if not line:
                break
            lines.append(line)
        await sender
        return lines
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def still_serving(path: str) -> None:
    lines = await converse(path, b'{"id": "ping", "method": "status"}\n')
    assert len(lines) == 1
    assert check_response(lines[0]) == {
        "id": "ping",
        "ok": True,
        "result": {"method": "status", "fields": []},
    }


@given(conversation=conversations())
@examples(ci=200, full=12_000)
def test_every_request_line_gets_exactly_one_well_formed_response(
    loop: asyncio.AbstractEventLoop,
    served: tuple[ControlServer, Backend],
    conversation: tuple[list[tuple[bytes, int | None]], bytes, bool],
) -> None:
    server, _ = served
    lines, tail, _ = conversation
    payload = b"".join(line.replace(b"\n", b" ") + b"\n" for line, _ in lines) + tail
    expected = sum(1 for line, _ in lines if line.replace(b"\n", b" ").strip()) + (1 if tail.strip() else 0)
    mark = LOGS.mark()
    with case("control.requests"):
        got = run(loop, converse(server.path, payload), limit=20)
        responses = [check_response(line) for line in got]
        assert len(responses) == expected, (len(responses), expected)
        ids = [r["id"] for r in responses]
        for line, known in lines:
            if known is not None and len(line) < LIMIT:  # an over-long line is not even parsed
                assert known in ids
        assert_logs_small_since(mark)
        assert not server._clients, "a finished connection left its task behind"
        if STATS.target("control.requests").cases % 10 == 1:
            run(loop, still_serving(server.path), limit=10)


# -- floods -----------------------------------------------------------------------------------

MALFORMED = [b"not json", b'{"id": 1, "method": ', b"\xff\xfe", b"[1, 2]", b'{"id": 2}', b"{" * 2000]


def test_thousands_of_malformed_lines_keep_memory_bounded(
    loop: asyncio.AbstractEventLoop, served: tuple[ControlServer, Backend]
) -> None:
    """Four rounds of 3,000 malformed messages on one connection each: one error per line, and
    the process's memory does not grow round after round."""
    server, _ = served
    payload = b"".join(MALFORMED[i % len(MALFORMED)] + b"\n" for i in range(3000))
    rss = []
    for _ in range(4):
        with case("control.flood"):
            got = run(loop, converse(server.path, payload), limit=60)
            assert len(got) == 3000
            for line in got:
                assert check_response(line)["error"]["code"] == "bad_request"
            rss.append(settled_rss())
    STATS.extra["control flood RSS (4 rounds of 3,000 malformed lines)"] = " -> ".join(mb(r) for r in rss)
    assert rss[-1] - rss[0] < 8 * 2**20, [mb(r) for r in rss]


def test_requests_in_flight_per_connection_are_bounded(
    loop: asyncio.AbstractEventLoop, served: tuple[ControlServer, Backend]
) -> None:
    server, backend = served
    backend.most = 0
    payload = b"".join(b'{"id": %d, "method": "slow", "params": {"ms": 5}}\n' % i for i in range(200))
    with case("control.inflight"):
        got = run(loop, converse(server.path, payload), limit=30)
        assert sorted(check_response(line)["id"] for line in got) == list(range(200))
        assert 1 < backend.most <= server_module.MAX_INFLIGHT


def test_a_client_that_never_reads_is_held_back_and_others_are_served(
    loop: asyncio.AbstractEventLoop, served: tuple[ControlServer, Backend]
) -> None:
    """A client writing requests as fast as it can without reading a single answer: the server
    stops reading from it (its writes block), another connection is served meanwhile, and once
    the greedy client reads, it gets every answer."""
    server, _ = served
    line = b'{"id": 1, "method": "slow", "params": {"ms": 0}}\n'
    greedy = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    greedy.connect(server.path)
    greedy.setblocking(False)
    sent = 0
    rss_before = settled_rss()

    async def flood() -> int:
        nonlocal sent
        deadline = time.monotonic() + 3
        quiet = 0
        while time.monotonic() < deadline and quiet < 20:  # until the server stops taking bytes
            try:
                sent += greedy.send(line * 64)
                quiet = 0
            except BlockingIOError:
                quiet += 1
                await asyncio.sleep(0.01)
        return sent

    with case("control.greedy"):
        try:
            total = run(loop, flood(), limit=10)
            assert total < 10_000_000, "the server kept reading from a client that never reads"
            run(loop, still_serving(server.path), limit=5)
            growth = settled_rss() - rss_before
            assert growth < 32 * 2**20, mb(growth)
            greedy.shutdown(socket.SHUT_WR)
            buffer = run(loop, read_all(loop, greedy), limit=30)
            full, partial = divmod(total, len(line))
            answers = buffer.splitlines()
            assert len(answers) == full + (1 if partial else 0), (len(answers), full, partial)
            assert sum(json.loads(a)["ok"] for a in answers) == full
        finally:
            greedy.close()
    STATS.extra["control greedy client"] = f"{total // len(line):,} requests held back, RSS +{mb(growth)}"


async def read_all(loop: asyncio.AbstractEventLoop, sock: socket.socket) -> bytes:
    buffer = bytearray()
    while chunk := await loop.sock_recv(sock, 1 << 16):
        buffer += chunk
    return bytes(buffer)
