"""browserx as it ships: the sdist and the wheel built from this checkout (twine-checked), the
wheel installed with pip into a fresh virtualenv and used from a folder outside the checkout with a
HOME of its own — the extension's folder, the host registered for Chromium, a headless browser
launched on a served page and a snapshot of it, all without the checkout on any path the
installation uses — and run by `uvx` as an MCP server."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

import browserx
from tests.e2e.servers import PAGES, fixture_servers

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e


def _clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without browserx's or coverage's settings (the run measures this
    checkout, not the installation)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BROWSERX_", "COVERAGE", "PYTHON"))}
    return {**env, **extra}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The venv the wheel went into (its bin/browserx), built and installed once for the module.
    The wheel is built from the sdist (as `python -m build` does, with the locked setuptools: no
    build isolation), so a file the sdist leaves out fails here; twine checks both for PyPI."""
    root = tmp_path_factory.mktemp("wheel")
    started = time.monotonic()
    build = [sys.executable, "-m", "build", "--no-isolation", "-o", str(root / "dist"), str(REPO)]
    subprocess.run(build, check=True, cwd=root, env=_clean_env(), capture_output=True)
    (wheel,) = (root / "dist").glob("browserx-*.whl")
    (sdist,) = (root / "dist").glob("browserx-*.tar.gz")
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist)],
        cwd=root, env=_clean_env(), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert checked.returncode == 0 and checked.stdout.count("PASSED") == 2, checked.stdout + checked.stderr
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True, env=_clean_env())
    pip = [str(root / "venv" / "bin" / "pip"), "install", "-q", str(wheel)]
    subprocess.run(pip, check=True, cwd=root, env=_clean_env())
    print(f"\nwheel {wheel.name}: {wheel.stat().st_size / 1024:.0f} KiB, built and installed in "
          f"{time.monotonic() - started:.0f} s")  # fmt: skip
    yield root / "venv"


def _run(venv: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = _clean_env(HOME=str(home), BROWSERX_RUNTIME_DIR=str(home / "run"))
    env["PATH"] = f"{venv / 'bin'}:{env['PATH']}"
    return subprocess.run(
        [str(venv / "bin" / "browserx"), *args],
        cwd=home,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _files(venv: Path) -> set[Path]:
    """The installation's files (byte-code caches aside: Python writes those where it may)."""
    return {p for p in (venv / "lib").rglob("*") if "__pycache__" not in p.parts}


def test_the_installed_wheel_runs_without_the_checkout(installed: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    before = _files(installed)
    started = time.monotonic()
    out = _run(installed, home, "extension")
    assert out.returncode == 0, out.stderr
    folder = Path(out.stdout.splitlines()[-1])
    assert folder.is_relative_to(installed) and not folder.is_relative_to(REPO)
    assert json.loads((folder / "manifest.json").read_text())["version"] == browserx.__version__

    out = _run(installed, home, "install-host", "--browser", "chromium")
    assert out.returncode == 0, out.stderr
    manifest_path = home / ".config" / "chromium" / "NativeMessagingHosts" / "com.browserx.host.json"
    launcher = Path(json.loads(manifest_path.read_text())["path"])
    assert os.access(launcher, os.X_OK) and not launcher.is_relative_to(REPO)
    assert str(installed / "bin" / "python") in launcher.read_text()

    with fixture_servers(PAGES) as servers:
        out = _run(installed, home, "launch", "--headless", "--url", servers.url("hello.html"), "--json")
        assert out.returncode == 0, out.stderr
        try:
            snap = _run(installed, home, "snapshot")
            assert snap.returncode == 0, snap.stderr
            assert "Hello" in snap.stdout, snap.stdout
            print(f"from the first command to the first snapshot: {time.monotonic() - started:.1f} s")
            status = json.loads(_run(installed, home, "status", "--json").stdout)
            cmdline = Path(f"/proc/{status['pid']}/cmdline").read_bytes().split(b"\0")
            assert Path(cmdline[0].decode()).parent == installed / "bin", cmdline  # this venv's host
        finally:
            _run(installed, home, "stop")
    out = _run(installed, home, "uninstall-host", "--browser", "chromium")
    assert out.returncode == 0 and not manifest_path.exists() and not launcher.exists()
    assert _files(installed) == before  # profiles, sockets and logs went under HOME, not site-packages


PAGE = b"""<!doctype html><title>Shop</title><button onclick="fetch('/other')">Cancel</button>
<button onclick="fetch('/pressed')">Buy</button>"""


@pytest.fixture
def logged_server() -> Iterator[tuple[str, list[str]]]:
    """A page with two buttons, each fetching its own path: the server's log says which was pressed."""
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(PAGE if self.path == "/" else b"ok")

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", seen
    finally:
        server.shutdown()
        server.server_close()


def test_an_mcp_client_drives_the_package_run_by_uvx(
    installed: Path, tmp_path: Path, logged_server: tuple[str, list[str]]
) -> None:
    """The README's one-line config, `uvx browserx mcp --launch`, with the wheel in PyPI's place
    (`--from`; its dependencies from the index, held to the lock) and no display, through the
    official MCP SDK client: the tools listed, the page read, the right button clicked (the
    server's log says which)."""
    url, seen = logged_server
    home = tmp_path / "home"
    home.mkdir()
    env = _clean_env(HOME=str(home), BROWSERX_RUNTIME_DIR=str(home / "run"))
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    (wheel,) = (installed.parent / "dist").glob("browserx-*.whl")
    uvx = [
        str(Path(sys.executable).parent / "uvx"),
        "--from",
        str(wheel),
        "-c",
        str(REPO / "requirements" / "dev.txt"),
    ]
    server = StdioServerParameters(
        command=uvx[0], args=[*uvx[1:], "browserx", "mcp", "--launch", "--url", url], env=env, cwd=str(home)
    )

    async def scenario() -> None:
        with (home / "mcp.log").open("w") as errlog:
            async with (
                stdio_client(server, errlog=errlog) as (read, write),
                ClientSession(read, write) as mcp,
            ):
                with anyio.fail_after(60):
                    await mcp.initialize()
                    names = [t.name for t in (await mcp.list_tools()).tools]
                    assert {"snapshot", "click", "upload", "drag", "console"} <= set(names)
                    view = (await mcp.call_tool("snapshot", {})).content[0].text  # type: ignore[union-attr]
                    buy = next(
                        int(line.split("]")[0].split("[")[1]) for line in view.splitlines() if "Buy" in line
                    )
                    clicked = await mcp.call_tool("click", {"id": buy})
                    assert not clicked.is_error, clicked

    try:
        anyio.run(scenario)
    finally:
        _run(installed, home, "stop", "--all")
    assert "/pressed" in seen and "/other" not in seen, seen
    assert "runs headless" in (home / "mcp.log").read_text()  # no display: headless by itself
