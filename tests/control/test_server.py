"""ControlServer on a real Unix socket (in a background event-loop thread), talked to with raw
sockets and with browserx.Client."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest

import browserx
from browserx.control import server as server_module
from browserx.control.schemas import Params
from browserx.control.server import ControlServer, Method
from browserx.errors import (
    BadRequest,
    BrowserxError,
    HostDisconnected,
    TabNotFound,
    UnknownMethod,
)

# -- the fake methods --------------------------------------------------------------------------


class EchoParams(Params):
    text: str
    times: int = 1


class GateParams(Params):
    name: str


class NoParams(Params):
    pass


class Methods:
    """Fake control methods; the gates let a test hold a request open until another one arrives."""

    def __init__(self) -> None:
        self.gates: dict[str, asyncio.Event] = {}
        self.started: set[str] = set()  # held requests that began (read from the test's thread)
        self.outcome: dict[str, str] = {}  # held request → "done" or "cancelled"

    def gate(self, name: str) -> asyncio.Event:
        return self.gates.setdefault(name, asyncio.Event())

    async def echo(self, p: EchoParams) -> dict[str, Any]:
        return {"text": p.text * p.times}

    async def boom(self, _: NoParams) -> None:
        raise TabNotFound("No tab with id 7; open tabs: 1, 2.", tab=7)

    async def crash(self, _: NoParams) -> None:
        raise ValueError("kaboom")

    async def wait(self, p: GateParams) -> dict[str, Any]:
        await asyncio.wait_for(self.gate(p.name).wait(), 2)
        return {"opened": p.name}

    async def open(self, p: GateParams) -> dict[str, Any]:
        self.gate(p.name).set()
        return {"open": p.name}

    async def slow(self, p: EchoParams) -> dict[str, Any]:
        await asyncio.sleep(0.02)
        return {"text": p.text}

    async def weird(self, _: NoParams) -> Any:
        return object()  # not JSON-encodable

    async def held(self, p: GateParams) -> dict[str, Any]:
        """Runs until its gate opens (``read``, ``act``), saying how it ended."""
        self.started.add(p.name)
        try:
            await asyncio.wait_for(self.gate(p.name).wait(), 5)
        except asyncio.CancelledError:
            self.outcome[p.name] = "cancelled"
            raise
        self.outcome[p.name] = "done"
        return {"held": p.name}

    def table(self) -> dict[str, Method]:
        return {
            "echo": Method(EchoParams, self.echo, "Echo text."),
            "boom": Method(NoParams, self.boom),
            "crash": Method(NoParams, self.crash),
            "wait": Method(GateParams, self.wait),
            "open": Method(GateParams, self.open),
            "slow": Method(EchoParams, self.slow),
            "weird": Method(NoParams, self.weird),
            "read": Method(GateParams, self.held, abandon=True),
            "act": Method(GateParams, self.held),
        }


KNOWN = "act, boom, crash, echo, open, read, slow, wait, weird"


class ServerThread:
    """A ControlServer running in its own event loop on a background thread."""

    def __init__(self, path: str, methods: Methods | None = None) -> None:
        self.path = path
        self.methods = methods or Methods()
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="control-server", daemon=True)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # surfaced by start()/stop()
            self._error = exc
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        server = ControlServer(self.path, self.methods.table())
        await server.start()
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            await server.close()

    def start(self) -> ServerThread:
        self._thread.start()
        assert self._ready.wait(5), "server did not start"
        if self._error is not None:
            raise self._error
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(5)
        assert not self._thread.is_alive(), "server thread did not stop"
        if self._error is not None:
            raise self._error


class Raw:
    """A raw newline-JSON connection to the control socket."""

    def __init__(self, path: str, timeout: float = 2.0) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.file = self.sock.makefile("rb")

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def request(self, obj: Any) -> None:
        self.send(json.dumps(obj).encode() + b"\n")

    def recv(self) -> dict[str, Any]:
        line = self.file.readline()
        assert line.endswith(b"\n"), f"no complete response line: {line!r}"
        response: dict[str, Any] = json.loads(line)
        return response

    def call(self, obj: Any) -> dict[str, Any]:
        self.request(obj)
        return self.recv()

    def close(self) -> None:
        self.file.close()
        self.sock.close()

    def __enter__(self) -> Raw:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


@pytest.fixture
def sock_path() -> Iterator[str]:
    # Unix socket paths are limited to ~108 bytes; pytest's tmp_path can be longer.
    with tempfile.TemporaryDirectory(prefix="bx-", dir="/tmp") as directory:
        yield os.path.join(directory, "control.sock")


@pytest.fixture
def server(sock_path: str) -> Iterator[ServerThread]:
    running = ServerThread(sock_path).start()
    try:
        yield running
    finally:
        running.stop()


def assert_still_serving(conn: Raw, request_id: int = 99) -> None:
    assert conn.call({"id": request_id, "method": "echo", "params": {"text": "ok"}}) == {
        "id": request_id,
        "ok": True,
        "result": {"text": "ok"},
    }


# -- the socket --------------------------------------------------------------------------------


def test_socket_file_is_0600(server: ServerThread) -> None:
    mode = os.stat(server.path).st_mode
    assert stat.S_ISSOCK(mode)
    assert stat.S_IMODE(mode) == 0o600


def test_start_restores_the_umask(sock_path: str) -> None:
    before = os.umask(0o022)
    os.umask(before)
    running = ServerThread(sock_path).start()
    try:
        after = os.umask(0o022)
        os.umask(after)
        assert after == before
    finally:
        running.stop()


def test_stale_socket_file_is_replaced_and_removed_on_close(sock_path: str) -> None:
    Path(sock_path).write_text("stale")
    running = ServerThread(sock_path).start()
    try:
        assert stat.S_ISSOCK(os.stat(sock_path).st_mode)
        with Raw(sock_path) as conn:
            assert_still_serving(conn)
    finally:
        running.stop()
    assert not os.path.exists(sock_path)


# -- requests ----------------------------------------------------------------------------------


def test_valid_request(server: ServerThread) -> None:
    with Raw(server.path) as conn:
        assert conn.call({"id": 1, "method": "echo", "params": {"text": "ab", "times": 2}}) == {
            "id": 1,
            "ok": True,
            "result": {"text": "abab"},
        }
        assert conn.call({"id": "req-2", "method": "echo", "params": {"text": "x"}})["id"] == "req-2"


def test_params_may_be_omitted_when_none_are_required(server: ServerThread) -> None:
    with Raw(server.path) as conn:
        response = conn.call({"id": 3, "method": "open", "params": {"name": "g"}})
        assert response["ok"] is True
        response = conn.call({"id": 4, "method": "boom"})
        assert response["error"]["code"] == "unknown_tab"


@pytest.mark.parametrize(
    ("payload", "request_id", "code", "fragments"),
    [
        (b"not json\n", None, "bad_request", ["not valid JSON"]),
        (b"\xff\xfe\n", None, "bad_request", ["not valid JSON", "not UTF-8"]),
        (b'{"id": 1, "method": "echo\xc3"}\n', None, "bad_request", ["not valid JSON", "not UTF-8"]),
        (b'{"id": 1, "method": "echo"\n', None, "bad_request", ["not valid JSON"]),
        (b"[1, 2]\n", None, "bad_request", ["malformed request"]),
        (b"42\n", None, "bad_request", ["malformed request"]),
        (b'{"id": 5}\n', 5, "bad_request", ["malformed request", "method"]),
        (b'{"method": "echo"}\n', None, "bad_request", ["malformed request", "id"]),
        (b'{"id": 6, "method": "echo", "params": {"text": "a"}, "x": 1}\n', 6, "bad_request", ["x"]),
        (b'{"id": 7, "method": "echo", "params": [1]}\n', 7, "bad_request", ["params"]),
        (b'{"id": 8, "method": "nope"}\n', 8, "unknown_method", ["'nope'", KNOWN]),
        (
            b'{"id": 9, "method": "echo", "params": {"text": 5}}\n',
            9,
            "bad_request",
            ["bad params for echo", "text", "valid params: text, times"],
        ),
        (
            b'{"id": 10, "method": "echo", "params": {"text": "a", "colour": "red"}}\n',
            10,
            "bad_request",
            ["bad params for echo", "colour", "valid params: text, times"],
        ),
        (
            b'{"id": 11, "method": "echo", "params": {}}\n',
            11,
            "bad_request",
            ["text", "valid params: text, times"],
        ),
        (
            b'{"id": 12, "method": "boom", "params": {"tab": 1}}\n',
            12,
            "bad_request",
            ["tab", "valid params: none"],
        ),
    ],
)
def test_bad_request_gets_a_structured_error_and_the_connection_stays_usable(
    server: ServerThread, payload: bytes, request_id: Any, code: str, fragments: list[str]
) -> None:
    with Raw(server.path) as conn:
        conn.send(payload)
        response = conn.recv()
        assert response["id"] == request_id
        assert response["ok"] is False
        assert response["error"]["code"] == code
        for fragment in fragments:
            assert fragment in response["error"]["message"]
        assert_still_serving(conn)


def test_blank_lines_are_ignored(server: ServerThread) -> None:
    with Raw(server.path) as conn:
        conn.send(b"\n  \n\r\n")
        assert_still_serving(conn)


def test_over_long_line_is_refused_and_the_connection_stays_usable(
    monkeypatch: pytest.MonkeyPatch, sock_path: str
) -> None:
    monkeypatch.setattr(server_module, "MAX_REQUEST_BYTES", 1024)
    running = ServerThread(sock_path).start()
    try:
        with Raw(sock_path) as conn:
            long_line = json.dumps({"id": 1, "method": "echo", "params": {"text": "x" * 5000}}).encode()
            # The long line and the next good request arrive together.
            conn.send(long_line + b"\n" + b'{"id": 2, "method": "echo", "params": {"text": "after"}}\n')
            first = conn.recv()
            assert first["ok"] is False
            assert first["error"]["code"] == "bad_request"
            assert "longer than 1024 bytes" in first["error"]["message"]
            assert conn.recv() == {"id": 2, "ok": True, "result": {"text": "after"}}
            assert_still_serving(conn)
    finally:
        running.stop()


def test_over_long_line_at_the_real_limit(server: ServerThread) -> None:
    limit = server_module.MAX_REQUEST_BYTES
    with Raw(server.path) as conn:
        conn.send(b'{"id": 1, "method": "echo", "params": {"text": "' + b"y" * (limit + 10) + b'"}}\n')
        response = conn.recv()
        assert response["ok"] is False
        assert response["error"]["code"] == "bad_request"
        assert f"longer than {limit} bytes" in response["error"]["message"]
        assert_still_serving(conn)


def test_request_without_final_newline_at_eof_gets_an_error(server: ServerThread) -> None:
    with Raw(server.path) as conn:
        conn.send(b'{"id": 1, "method": "echo", "params": {"text": "a"}}')
        conn.sock.shutdown(socket.SHUT_WR)
        response = conn.recv()
        assert response["ok"] is False
        assert response["error"]["code"] == "bad_request"
        assert "newline" in response["error"]["message"]


def test_plain_exception_becomes_internal_and_the_server_keeps_serving(server: ServerThread) -> None:
    with Raw(server.path) as conn:
        response = conn.call({"id": 1, "method": "crash"})
        assert response["id"] == 1
        assert response["ok"] is False
        assert response["error"]["code"] == "internal"
        assert "kaboom" in response["error"]["message"]
        assert_still_serving(conn)
    with Raw(server.path) as other:
        assert_still_serving(other)


def test_browserx_error_keeps_its_code_and_details(server: ServerThread) -> None:
    with Raw(server.path) as conn:
        response = conn.call({"id": 1, "method": "boom"})
        assert response == {
            "id": 1,
            "ok": False,
            "error": {
                "code": "unknown_tab",
                "message": "No tab with id 7; open tabs: 1, 2.",
                "details": {"tab": 7},
            },
        }


def test_unencodable_result_becomes_internal_error(server: ServerThread) -> None:
    with Raw(server.path, timeout=1.0) as conn:
        response = conn.call({"id": 1, "method": "weird"})
        assert response["id"] == 1
        assert response["ok"] is False
        assert response["error"]["code"] == "internal"
        assert_still_serving(conn)


# -- concurrency -------------------------------------------------------------------------------


def test_two_clients_concurrently(server: ServerThread) -> None:
    with Raw(server.path) as waiting, Raw(server.path) as opener:
        waiting.request({"id": 1, "method": "wait", "params": {"name": "g1"}})
        # The second client is served while the first one's request is still open.
        assert opener.call({"id": 1, "method": "open", "params": {"name": "g1"}})["ok"] is True
        assert waiting.recv() == {"id": 1, "ok": True, "result": {"opened": "g1"}}


def test_requests_on_one_connection_run_concurrently(server: ServerThread) -> None:
    with Raw(server.path) as conn:
        conn.send(
            b'{"id": 1, "method": "wait", "params": {"name": "g2"}}\n'
            b'{"id": 2, "method": "echo", "params": {"text": "fast"}}\n'
            b'{"id": 3, "method": "open", "params": {"name": "g2"}}\n'
        )
        responses = [conn.recv() for _ in range(3)]
        assert [r["id"] for r in responses][:2] == [2, 3]
        assert {r["id"]: r["ok"] for r in responses} == {1: True, 2: True, 3: True}


def test_many_clients_in_threads(server: ServerThread) -> None:
    results: dict[int, Any] = {}

    def worker(n: int) -> None:
        with browserx.Client(socket_path=server.path, timeout=2) as bx:
            results[n] = [bx.call("echo", text=str(n), times=k) for k in (1, 2)]

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    assert results == {n: [{"text": str(n)}, {"text": str(n) * 2}] for n in range(8)}


def test_half_closed_client_still_gets_its_answers(server: ServerThread) -> None:
    """`printf '...\\n' | socat - UNIX-CONNECT:sock` sends, then shuts down its write side."""
    with Raw(server.path) as conn:
        conn.send(
            b'{"id": 1, "method": "slow", "params": {"text": "a"}}\n'
            b'{"id": 2, "method": "slow", "params": {"text": "b"}}\n'
        )
        conn.sock.shutdown(socket.SHUT_WR)
        responses = sorted((conn.recv() for _ in range(2)), key=lambda r: r["id"])
        assert responses == [
            {"id": 1, "ok": True, "result": {"text": "a"}},
            {"id": 2, "ok": True, "result": {"text": "b"}},
        ]


def until(condition: Callable[[], bool], timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_a_client_that_hangs_up_has_its_reads_cancelled_and_its_actions_finished(
    server: ServerThread,
) -> None:
    """Ctrl-C on a snapshot: nobody waits for it, so the host stops it (and frees the tab); an
    action cut half-way would leave the page worse than one finished unobserved, so it runs on."""
    methods = server.methods
    conn = Raw(server.path)
    conn.request({"id": 1, "method": "read", "params": {"name": "r"}})
    conn.request({"id": 2, "method": "act", "params": {"name": "a"}})
    assert until(lambda: methods.started == {"r", "a"})
    conn.close()
    assert until(lambda: methods.outcome.get("r") == "cancelled")
    assert "a" not in methods.outcome  # still running
    with Raw(server.path) as other:
        assert other.call({"id": 3, "method": "open", "params": {"name": "a"}})["ok"]
        assert until(lambda: methods.outcome.get("a") == "done")
        assert_still_serving(other)


def test_a_client_that_half_closed_still_gets_the_answer_of_a_read(server: ServerThread) -> None:
    with Raw(server.path) as conn:
        conn.request({"id": 1, "method": "read", "params": {"name": "r"}})
        conn.sock.shutdown(socket.SHUT_WR)
        assert until(lambda: "r" in server.methods.started)
        time.sleep(0.1)  # the server has seen the end of the input
        with Raw(server.path) as other:
            other.call({"id": 2, "method": "open", "params": {"name": "r"}})
        assert conn.recv() == {"id": 1, "ok": True, "result": {"held": "r"}}
    assert server.methods.outcome == {"r": "done"}


# -- browserx.Client ---------------------------------------------------------------------------


def test_client_result_and_errors(server: ServerThread) -> None:
    with browserx.Client(socket_path=server.path, timeout=2) as bx:
        assert bx.socket_path == server.path
        assert bx.call("echo", text="hi", times=None) == {"text": "hi"}

        with pytest.raises(TabNotFound) as tab_info:
            bx.call("boom")
        assert tab_info.value.details == {"tab": 7}
        assert "No tab with id 7" in tab_info.value.message

        with pytest.raises(UnknownMethod) as method_info:
            bx.call("nope")
        assert KNOWN in str(method_info.value)

        with pytest.raises(BadRequest) as params_info:
            bx.call("echo", text="a", colour="red")
        assert type(params_info.value) is BadRequest
        assert "valid params: text, times" in str(params_info.value)

        with pytest.raises(BrowserxError) as crash_info:
            bx.call("crash")
        assert type(crash_info.value) is BrowserxError
        assert crash_info.value.code == "internal"
        assert "kaboom" in crash_info.value.message

        # Still usable after all those errors.
        assert bx.call("echo", text="again") == {"text": "again"}


def test_client_ids_increase(server: ServerThread) -> None:
    with browserx.Client(socket_path=server.path, timeout=2) as bx:
        bx.call("echo", text="a")
        bx.call("echo", text="b")
        assert next(bx._ids) == 3


def test_client_cannot_connect(sock_path: str) -> None:
    with pytest.raises(HostDisconnected) as info:
        browserx.Client(socket_path=sock_path, timeout=1)
    assert sock_path in str(info.value)


def test_client_when_the_server_goes_away(sock_path: str) -> None:
    running = ServerThread(sock_path).start()
    try:
        bx = browserx.Client(socket_path=sock_path, timeout=2)
        try:
            assert bx.call("echo", text="x") == {"text": "x"}
            running.stop()
            with pytest.raises(HostDisconnected):
                bx.call("echo", text="y")
        finally:
            bx.close()
    finally:
        running.stop()


# -- found by fuzzing (tests/fuzz) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "request_id"),
    [
        (b"[" * 5000 + b"]" * 5000 + b"\n", None),
        (b'{"id": 3, "method": "echo", "params": {"text": ' + b"[" * 5000 + b"]" * 5000 + b"}}\n", None),
        # Nested just under msgspec's limit: decodable, but echoing it back could not be encoded
        # (the request got no response at all).
        (b'{"id": ' + b"[" * 990 + b"]" * 990 + b', "method": "echo"}\n', None),
    ],
)
def test_deeply_nested_json_is_a_bad_request(server: ServerThread, payload: bytes, request_id: Any) -> None:
    with Raw(server.path) as conn:
        conn.send(payload)
        response = conn.recv()
        assert response["id"] == request_id
        assert response["error"]["code"] == "bad_request"
        assert_still_serving(conn)


@pytest.mark.parametrize("bad_id", [[1], {"a": 1}, 1.5, True, None])
def test_an_id_of_a_wrong_type_is_not_echoed(server: ServerThread, bad_id: Any) -> None:
    with Raw(server.path) as conn:
        response = conn.call({"id": bad_id, "method": "nope", "x": 1})
        assert response["id"] is None
        assert response["error"]["code"] == "bad_request"


def test_huge_names_are_not_quoted_back_in_full(server: ServerThread) -> None:
    with Raw(server.path) as conn:
        response = conn.call({"id": 1, "method": "m" * 100_000})
        assert response["error"]["code"] == "unknown_method"
        assert len(response["error"]["message"]) < 1000
        response = conn.call({"id": 2, "method": "echo", "params": {"text": "a", "k" * 100_000: 1}})
        assert response["error"]["code"] == "bad_request"
        assert len(response["error"]["message"]) < 1000


def test_requests_in_flight_on_one_connection_are_bounded(server: ServerThread) -> None:
    """More waiting requests than MAX_INFLIGHT: the server stops reading the connection until one
    ends, so the `open` behind them is not read and they time out — but each gets its answer."""
    n = server_module.MAX_INFLIGHT
    with Raw(server.path, timeout=5) as conn:
        conn.send(b"".join(b'{"id": %d, "method": "wait", "params": {"name": "g9"}}\n' % i for i in range(n)))
        conn.send(b'{"id": 99, "method": "open", "params": {"name": "g9"}}\n')
        responses = [conn.recv() for _ in range(n + 1)]
        # The gates time out after 2 s (internal errors of the fake method), then `open` runs.
        assert [r["id"] for r in responses][-1] == 99
        assert sorted(r["id"] for r in responses[:-1]) == list(range(n))


def _closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed this connection, found without reading from it: an empty line
    (which the server skips) cannot be written to a closed connection."""
    try:
        sock.send(b"\n", socket.MSG_DONTWAIT)
    except BlockingIOError:
        return False
    except OSError:  # EPIPE, ECONNRESET
        return True
    return False


