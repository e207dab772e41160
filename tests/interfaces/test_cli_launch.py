"""`browserx launch` prints the line that pins later calls to the browser it started: the browser's
link (it follows a host the extension restarts), as `export BROWSERX_SOCKET=...`."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from browserx.interfaces import cli
from browserx.runtime import HostRecord, ensure_runtime_dir, link_browser, write_record
from browserx.setup import launch as launch_module
from browserx.setup.launch import Launched


def test_launch_prints_the_export_line_that_pins_its_browser(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path / "run"))
    rundir = ensure_runtime_dir()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(rundir / "host-1.sock"))
    server.listen(1)
    record = HostRecord(
        pid=os.getpid(), socket=str(rundir / "host-1.sock"), started_at=1.0, version="0", browser_pid=4321
    )
    write_record(record)
    link = link_browser(record)
    started = Launched(4321, tmp_path / "profile", record)
    monkeypatch.setattr(launch_module, "launch", lambda **_: started)
    try:
        assert cli.main(["launch", "--headless"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0] == str(link) and lines[-1] == f"export BROWSERX_SOCKET={link}"
        assert cli.main(["launch", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["socket"] == str(link) and out["host_socket"] == record.socket
        assert out["export"] == f"export BROWSERX_SOCKET={link}"
    finally:
        server.close()
