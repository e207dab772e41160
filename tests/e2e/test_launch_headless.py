"""Starting a browser on a machine without a display, with the real Chromium: `browserx launch`
(headed) fails at once naming --headless and quoting Chromium; `browserx mcp --launch` goes
headless by itself; with --keep, one-shot MCP sessions (a server per call, as the MCP Inspector's
CLI mode runs it) work on in one browser and one page."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio

from browserx.runtime import alive
from browserx.setup.launch import singleton_dir
from tests.e2e.servers import Servers
from tests.e2e.test_mcp import REPO, id_in, mcp_session, text_of


def no_display_env(runtime: Path) -> dict[str, str]:
    """This environment without a display and with a runtime dir of its own (only the browsers
    these tests start are found there), none of the harness's switches."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("BROWSERX_") and k not in ("DISPLAY", "WAYLAND_DISPLAY")
    }
    env["BROWSERX_RUNTIME_DIR"] = str(runtime)
    return env


def browsers_using(profile: Path, wait_s: float = 5.0) -> list[str]:
    """Processes whose command line names this profile (a browser left running), once those that
    are on their way out have had ``wait_s`` to go."""
    deadline = time.monotonic() + wait_s
    while True:
        found = []
        for entry in Path("/proc").iterdir():
            with contextlib.suppress(OSError):
                cmdline = (entry / "cmdline").read_bytes()
                if entry.name.isdigit() and str(profile).encode() in cmdline and alive(int(entry.name)):
                    found.append(f"{entry.name}: {cmdline[:200]!r}")
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def test_a_headed_launch_without_a_display_fails_in_under_5_s_naming_headless(tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "browserx.interfaces.cli", "launch", "--user-data-dir", str(profile)],
        env=no_display_env(tmp_path / "run"), cwd=REPO, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    took = time.monotonic() - started
    assert done.returncode == 1, done
    assert took < 5, f"took {took:.1f} s: {done.stderr}"
    assert "--headless" in done.stderr and 'Chromium says "Missing X server or $DISPLAY"' in done.stderr, (
        done.stderr
    )
    assert "Check that the extension loaded" not in done.stderr
    assert browsers_using(profile) == []


def test_mcp_launch_without_a_display_runs_headless_and_keep_serves_one_shot_sessions(
    servers: Servers, tmp_path: Path
) -> None:
    runtime = tmp_path / "run"
    env = no_display_env(runtime)
    log_path = tmp_path / "mcp.log"
    url = servers.url("hello.html")
    ids: list[int] = []

    async def one_shot(args: list[str], tool: str, arguments: dict[str, object]) -> str:
        """One session for one call: what a client that starts the server per call does."""
        with log_path.open("a") as errlog:
            async with mcp_session(["--launch", *args], env, errlog) as mcp:
                with anyio.fail_after(40):
                    result = await mcp.call_tool(tool, arguments)
        assert not result.is_error, result
        return text_of(result)

    async def scenario() -> None:
        view = await one_shot(["--keep", "--url", url], "snapshot", {})
        ids.append(id_in(view, "button Press"))
        clicked = await one_shot(["--keep"], "click", {"id": ids[0], "observe": "none"})
        assert clicked.startswith(f"click succeeded on [{ids[0]}]"), clicked
        again = await one_shot(["--keep", "--url", "http://127.0.0.1:9/elsewhere"], "snapshot", {})
        # The same page, the button focused by the click: --url only opens a new browser's first tab.
        ids.append(id_in(again, "button Press (focused)"))

    try:
        anyio.run(scenario)
    finally:
        log = log_path.read_text()
        launched = re.findall(r"launched browser pid (\d+), profile (\S+), host socket", log)
        stop = subprocess.run(
            [sys.executable, "-m", "browserx.interfaces.cli", "stop", "--all"], env=env, cwd=REPO,
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        for pid, _ in launched:  # whatever `stop` did not end: nothing is left running
            with contextlib.suppress(ProcessLookupError):
                os.killpg(int(pid), signal.SIGKILL)
    assert "no display ($DISPLAY and $WAYLAND_DISPLAY are unset): the browser runs headless" in log, log
    assert len(launched) == 1, log  # one browser for the three sessions
    assert log.count("reusing browser pid") == 2, log
    assert ids[0] == ids[1]
    assert f"stopped browser pid {launched[0][0]}" in stop.stdout, stop
    assert browsers_using(Path(launched[0][1])) == []


def test_mcp_launch_stops_its_browser_at_the_end_without_keep(tmp_path: Path) -> None:
    log_path = tmp_path / "mcp.log"
    socket_dirs: list[Path | None] = []

    async def scenario() -> None:
        with log_path.open("w") as errlog:
            async with mcp_session(["--launch"], no_display_env(tmp_path / "run"), errlog) as mcp:
                with anyio.fail_after(40):
                    tabs = await mcp.call_tool("tabs", {})
                assert not tabs.is_error, tabs
                profile = re.search(
                    r"launched browser pid \d+, profile (\S+), host socket", log_path.read_text()
                )
                socket_dirs.append(singleton_dir(Path(profile.group(1))) if profile else None)

    anyio.run(scenario)
    log = log_path.read_text()
    launched = re.search(r"launched browser pid (\d+), profile (\S+), host socket", log)
    assert launched and "runs headless" in log and f"stopped browser pid {launched.group(1)}" in log, log
    assert browsers_using(Path(launched.group(2))) == []
    # Nothing left in /tmp: Chromium's single-instance socket folder, which a browser stopped by a
    # signal leaves there, goes with it.
    assert socket_dirs and socket_dirs[0] is not None and not socket_dirs[0].exists(), socket_dirs
