"""The README's MCP client snippets work as written: each client config (Claude Desktop, Claude
Code, Cursor, VS Code, the MCP Inspector's CLI mode) is parsed out of README.md and its command run
as that client would, over stdio with the real MCP SDK client, on a machine without a display:
initialize, tools/list, one tool call (a `--launch` form starts its browser, headless)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from browserx.control.tools import AGENT_TOOLS
from tests.e2e.test_launch_headless import browsers_using, no_display_env
from tests.e2e.test_mcp import REPO, mcp_session

README = REPO / "README.md"
BIN = Path(sys.executable).parent  # where the checkout's `browserx` is (the README says: on PATH)


def mcp_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Use it from an MCP client")
    return text[start : text.index("\n## ", start + 1)]


RUNNERS = (["uvx"], ["pipx", "run"])  # fetch browserx from PyPI and run it: here, the checkout's


def _as_run_here(command: list[str]) -> list[str]:
    """``uvx browserx mcp …`` runs what ``browserx mcp …`` runs here (browserx is not on PyPI yet:
    tests/e2e/test_wheel.py runs uvx on the built wheel)."""
    for runner in RUNNERS:
        if command[: len(runner)] == runner:
            return command[len(runner) :]
    return command


def snippet_commands() -> dict[str, list[str]]:
    """Each server command the section's snippets configure, keyed by the client the paragraph
    before the snippet names ("Cursor: ...") and the snippet's line or entry; a runner's form
    (``uvx``, ``pipx run``) as the command it runs."""
    found: dict[str, list[str]] = {}
    section = mcp_section()
    for block in re.finditer(r"```(json|sh)\n(.*?)```", section, re.S):
        lang, body = block.groups()
        paragraph = section[: block.start()].rstrip().rsplit("\n\n", 1)[-1]
        client = paragraph.split(":", 1)[0].strip()
        if lang == "json":
            config = json.loads(body)
            for name, server in (config.get("mcpServers") or config["servers"]).items():
                found[f"{client}: {name}"] = [server["command"], *server["args"]]
            continue
        for line in body.splitlines():
            words = shlex.split(line, comments=True)
            if words[:3] == ["claude", "mcp", "add-json"]:
                server = json.loads(words[4])
                found[f"{client}: {line}"] = [server["command"], *server["args"]]
            elif words[:2] == ["npx", "@modelcontextprotocol/inspector"]:
                found[f"MCP Inspector: {line}"] = words[words.index("--") + 1 :]
            elif words[:3] == ["claude", "mcp", "add"]:
                found[f"{client}: {line}"] = words[words.index("--") + 1 :]
    return {key: _as_run_here(command) for key, command in found.items()}


def test_the_readme_configures_every_client_it_names() -> None:
    commands = snippet_commands()
    clients = {key.split(":", 1)[0] for key in commands}
    assert {"Claude Desktop", "Claude Code", "Cursor", "VS Code", "MCP Inspector"} <= clients, commands
    assert all(command[:2] == ["browserx", "mcp"] for command in commands.values()), commands
    for runner in RUNNERS:  # the forms that need nothing installed
        assert f"-- {' '.join(runner)} browserx mcp --launch" in mcp_section(), runner


@pytest.mark.parametrize("command", sorted({tuple(c) for c in snippet_commands().values()}), ids=" ".join)
def test_a_readme_snippet_serves_the_tools_without_a_display(
    command: tuple[str, ...], tmp_path: Path
) -> None:
    env = no_display_env(tmp_path / "run")  # no other browser: plain `mcp` finds no host
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    log_path = tmp_path / "mcp.log"
    launches = "--launch" in command

    async def scenario() -> None:
        with log_path.open("w") as errlog:
            async with mcp_session(list(command[2:]), env, errlog, command=command[0]) as mcp:
                listed = (await mcp.list_tools()).tools
                assert [t.name for t in listed] == [t.name for t in AGENT_TOOLS]
                with anyio.fail_after(40):
                    tabs = await mcp.call_tool("tabs", {})
                if launches:  # its own browser, headless here
                    assert not tabs.is_error, tabs
                else:  # the person's browser: none runs here, and the error says how to start one
                    assert tabs.is_error and "no_host" in str(tabs.content[0]), tabs

    try:
        anyio.run(scenario)
    finally:
        log = log_path.read_text()
        subprocess.run(
            ["browserx", "stop", "--all"], env=env, cwd=REPO, capture_output=True, timeout=30, check=False
        )  # a --keep browser outlives its session
        launched = re.search(r"launched browser pid (\d+), profile (\S+), host socket", log)
        if launched:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(int(launched.group(1)), signal.SIGKILL)
    if launches:
        assert launched and "runs headless" in log, log
        assert browsers_using(Path(launched.group(2))) == [], log
