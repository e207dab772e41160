"""The runtime dir, discovery records, and socket discovery."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from browserx import runtime
from browserx.errors import AmbiguousHost, NoHost
from browserx.runtime import (
    HostRecord,
    discover_socket,
    ensure_runtime_dir,
    link_browser,
    live_hosts,
    only_host,
    prune_logs,
    remove_record,
    runtime_dir,
    successor,
    unlink_browser,
    wait_for_new_host,
    write_record,
)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No browserx/XDG variables, and $HOME is a fresh tmp dir."""
    for name in ("BROWSERX_RUNTIME_DIR", "XDG_RUNTIME_DIR", "BROWSERX_SOCKET"):
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture
def rundir(clean_env: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    path = tmp_path / "run"
    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(path))
    return ensure_runtime_dir()


def dead_pid() -> int:
    """The pid of a child that has exited and been reaped."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def record(pid: int, socket_path: Path, started_at: float = 1000.0, **fields: object) -> HostRecord:
    return HostRecord(pid=pid, socket=str(socket_path), started_at=started_at, version="0.1.0", **fields)  # type: ignore[arg-type]


class Listener:
    """A real Unix socket accepting connections, as a host's control socket does; with ``tabs``,
    it answers the ``tabs`` method like a host whose browser has that many tabs."""

    def __init__(self, path: Path, tabs: int | None = None) -> None:
        self.path = path
        self.tabs = tabs
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(str(path))
        self.sock.listen(16)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn, conn.makefile("rwb") as f:
                line = f.readline()
                if line and self.tabs is not None and json.loads(line)["method"] == "tabs":
                    tabs = [{"tabId": i} for i in range(self.tabs)]
                    f.write(json.dumps({"id": 1, "ok": True, "result": {"tabs": tabs}}).encode() + b"\n")
                    f.flush()

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def listen() -> Iterator[type[Listener]]:
    made: list[Listener] = []

    def make(path: Path, tabs: int | None = None) -> Listener:
        made.append(Listener(path, tabs))
        return made[-1]

    yield make  # type: ignore[misc]
    for listener in made:
        listener.close()


def stale_socket(path: Path) -> Path:
    """A socket file nobody listens on any more (what a killed host leaves)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(path))
    sock.close()
    return path


# -- runtime_dir -------------------------------------------------------------------------------


def test_runtime_dir_prefers_browserx_runtime_dir(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "xdg"))
    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path / "explicit"))
    assert runtime_dir() == tmp_path / "explicit"


def test_runtime_dir_then_xdg(clean_env: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "xdg"))
    assert runtime_dir() == tmp_path / "xdg" / "browserx"


