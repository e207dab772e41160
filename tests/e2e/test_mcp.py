"""`browserx mcp` end to end: the real MCP SDK client drives the server over stdio as a subprocess
(as Claude Desktop, Claude Code, Cursor or VS Code would), against the real host and extension;
every effect on the page is checked independently through Selenium."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TextIO

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import CallToolResult, TextContent

from browserx import Client
from browserx.control.tools import AGENT_TOOLS
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import open_page

REPO = Path(__file__).resolve().parents[2]


@contextlib.asynccontextmanager
async def mcp_session(
    args: list[str], env: dict[str, str], errlog: TextIO, command: str | None = None
) -> AsyncIterator[ClientSession]:
    """`browserx mcp ARGS` as a subprocess (``command`` when given: `browserx` as a client runs
    it), through the SDK's own stdio client; the server is stopped (stdin closed, then killed if
    need be) when the block ends."""
    argv = ["mcp", *args] if command else ["-m", "browserx.interfaces.cli", "mcp", *args]
    server = StdioServerParameters(command=command or sys.executable, args=argv, env=env, cwd=REPO)
    async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as session:
        with anyio.fail_after(20):
            init = await session.initialize()
        assert init.server_info.name == "browserx"
        yield session


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent), result
    return result.content[0].text


def id_in(text: str, line: str) -> int:
    """The ID of the element whose view line (after its `[ID] `) is exactly ``line``."""
    found = re.search(rf"^\s*\[(\d+)\] {re.escape(line)}$", text, re.M)
    assert found, f"{line!r} not in the view:\n{text}"
    return int(found.group(1))


def counter(browser: Browser) -> int:
    return int(browser.driver.execute_script("return counts.inc"))


def test_mcp_lists_the_agent_tools_and_snapshots_clicks_and_fails_like_the_host(
    browser: Browser, bx: Client, servers: Servers, tmp_path: Path
) -> None:
    tab = open_page(browser, bx, servers.url("act-controls.html"))

    async def scenario() -> None:
        with (tmp_path / "mcp.log").open("w") as errlog:
            # The current host's socket (a fault test may have replaced the browser's first host).
            async with mcp_session(["--socket", bx.socket_path], dict(os.environ), errlog) as mcp:
                listed = (await mcp.list_tools()).tools
                assert [t.name for t in listed] == [t.name for t in AGENT_TOOLS]
                for tool, declared in zip(listed, AGENT_TOOLS, strict=True):
                    assert tool.description == declared.description
                    assert tool.title == declared.title and tool.annotations is not None
                    assert tool.annotations.read_only_hint is declared.hints.read_only
                    assert tool.input_schema["type"] == "object"
                    properties = set(tool.input_schema["properties"])
                    assert set(declared.json_schema()["properties"]) <= properties
                    assert ("observe" in properties) is declared.acts, tool.name

                view = text_of(await mcp.call_tool("snapshot", {"tab": tab}))
                increment = id_in(view, "button Increment")
                before = counter(browser)
                clicked = await mcp.call_tool("click", {"tab": tab, "id": increment})
                assert not clicked.is_error, clicked
                assert counter(browser) == before + 1
                text = text_of(clicked)
                outcome, _, delta = text.partition("\n\n")
                assert outcome.startswith(f"click succeeded on [{increment}]") and "no navigation" in outcome
                # The delta since the snapshot above follows the outcome (observe=delta, the default).
                # The button took the focus: the one change since that snapshot.
                assert (
                    "# delta since the last view" in delta and f"~ [{increment}] focused no → yes" in delta
                ), text
                assert clicked.structured_content is not None
                assert clicked.structured_content["success"] is True
                assert clicked.structured_content["changes"]["navigated"] is False

                quiet = await mcp.call_tool("click", {"tab": tab, "id": increment, "observe": "none"})
                assert "\n" not in text_of(quiet) and counter(browser) == before + 2

                unknown = await mcp.call_tool("click", {"tab": tab, "id": 987654})
                assert unknown.is_error and re.match(r"(unknown_id|stale_id): ", text_of(unknown)), unknown
                assert unknown.structured_content is not None
                assert unknown.structured_content["code"] in ("unknown_id", "stale_id")
                assert counter(browser) == before + 2

                wrong = await mcp.call_tool("click", {"tab": tab, "id": "the blue one"})
                assert wrong.is_error and text_of(wrong).startswith("bad_request: "), wrong

                missing = await mcp.call_tool("no_such_tool", {})
                assert missing.is_error and "snapshot" in text_of(missing), missing

    anyio.run(scenario)


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has exited


def _wait_gone(pids: list[int], timeout: float = 10.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while (alive := [p for p in pids if _alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive


def test_mcp_launch_starts_its_own_browser_and_stops_it_at_the_end(servers: Servers, tmp_path: Path) -> None:
    runtime = tmp_path / "run"
    # Only this session's host in a runtime dir of its own; none of the harness's test switches.
    env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSERX_")}
    env["BROWSERX_RUNTIME_DIR"] = str(runtime)
    log_path = tmp_path / "mcp.log"
    url = servers.url("hello.html")
    hosts: list[int] = []  # the launched browser's host: it must go too

    async def scenario() -> None:
        with log_path.open("w") as errlog:
            async with mcp_session(["--launch", "--headless"], env, errlog) as mcp:
                with anyio.fail_after(40):
                    tabs = await mcp.call_tool("tabs", {})
                assert not tabs.is_error, tabs
                assert tabs.structured_content is not None
                listed: list[dict[str, Any]] = tabs.structured_content["tabs"]
                assert listed and json.loads(text_of(tabs)) == tabs.structured_content
                tab = int(listed[0]["tab"])
                hosts.extend(json.loads(p.read_text())["pid"] for p in runtime.glob("host-*.json"))
                assert hosts, list(runtime.iterdir())
                went = await mcp.call_tool("navigate", {"tab": tab, "url": url, "observe": "full"})
                assert not went.is_error, went
                outcome, _, view = text_of(went).partition("\n\n")
                assert outcome.startswith("navigate succeeded in ") and f"navigated to {url}" in outcome
                assert "# Hello" in view, view
                snap = text_of(await mcp.call_tool("snapshot", {"tab": tab}))
                assert snap.startswith("# Hello fixture") and id_in(snap, "button Press"), snap

    try:
        anyio.run(scenario)
    finally:
        log = log_path.read_text()
        launched = re.search(r"launched browser pid (\d+), profile (\S+), host socket", log)
        leftover: list[int] = []
        if launched:  # stop whatever the server failed to stop: a failure here leaves nothing running
            leftover = _wait_gone([int(launched.group(1)), *hosts])
            for pid in leftover:
                with contextlib.suppress(ProcessLookupError):
                    if pid == int(launched.group(1)):
                        os.killpg(pid, signal.SIGKILL)
                    else:
                        os.kill(pid, signal.SIGKILL)
    assert launched and "stopped browser pid" in log, log
    assert not leftover, f"still running after the session: {leftover}\n{log}"
    profile = Path(launched.group(2))
    assert not profile.exists(), f"profile {profile} left behind\n{log}"
