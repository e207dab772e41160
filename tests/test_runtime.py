"""The runtime dir, discovery records, and socket discovery."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from browserx import runtime
from browserx.errors import NoHost
from browserx.runtime import (
    HostRecord,
    discover_socket,
    ensure_runtime_dir,
    live_hosts,
    remove_record,
    runtime_dir,
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


def record(pid: int, socket_path: Path, started_at: float = 1000.0) -> HostRecord:
    return HostRecord(pid=pid, socket=str(socket_path), started_at=started_at, version="0.1.0")


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


def test_live_host_is_found(rundir: Path) -> None:
    sock = rundir / f"host-{os.getpid()}.sock"
    sock.touch()
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


def test_live_pid_without_its_socket_is_skipped_but_kept(rundir: Path) -> None:
    rec = record(os.getpid(), rundir / "missing.sock")
    path = write_record(rec)
    assert live_hosts() == []
    assert path.exists()


def test_unreadable_records_are_ignored(rundir: Path) -> None:
    (rundir / "host-1.json").write_text("{not json")
    (rundir / "host-2.json").write_text('{"pid": "x"}')
    sock = rundir / "live.sock"
    sock.touch()
    rec = record(os.getpid(), sock)
    write_record(rec)
    assert live_hosts() == [rec]


def test_live_hosts_newest_first(rundir: Path) -> None:
    # Two records of this (live) process under different file names.
    old_sock, new_sock = rundir / "old.sock", rundir / "new.sock"
    old_sock.touch()
    new_sock.touch()
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
    (rundir / "host-43.json").write_text("{}")
    remove_record(42)
    remove_record(42)  # idempotent
    assert sorted(p.name for p in rundir.iterdir()) == ["host-43.json"]


# -- discover_socket ---------------------------------------------------------------------------


def test_discover_socket_explicit_wins(rundir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BROWSERX_SOCKET", "/env.sock")
    sock = rundir / "live.sock"
    sock.touch()
    write_record(record(os.getpid(), sock))
    assert discover_socket("/explicit.sock") == "/explicit.sock"


def test_discover_socket_env_next(rundir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BROWSERX_SOCKET", "/env.sock")
    sock = rundir / "live.sock"
    sock.touch()
    write_record(record(os.getpid(), sock))
    assert discover_socket() == "/env.sock"
    assert discover_socket(None) == "/env.sock"


def test_discover_socket_newest_live_host(rundir: Path) -> None:
    sockets = []
    for name, started in (("a", 100.0), ("b", 300.0), ("c", 200.0)):
        sock = rundir / f"{name}.sock"
        sock.touch()
        sockets.append(sock)
        (rundir / f"host-{name}.json").write_text(record(os.getpid(), sock, started).model_dump_json())
    # A dead host that started even later is not chosen.
    dead = dead_pid()
    dead_sock = rundir / f"host-{dead}.sock"
    dead_sock.touch()
    write_record(record(dead, dead_sock, started_at=999.0))
    assert discover_socket() == str(rundir / "b.sock")


def test_discover_socket_no_host(rundir: Path) -> None:
    with pytest.raises(NoHost) as info:
        discover_socket()
    message = str(info.value)
    assert info.value.code == "no_host"
    assert str(rundir) in message
    assert "browserx launch" in message
    assert "install-host" in message


def test_wait_for_new_host(rundir: Path) -> None:
    sock = rundir / "live.sock"
    sock.touch()
    write_record(record(os.getpid(), sock, started_at=time.time()))
    found = wait_for_new_host(since=time.time() - 60, timeout=1)
    assert found is not None and found.socket == str(sock)
    assert wait_for_new_host(since=time.time() + 60, timeout=0.15) is None


def test_alive() -> None:
    assert runtime.alive(os.getpid())
    assert not runtime.alive(dead_pid())