def test_runtime_dir_empty_variables_are_ignored(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", "")
    monkeypatch.setenv("XDG_RUNTIME_DIR", "")
    assert runtime_dir() == clean_env / ".browserx" / "run"


def test_runtime_dir_then_home(clean_env: Path) -> None:
    assert runtime_dir() == clean_env / ".browserx" / "run"


def test_ensure_runtime_dir_makes_it_0700(clean_env: Path) -> None:
    path = ensure_runtime_dir()
    assert path == clean_env / ".browserx" / "run"
    assert path.is_dir()
    assert stat.S_IMODE(path.stat().st_mode) == 0o700


def test_ensure_runtime_dir_tightens_an_existing_dir(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    existing = tmp_path / "loose"
    existing.mkdir(mode=0o755)
    os.chmod(existing, 0o755)
    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(existing))
    assert ensure_runtime_dir() == existing
    assert stat.S_IMODE(existing.stat().st_mode) == 0o700


# -- records -----------------------------------------------------------------------------------


def test_write_record_is_0600_json(rundir: Path) -> None:
    rec = record(os.getpid(), rundir / "host-1.sock")
    path = write_record(rec)
    assert path == rundir / f"host-{os.getpid()}.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert HostRecord.model_validate_json(path.read_bytes()) == rec
    assert not list(rundir.glob("*.tmp"))


def test_live_host_is_found(rundir: Path, listen: type[Listener]) -> None:
    sock = rundir / f"host-{os.getpid()}.sock"
    listen(sock)
    rec = record(os.getpid(), sock)
    write_record(rec)
    assert live_hosts() == [rec]


def test_dead_host_records_are_removed(rundir: Path) -> None:
    pid = dead_pid()
    sock = rundir / f"host-{pid}.sock"
    sock.touch()
    write_record(record(pid, sock))
    assert live_hosts() == []
    assert not (rundir / f"host-{pid}.json").exists()
    assert not sock.exists()


def test_a_live_pid_whose_socket_is_missing_or_refuses_is_no_host_and_its_files_go(rundir: Path) -> None:
    # A host killed hard leaves its record and socket; another process may take its pid.
    rec = record(os.getpid(), rundir / "missing.sock")
    path = write_record(rec)
    assert live_hosts() == []
    assert not path.exists()
    sock = stale_socket(rundir / f"host-{os.getpid()}.sock")
    path = write_record(record(os.getpid(), sock))
    assert live_hosts() == []
    assert not path.exists() and not sock.exists()


def test_unreadable_records_are_ignored(rundir: Path, listen: type[Listener]) -> None:
    (rundir / "host-1.json").write_text("{not json")
    (rundir / "host-2.json").write_text('{"pid": "x"}')
    sock = rundir / "live.sock"
    listen(sock)
    rec = record(os.getpid(), sock)
    write_record(rec)
    assert live_hosts() == [rec]


def test_live_hosts_newest_first(rundir: Path, listen: type[Listener]) -> None:
    # Two records of this (live) process under different file names.
    old_sock, new_sock = rundir / "old.sock", rundir / "new.sock"
    listen(old_sock)
    listen(new_sock)
    old = record(os.getpid(), old_sock, started_at=100.0)
    new = record(os.getpid(), new_sock, started_at=200.0)
    (rundir / "host-a.json").write_text(old.model_dump_json())
    (rundir / "host-b.json").write_text(new.model_dump_json())
    assert live_hosts() == [new, old]


def test_live_hosts_without_a_runtime_dir(clean_env: Path) -> None:
    assert live_hosts() == []


def test_remove_record(rundir: Path) -> None:
    (rundir / "host-42.json").write_text("{}")
    (rundir / "host-42.sock").touch()
    (rundir / "host-42.tmp").touch()
    (rundir / "host-43.json").write_text("{}")
    remove_record(42)
    remove_record(42)  # idempotent
    assert sorted(p.name for p in rundir.iterdir()) == ["host-43.json"]


# -- discover_socket ---------------------------------------------------------------------------


def test_discover_socket_explicit_wins(
    rundir: Path, monkeypatch: pytest.MonkeyPatch, listen: type[Listener]
) -> None:
    monkeypatch.setenv("BROWSERX_SOCKET", "/env.sock")
    for name in ("a", "b"):  # even with several live hosts
        listen(rundir / f"{name}.sock")
        (rundir / f"host-{name}.json").write_text(
            record(os.getpid(), rundir / f"{name}.sock").model_dump_json()
        )
    assert discover_socket("/explicit.sock") == "/explicit.sock"


def test_discover_socket_env_next(
    rundir: Path, monkeypatch: pytest.MonkeyPatch, listen: type[Listener]
) -> None:
    monkeypatch.setenv("BROWSERX_SOCKET", "/env.sock")
    for name in ("a", "b"):
        listen(rundir / f"{name}.sock")
        (rundir / f"host-{name}.json").write_text(
            record(os.getpid(), rundir / f"{name}.sock").model_dump_json()
        )
    assert discover_socket() == "/env.sock"
    assert discover_socket(None) == "/env.sock"


def test_discover_socket_the_one_live_host_even_beside_dead_and_stale_ones(
    rundir: Path, listen: type[Listener]
) -> None:
    sock = rundir / "b.sock"
    listen(sock)
    (rundir / "host-b.json").write_text(record(os.getpid(), sock, 300.0).model_dump_json())
    # A dead host that started later, and a record whose socket refuses: neither counts.
    dead = dead_pid()
    dead_sock = stale_socket(rundir / f"host-{dead}.sock")
    write_record(record(dead, dead_sock, started_at=999.0))
    (rundir / "host-c.json").write_text(
        record(os.getpid(), stale_socket(rundir / "c.sock"), 500.0).model_dump_json()
    )
    assert discover_socket() == str(sock)
    assert only_host().socket == str(sock)


def test_two_live_hosts_and_no_socket_named_is_ambiguous_host_listing_each_and_how_to_pick(
    rundir: Path, listen: type[Listener]
) -> None:
    chrome_ua = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36"
    edge_ua = chrome_ua + " Edg/140.0.0.0"
    hosts = [
        record(os.getpid(), rundir / "a.sock", 100.0, browser=chrome_ua, profile="/home/ada/.config/chromium",
               browser_pid=111),
        record(os.getpid(), rundir / "b.sock", 200.0, browser=edge_ua, browser_pid=222),
    ]  # fmt: skip
    listen(rundir / "a.sock", tabs=3)
    listen(rundir / "b.sock")  # answers no `tabs`: its count is unknown, not a failure
    for name, rec in zip("ab", hosts, strict=True):
        (rundir / f"host-{name}.json").write_text(rec.model_dump_json())
    with pytest.raises(AmbiguousHost) as info:
        discover_socket()
    error = info.value
    assert error.code == "ambiguous_host" and isinstance(error, NoHost)
    message = error.message
    assert "Chrome 156, profile /home/ada/.config/chromium" in message and "3 tabs" in message
    assert "Edge 140" in message and "tabs unknown" in message
    assert f"host pid {os.getpid()}" in message
    assert f"--socket {rundir / 'a.sock'}" in message and f"--socket {rundir / 'b.sock'}" in message
    assert "BROWSERX_SOCKET" in message and "Client(socket_path" in message
    listed = error.details["hosts"]
    assert [h["tabs"] for h in listed] == [None, 3]  # newest first
    assert {h["socket"] for h in listed} == {str(rundir / "a.sock"), str(rundir / "b.sock")}


def test_discover_socket_no_host(rundir: Path) -> None:
    with pytest.raises(NoHost) as info:
        discover_socket()
    message = str(info.value)
    assert info.value.code == "no_host"
    assert str(rundir) in message
    assert "browserx launch" in message
    assert "install-host" in message


def test_stale_files_of_dead_hosts_are_cleaned_up(rundir: Path, listen: type[Listener]) -> None:
    dead = dead_pid()
    leftovers = [rundir / f"host-{dead}.tmp", stale_socket(rundir / f"host-{dead}.sock")]
    leftovers[0].write_text("{half a record")
    dangling = rundir / "browser-4242.sock"
    os.symlink(rundir / f"host-{dead}.sock", dangling)
    live_sock = rundir / f"host-{os.getpid()}.sock"
    listen(live_sock)
    live = record(os.getpid(), live_sock, browser_pid=77)
    write_record(live)
    link = link_browser(live)
    assert live_hosts() == [live]
    assert not any(p.exists() or p.is_symlink() for p in [*leftovers, dangling])
    assert link is not None and link.is_symlink() and link.resolve() == live_sock


def test_the_browser_link_follows_its_host_and_goes_with_it(rundir: Path, listen: type[Listener]) -> None:
    first = record(os.getpid(), rundir / "first.sock", browser_pid=9)
    second = record(os.getpid(), rundir / "second.sock", browser_pid=9)
    link = link_browser(first)
    assert link == rundir / "browser-9.sock" and os.readlink(link) == first.socket
    link_browser(second)  # the extension restarted the host: the link now names the new socket
    assert os.readlink(link) == second.socket
    unlink_browser(first)  # the old host going away leaves the new host's link alone
    assert os.readlink(link) == second.socket
    unlink_browser(second)
    assert not link.is_symlink()
    assert link_browser(record(os.getpid(), rundir / "x.sock")) is None  # no browser pid: no link


def test_a_pinned_host_is_followed_only_to_a_host_of_the_same_browser(
    rundir: Path, listen: type[Listener]
) -> None:
    pinned = record(dead_pid(), rundir / "gone.sock", 100.0, profile="/p/one", browser_pid=1)
    other = record(os.getpid(), rundir / "other.sock", 300.0, profile="/p/two", browser_pid=2)
    listen(rundir / "other.sock")
    (rundir / "host-other.json").write_text(other.model_dump_json())
    assert successor(pinned) is None  # another browser's host is never the successor
    restarted = record(os.getpid(), rundir / "next.sock", 200.0, profile="/p/one", browser_pid=1)
    listen(rundir / "next.sock")
    (rundir / "host-next.json").write_text(restarted.model_dump_json())
    assert successor(pinned) == restarted
    # Without a browser pid, the same profile decides; an unknown profile matches nothing.
    assert successor(pinned.model_copy(update={"browser_pid": None})) == restarted
    assert successor(pinned.model_copy(update={"browser_pid": None, "profile": None})) is None


def test_wait_for_new_host(rundir: Path, listen: type[Listener]) -> None:
    sock = rundir / "live.sock"
    listen(sock)
    write_record(record(os.getpid(), sock, started_at=time.time()))
    found = wait_for_new_host(since=time.time() - 60, timeout=1)
    assert found is not None and found.socket == str(sock)
    assert wait_for_new_host(since=time.time() + 60, timeout=0.15) is None


def test_alive() -> None:
    assert runtime.alive(os.getpid())
    assert not runtime.alive(dead_pid())


# -- host logs --------------------------------------------------------------------------------


def test_the_logs_of_the_last_hosts_that_ended_stay_and_older_ones_go(
    rundir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alive = {os.getpid()}
    monkeypatch.setattr(runtime, "alive", lambda pid: pid in alive)
    ended = [rundir / f"host-{100 + n}.log" for n in range(runtime.KEEP_LOGS + 3)]
    for age, path in enumerate(reversed(ended)):  # host-100.log is the newest
        path.write_text("{}\n")
        os.utime(path, (1000.0 + age, 1000.0 + age))
    running = rundir / f"host-{os.getpid()}.log"
    running.write_text("{}\n")
    os.utime(running, (1.0, 1.0))  # older than all: still kept, its host runs
    other = rundir / "notes.log"
    other.write_text("")
    removed = prune_logs()
    assert sorted(removed) == sorted(ended[runtime.KEEP_LOGS :])
    assert sorted(rundir.glob("*.log")) == sorted([*ended[: runtime.KEEP_LOGS], running, other])
    assert prune_logs() == []
