"""Fuzzing the real host process (`python -m browserx.host`) from both of its ends at once: this
test is the browser on its stdin/stdout (answering what the host asks with good, garbage, chunked
and broken replies, and sending notices of shapes Chrome never sends) and an agent on its control
socket. Every agent request gets one well-formed response (never `internal`), nothing but whole
frames ever appears on the host's stdout, the host stays up, its log stays small, and its memory
does not grow with the cases."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz import strategies as fs
from tests.fuzz.harness import STATS, case, check_response, examples, hwm_of, mb, new_loop, rss_of, run
from tests.fuzz.strategies import notices, replies

HEADER = struct.Struct("<I")
MAX_OUTBOUND = 1024 * 1024
HOST_REQUEST_TYPES = {
    "cdp", "batch", "attach", "detach", "tabs", "effect", "ping", "watermark", "activity", "agentState", "ask", "askDone",
}  # fmt: skip


@dataclass
class Host:
    proc: subprocess.Popen[bytes]
    socket: str
    log: Path
    stdin: asyncio.StreamWriter
    frames: asyncio.Queue[dict[str, Any]]
    reader_task: asyncio.Task[None] | None = None
    stdout_bytes: int = 0
    stdout_frames: int = 0
    rss: list[int] = field(default_factory=list)


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = new_loop()
    yield loop
    loop.close()


async def read_stdout(host: Host, reader: asyncio.StreamReader) -> None:
    """The browser's end of the pipe, strict: every byte must belong to a whole frame of at most
    1 MiB holding one JSON object that is a host request."""
    while True:
        try:
            header = await reader.readexactly(HEADER.size)
        except asyncio.IncompleteReadError as exc:
            assert not exc.partial, f"stdout ended inside a frame header: {exc.partial!r}"
            return
        (length,) = HEADER.unpack(header)
        assert HEADER.size + length < MAX_OUTBOUND, f"frame of {length} bytes on stdout"
        body = await reader.readexactly(length)
        message = msgspec.json.decode(body)
        assert isinstance(message, dict), message
        assert type(message.get("id")) is int and message.get("type") in HOST_REQUEST_TYPES, message
        host.stdout_bytes += HEADER.size + length
        host.stdout_frames += 1
        await host.frames.put(message)


async def start_host(directory: Path) -> Host:
    runtime = directory / "run"
    config = directory / "config.json"
    config.write_text(json.dumps({"allow_raw_cdp": True}))
    env = {
        **os.environ,
        "BROWSERX_RUNTIME_DIR": str(runtime),
        "BROWSERX_CONFIG": str(config),
        "BROWSERX_LOG_LEVEL": "info",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "browserx.host"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=4 * MAX_OUTBOUND)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), proc.stdout)
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, proc.stdin)
    writer = asyncio.StreamWriter(transport, protocol, None, loop)
    # The extension's hello first, as the browser's end sends it: the host serves once it came.
    writer.write(frame(b'{"type": "hello", "version": "0.1.0", "userAgent": "fuzz", "watermarks": {}}'))
    socket_path = runtime / f"host-{proc.pid}.sock"
    deadline = time.monotonic() + 20
    while not socket_path.exists():
        assert proc.poll() is None, "the host exited at start-up"
        assert time.monotonic() < deadline, "the host did not open its control socket"
        await asyncio.sleep(0.05)
    host = Host(proc, str(socket_path), runtime / f"host-{proc.pid}.log", writer, asyncio.Queue())
    host.reader_task = asyncio.ensure_future(read_stdout(host, reader))
    return host


@pytest.fixture(scope="module")
def host(loop: asyncio.AbstractEventLoop) -> Iterator[Host]:
    with tempfile.TemporaryDirectory(prefix="bx-fuzz-host-", dir="/tmp") as directory:
        running = run(loop, start_host(Path(directory)), limit=30)
        running.rss.append(rss_of(running.proc.pid))
        try:
            yield running
        finally:
            finish(loop, running)


def finish(loop: asyncio.AbstractEventLoop, host: Host) -> None:
    """Stop the host; check it ended well, wrote only frames, and kept its log small."""
    rss_end, hwm = rss_of(host.proc.pid), hwm_of(host.proc.pid)
    alive = host.proc.poll() is None
    host.proc.send_signal(signal.SIGTERM)
    code = host.proc.wait(20)
    assert host.reader_task is not None
    run(loop, host.reader_task, limit=10)  # the rest of stdout: whole frames, then EOF
    host.stdin.close()
    lines = host.log.read_text(encoding="utf-8", errors="replace").splitlines() if host.log.exists() else []
    longest = max((len(line) for line in lines), default=0)
    tracebacks = sum("Traceback (most recent call last)" in line for line in lines)
    STATS.extra["host process"] = (
        f"RSS {mb(host.rss[0])} at start -> {mb(rss_end)} after the cases "
        f"(samples: {', '.join(mb(r) for r in host.rss[1:][-5:]) or '-'}), peak {mb(hwm)}; "
        f"exit code {code}; stdout {host.stdout_frames:,} frames "
        f"({host.stdout_bytes:,} bytes), nothing else; log {len(lines):,} lines, longest {longest} "
        f"bytes, tracebacks {tracebacks}"
    )
    assert alive, "the host died during the cases"
    assert code == 0, f"host exit code {code}"
    assert tracebacks == 0, "the host logged a traceback"
    assert longest <= 2048, f"host log line of {longest} bytes"


# -- the browser's side ---------------------------------------------------------------------------


def frame(body: bytes) -> bytes:
    return HEADER.pack(len(body)) + body


def good_answer(request: dict[str, Any]) -> dict[str, Any]:
    kind, method = request.get("type"), request.get("method")
    if kind == "tabs":
        return {
            "tabs": [{"tabId": 1, "active": True, "url": "https://example.com/"}],
            "lastFocusedWindowId": 1,
        }
    if kind == "batch":
        return {"results": [{"result": {}} for _ in request.get("commands", [])]}
    if method == "Runtime.evaluate":
        return {"result": {"type": "boolean", "value": False}}
    return {}


def answers(request: dict[str, Any], plan: str, noise: Any) -> list[bytes]:
    """The frames that answer one host request according to ``plan``."""
    msg_id = request["id"]
    good = json.dumps({"id": msg_id, "result": good_answer(request)})
    if plan == "good":
        return [frame(good.encode())]
    if plan == "error":
        return [frame(json.dumps({"id": msg_id, "error": str(noise)[:5000]}).encode())]
    if plan == "garbage-id":  # a reply under its id that cannot be read
        return [frame(json.dumps({"id": msg_id, "result": 1, "error": noise}).encode())]
    if plan == "wrong-shape":  # a readable reply with a result of the wrong shape
        return [frame(json.dumps({"id": msg_id, "result": noise}).encode())]
    pieces = [good[i : i + 7] for i in range(0, len(good), 7)]
    chunks = [{"id": msg_id, "chunk": i, "chunks": len(pieces), "data": p} for i, p in enumerate(pieces)]
    if plan == "chunked-broken":
        chunks = chunks[1:] + chunks[:1]
    return [frame(json.dumps(c).encode()) for c in chunks]


PLANS = ["good", "good", "error", "garbage-id", "wrong-shape", "chunked", "chunked-broken"]


@st.composite
def agent_requests(draw: st.DrawFn) -> dict[str, Any]:
    # Not `snapshot`: its capture reads CDP results whose shapes these fake answers do not mimic.
    method = draw(st.sampled_from(["status", "tabs", "targets", "cdp", "cdp"]))
    params: dict[str, Any] = {}
    if method in ("targets", "cdp") and draw(st.booleans()):
        params["tab"] = draw(st.sampled_from([1, 2]))
    if method == "cdp":
        params["method"] = draw(st.sampled_from(["Runtime.evaluate", "DOM.getDocument", "Page.getFrameTree"]))
        params["params"] = draw(st.dictionaries(st.text(max_size=8), fs.json_values, max_size=3))
        params["timeout"] = 2
    return {"id": draw(st.integers(1, 10**6)), "method": method, "params": params}


async def exchange(
    host: Host, request: dict[str, Any], plans: list[str], noise: list[Any], notices_: list[bytes]
) -> dict[str, Any]:
    reader, writer = await asyncio.open_unix_connection(host.socket, limit=16 * 2**20)
    try:
        for body in notices_:
            host.stdin.write(frame(body))
        await host.stdin.drain()  # at the host's pace: nothing piles up in this process
        writer.write(msgspec.json.encode(request) + b"\n")
        await writer.drain()
        response_task = asyncio.ensure_future(reader.readline())
        served = 0
        while not response_task.done():
            get = asyncio.ensure_future(host.frames.get())
            done, _ = await asyncio.wait({get, response_task}, return_when=asyncio.FIRST_COMPLETED)
            if get not in done:
                get.cancel()
                break
            asked = get.result()
            plan = plans[served % len(plans)] if served < 6 else "good"  # then let it finish
            for data in answers(asked, plan, noise[served % len(noise)]):
                host.stdin.write(data)
            await host.stdin.drain()
            served += 1
        line = await response_task
        return check_response(line)
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


@given(
    request=agent_requests(),
    plans=st.lists(st.sampled_from(PLANS), min_size=1, max_size=4),
    noise=st.lists(st.one_of(fs.json_values, fs.deep_json, st.text(max_size=50)), min_size=1, max_size=3),
    notices_=st.lists(st.one_of(notices(), replies(), fs.garbage_bytes()), max_size=4),
)
@examples(ci=40, full=8_000)
def test_the_host_answers_every_agent_request_whatever_the_browser_sends(
    loop: asyncio.AbstractEventLoop,
    host: Host,
    request: dict[str, Any],
    plans: list[str],
    noise: list[Any],
    notices_: list[bytes],
) -> None:
    with case("host.process"):
        assert host.proc.poll() is None, "the host is gone"
        # A reader that died on a frame it refused fails every later case at once (not after
        # waiting out each exchange's limit while hypothesis shrinks).
        assert host.reader_task is not None
        if host.reader_task.done():
            raise AssertionError(f"stdout reader ended: {host.reader_task.exception()!r}")
        response = run(loop, exchange(host, request, plans, noise, notices_), limit=30)
        if response["ok"] is False:
            assert response["error"]["code"] != "internal", response
        assert response["id"] == request["id"]
        assert host.reader_task is not None
        assert not host.reader_task.done() or host.reader_task.exception() is None
    if STATS.target("host.process").cases % 200 == 0:
        host.rss.append(rss_of(host.proc.pid))