def test_a_client_that_never_reads_is_dropped_and_others_stay_served(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_module, "WRITE_STALL_S", 0.5)
    staller = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    staller.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    staller.connect(server.path)
    try:
        big = {"method": "echo", "params": {"text": "x" * 1000, "times": 8000}}  # 8 MB answers
        staller.sendall(b"".join(json.dumps({"id": i, **big}).encode() + b"\n" for i in range(2)))
        # Its other requests wait behind it: they are cancelled with the connection.
        staller.sendall(b'{"id": 5, "method": "wait", "params": {"name": "never"}}\n')
        with Raw(server.path, timeout=2) as other:
            started = time.monotonic()
            while not _closed_by_server(staller):
                assert time.monotonic() - started < 5, "a client that never reads was not dropped"
                assert_still_serving(other)
                time.sleep(0.05)
            assert time.monotonic() - started >= 0.5 - 0.1  # not before the bound
            assert_still_serving(other)
    finally:
        staller.close()


def test_a_slow_reader_that_keeps_reading_gets_its_whole_answer(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound is on a client not reading, not on how long a whole answer takes."""
    monkeypatch.setattr(server_module, "WRITE_STALL_S", 0.5)
    with Raw(server.path, timeout=5) as conn:
        conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        conn.request({"id": 1, "method": "echo", "params": {"text": "y" * 1000, "times": 2000}})
        started = time.monotonic()
        data = b""
        while not data.endswith(b"\n"):
            chunk = conn.sock.recv(64 * 1024)
            assert chunk, "the server dropped a client that was reading"
            data += chunk
            time.sleep(0.02)
        assert time.monotonic() - started > 0.5  # longer than the bound, in all
        assert json.loads(data) == {"id": 1, "ok": True, "result": {"text": "y" * 2_000_000}}
