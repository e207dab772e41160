"""`browserx mcp` as a subprocess, fed raw lines on stdin as a broken MCP client would send them:
every malformed line gets JSON-RPC 2.0's error reply, a notification-shaped request gets none (but
a line on stderr), and the server answers the next valid request. No browser is needed: without a
host the server still answers initialize and tools/list."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from browserx.control.tools import AGENT_TOOLS
from browserx.interfaces.mcp_input import INVALID_REQUEST_MESSAGE, PARSE_ERROR_MESSAGE

REPO = Path(__file__).resolve().parents[2]
STARTUP_S = 60.0  # for the first answer: the server starting (seconds on a loaded machine)

PARSE_ERROR = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": PARSE_ERROR_MESSAGE}}
INVALID_REQUEST = {
    "jsonrpc": "2.0",
    "id": None,
    "error": {"code": -32600, "message": INVALID_REQUEST_MESSAGE},
}

# Each malformed line, and the exact reply it must get.
MALFORMED = [
    ("not json", PARSE_ERROR),
    ('{"jsonrpc": "2.0", "id": 9, "method": "tools/list"', PARSE_ERROR),  # cut short
    ("[" * 100_000, PARSE_ERROR),  # nested far beyond any parser's limit
    ('{"a":' * 5_000 + "1" + "}" * 5_000, PARSE_ERROR),
    ('[{"jsonrpc": "2.0", "id": 9, "method": "tools/list"}]', INVALID_REQUEST),  # a batch
    ("[]", INVALID_REQUEST),
    ('"tools/list"', INVALID_REQUEST),
    ('{"jsonrpc": "2.0", "id": 9}', INVALID_REQUEST),  # no method
    ('{"jsonrpc": "2.0", "id": 9, "method": 5}', INVALID_REQUEST),
    ('{"jsonrpc": "1.0", "id": 9, "method": "tools/list"}', INVALID_REQUEST),
]

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


class McpProcess:
    def __init__(self, tmp_path: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSERX_")}
        env["BROWSERX_RUNTIME_DIR"] = str(tmp_path / "run")  # no host here: none is needed
        self.stderr_path = tmp_path / "mcp.err"
        self._stderr = self.stderr_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "browserx.interfaces.cli", "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
            cwd=REPO,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin: IO[bytes] = self.proc.stdin
        self.stdout: IO[bytes] = self.proc.stdout
        self.lines: queue.Queue[bytes] = queue.Queue()
        self._first = True
        self._reader = threading.Thread(target=self._read, args=(self.stdout,), daemon=True)
        self._reader.start()

    def _read(self, stdout: IO[bytes]) -> None:
        for line in stdout:
            self.lines.put(line)

    def send(self, line: str | dict[str, Any]) -> None:
        text = line if isinstance(line, str) else json.dumps(line)
        self.stdin.write(text.encode() + b"\n")
        self.stdin.flush()

    def reply(self, timeout: float = 10.0) -> dict[str, Any]:
        # The first answer waits for the server to start too: imports that take 2 s on a quiet
        # machine took over 10 s under coverage on a loaded 2-core one.
        timeout, self._first = (max(timeout, STARTUP_S) if self._first else timeout), False
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no reply within {timeout} s; stderr:\n{self.stderr()}") from None
        reply: dict[str, Any] = json.loads(line)
        return reply

    def stderr(self) -> str:
        self._stderr.flush()
        return self.stderr_path.read_text(errors="replace")

    def close(self) -> int:
        """Close stdin (the client is done) and wait for the server to exit; its exit code."""
        if not self.stdin.closed:
            self.stdin.close()
        try:
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self._reader.join(timeout=5)
            self.stdout.close()
            self._stderr.close()


@pytest.fixture
def mcp(tmp_path: Path) -> Iterator[McpProcess]:
    server = McpProcess(tmp_path)
    try:
        yield server
    finally:
        server.close()


def test_malformed_lines_get_json_rpc_errors_and_the_server_answers_the_next_request(mcp: McpProcess) -> None:
    # Before the session is initialised, and after.
    for line, expected in MALFORMED:
        mcp.send(line)
        assert mcp.reply() == expected, line[:80]
    mcp.send(INITIALIZE)
    init = mcp.reply()
    assert init["id"] == 1 and init["result"]["serverInfo"]["name"] == "browserx", init
    mcp.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    for line, expected in MALFORMED:
        mcp.send(line)
        assert mcp.reply() == expected, line[:80]
    mcp.send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    listed = mcp.reply()
    assert listed["id"] == 2 and [t["name"] for t in listed["result"]["tools"]] == [
        t.name for t in AGENT_TOOLS
    ]
    assert mcp.proc.poll() is None
    assert mcp.stderr().count("malformed input line: answered") == 2 * len(MALFORMED)
    assert mcp.close() == 0


def test_a_tools_call_without_an_id_gets_no_reply_but_a_line_on_stderr(mcp: McpProcess) -> None:
    mcp.send(INITIALIZE)
    assert mcp.reply()["id"] == 1
    mcp.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    mcp.send({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "tabs", "arguments": {}}})
    mcp.send({"jsonrpc": "2.0", "id": 3, "method": "tools/list"})
    # The next line on stdout answers id 3: nothing was written for the notification.
    listed = mcp.reply()
    assert listed["id"] == 3 and "tools" in listed["result"], listed
    assert "tools/call without an id is a notification: no reply" in mcp.stderr()
    assert mcp.close() == 0
    assert mcp.lines.empty()
