"""Two real host processes (each with a stand-in for its browser's extension on its pipe: it says
hello and lists tabs) in one runtime dir: no call without a socket picks one. The CLI, the Client
and `browserx mcp` at its start each fail with ambiguous_host listing both (browser, profile,
pid, tabs) and how to pick; a socket named (`--socket`, BROWSERX_SOCKET) reaches that host."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

from browserx import Client
from browserx.errors import AmbiguousHost
from browserx.runtime import live_hosts

HEADER = struct.Struct("<I")
CHROME = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36"
)


@dataclass
class RealHost:
    shell: subprocess.Popen[bytes]  # stands in for the browser: the host's parent
    pid: int
    socket: str
    profile: str
    tabs: int


def _extension(stdin: IO[bytes], stdout: IO[bytes], tabs: int) -> None:
    """The extension's end of the pipe: answers `tabs` with ``tabs`` tabs, anything else with {}."""
    while True:
        header = stdout.read(HEADER.size)
        if len(header) < HEADER.size:
            return
        request = json.loads(stdout.read(HEADER.unpack(header)[0]))
        listing = [{"tabId": i + 1, "windowId": 1, "url": f"https://example.com/{i}"} for i in range(tabs)]
        result = {"tabs": listing, "lastFocusedWindowId": 1} if request.get("type") == "tabs" else {}
        body = json.dumps({"id": request["id"], "result": result}).encode()
        with contextlib.suppress(OSError):
            stdin.write(HEADER.pack(len(body)) + body)
            stdin.flush()


def start_host(runtime: Path, profile: str, tabs: int) -> RealHost:
    # The host learns its browser's profile from its parent's --user-data-dir: a shell that keeps
    # running (`; :` stops it from exec'ing the host) plays the browser process.
    script = f"{sys.executable} -m browserx.host; :"
    shell = subprocess.Popen(
        ["sh", "-c", script, "browser", f"--user-data-dir={profile}"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env={**os.environ, "BROWSERX_RUNTIME_DIR": str(runtime)}, start_new_session=True,
    )  # fmt: skip
    assert shell.stdin is not None and shell.stdout is not None
    hello = json.dumps({"type": "hello", "version": "0.1.0", "userAgent": CHROME, "watermarks": {}}).encode()
    shell.stdin.write(HEADER.pack(len(hello)) + hello)
    shell.stdin.flush()
    threading.Thread(target=_extension, args=(shell.stdin, shell.stdout, tabs), daemon=True).start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        mine = [h for h in live_hosts() if h.profile == profile]
        if mine:
            return RealHost(shell, mine[0].pid, mine[0].socket, profile, tabs)
        assert shell.poll() is None, "the host exited at start-up"
        time.sleep(0.05)
    raise AssertionError("the host did not start")


@pytest.fixture(scope="module")
def two_hosts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[RealHost]]:
    runtime = tmp_path_factory.mktemp("run")
    saved = {k: os.environ.get(k) for k in ("BROWSERX_RUNTIME_DIR", "BROWSERX_SOCKET")}
    os.environ["BROWSERX_RUNTIME_DIR"] = str(runtime)
    os.environ.pop("BROWSERX_SOCKET", None)
    hosts: list[RealHost] = []
    try:
        hosts.append(start_host(runtime, "/profiles/work", tabs=3))
        hosts.append(start_host(runtime, "/profiles/home", tabs=1))
        yield hosts
    finally:
        for host in hosts:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(host.shell.pid, signal.SIGTERM)
            host.shell.wait(10)
            for pipe in (host.shell.stdin, host.shell.stdout):
                with contextlib.suppress(OSError):
                    pipe.close()  # type: ignore[union-attr]
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def assert_lists_both(message: str, hosts: list[RealHost]) -> None:
    for host in hosts:
        count = f"{host.tabs} tab{'' if host.tabs == 1 else 's'}"
        assert f"Chrome 156, profile {host.profile}, host pid {host.pid}, {count}" in message, message
    assert "--socket" in message and "BROWSERX_SOCKET" in message


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "browserx.interfaces.cli", *args],
        capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})}, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_the_client_without_a_socket_is_ambiguous_host(two_hosts: list[RealHost]) -> None:
    with pytest.raises(AmbiguousHost) as info:
        Client()
    assert info.value.code == "ambiguous_host"
    assert_lists_both(info.value.message, two_hosts)
    with Client(two_hosts[1].socket) as bx:  # a socket named reaches that host
        assert bx.status()["pid"] == two_hosts[1].pid


def test_the_cli_without_a_socket_is_ambiguous_host_and_a_socket_named_picks(
    two_hosts: list[RealHost],
) -> None:
    done = cli("status")
    assert done.returncode == 1 and done.stderr.startswith("browserx: ambiguous_host: "), done.stderr
    assert_lists_both(done.stderr, two_hosts)
    as_json = cli("tabs", "--json")
    assert json.loads(as_json.stdout)["error"]["code"] == "ambiguous_host"
    # Each host is listed with the path that picks it: that path, by flag or variable, reaches it.
    listed = {h["pid"]: h["socket"] for h in json.loads(as_json.stdout)["error"]["details"]["hosts"]}
    work, home = two_hosts
    by_flag = cli("status", "--json", "--socket", listed[work.pid])
    assert json.loads(by_flag.stdout)["pid"] == work.pid
    by_env = cli("tabs", "--json", env={"BROWSERX_SOCKET": listed[home.pid]})
    listing = json.loads(by_env.stdout)
    assert len(listing["tabs"] if isinstance(listing, dict) else listing) == home.tabs


def test_browserx_mcp_does_not_start_without_a_socket_among_two_hosts(two_hosts: list[RealHost]) -> None:
    started = time.monotonic()
    done = cli("mcp")  # stdin closed: a server that started would end at once with code 0
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert "ambiguous_host" in done.stderr
    assert_lists_both(done.stderr, two_hosts)
    assert time.monotonic() - started < 30
