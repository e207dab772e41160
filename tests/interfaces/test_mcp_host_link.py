"""The MCP server's binding to one browser (interfaces/mcp_host_link.py: HostLink): resolved once at
the start, several hosts and none named is ambiguous_host, and a host that dies is followed only to
the host the extension restarted for the same browser — never to another browser's. Fake host
records over real sockets that answer like a host."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from browserx.errors import AmbiguousHost, NoHost
from browserx.interfaces import mcp_host_link
from browserx.interfaces.mcp_host_link import HostLink
from browserx.interfaces.mcp_server import serve
from browserx.runtime import HostRecord, ensure_runtime_dir


class FakeHost:
    """A control socket answering every request with ``{"served_by": name}``, and its record."""

    def __init__(self, rundir: Path, name: str, browser_pid: int, started_at: float) -> None:
        self.name = name
        self.path = rundir / f"{name}.sock"
        self.record = HostRecord(
            pid=os.getpid(), socket=str(self.path), started_at=started_at, version="0",
            profile=f"/profiles/{browser_pid}", browser_pid=browser_pid,
        )  # fmt: skip
        self.record_path = rundir / f"host-{name}.json"
        self.record_path.write_text(self.record.model_dump_json())
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(str(self.path))
        self.sock.listen(8)
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn, conn.makefile("rwb") as f:
            for line in f:
                request = json.loads(line)
                f.write(
                    json.dumps({"id": request["id"], "ok": True, "result": {"served_by": self.name}}).encode()
                )
                f.write(b"\n")
                f.flush()

    def die(self) -> None:
        """As a killed host: its connections drop, its socket stops answering, its record goes."""
        self.sock.close()
        for conn in self.conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        self.path.unlink()
        self.record_path.unlink()


@pytest.fixture
def rundir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path / "run"))
    monkeypatch.delenv("BROWSERX_SOCKET", raising=False)
    monkeypatch.setattr(mcp_host_link, "RESTART_WAIT_S", 0.5)
    return ensure_runtime_dir()


@pytest.fixture
def hosts(rundir: Path) -> Iterator[list[FakeHost]]:
    made: list[FakeHost] = []
    yield made
    for host in made:
        host.sock.close()


def test_two_hosts_and_none_named_stop_the_mcp_server_at_start_with_ambiguous_host(
    rundir: Path, hosts: list[FakeHost]
) -> None:
    hosts += [FakeHost(rundir, "a", 1, 100.0), FakeHost(rundir, "b", 2, 200.0)]
    with pytest.raises(AmbiguousHost) as info:
        anyio.run(serve)  # fails before it reads a byte of MCP
    assert str(hosts[0].path) in info.value.message and str(hosts[1].path) in info.value.message


def test_a_named_socket_or_the_only_host_is_pinned_at_start(
    rundir: Path, hosts: list[FakeHost], monkeypatch: pytest.MonkeyPatch
) -> None:
    hosts += [FakeHost(rundir, "a", 1, 100.0), FakeHost(rundir, "b", 2, 200.0)]
    link = HostLink(str(hosts[0].path))
    assert link.pin() == hosts[0].record
    assert link.call("status") == {"served_by": "a"}
    link.close()
    monkeypatch.setenv("BROWSERX_SOCKET", str(hosts[1].path))
    link = HostLink()
    assert link.call("status") == {"served_by": "b"}
    link.close()


def test_the_pinned_hosts_death_never_moves_the_session_to_another_browser(
    rundir: Path, hosts: list[FakeHost]
) -> None:
    hosts.append(FakeHost(rundir, "a", 1, 100.0))
    link = HostLink()
    assert link.pin() == hosts[0].record  # the only one at the start
    assert link.call("status") == {"served_by": "a"}
    hosts.append(FakeHost(rundir, "other", 2, 300.0))  # another browser, started later
    hosts[0].die()
    with pytest.raises(Exception):  # noqa: B017 — the call in flight: host_disconnected
        link.call("status")
    with pytest.raises(NoHost) as info:
        link.call("status")
    assert info.value.code == "no_host" and "does not switch to another browser" in info.value.message
    # The extension restarts the host of the pinned browser: the session follows it, and only it.
    hosts.append(FakeHost(rundir, "a2", 1, 400.0))
    assert link.call("status") == {"served_by": "a2"}
    link.close()
