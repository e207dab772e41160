"""``browserx launch``: start a Chromium-family browser with the extension loaded and the host
registered in a (throwaway by default) profile, and wait until its host is serving, or until the
browser exits: then say why, in its own words (its stderr), and what to do (``--headless`` when it
had no display to open a window on)."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from pydantic import BaseModel

from browserx.errors import NoHost
from browserx.runtime import HostRecord, alive, ensure_runtime_dir, live_hosts, runtime_dir
from browserx.setup.assets import EXTENSION_DIR
from browserx.setup.install import apply, default_plan

# Standard logging, not structlog: this runs in the CLI and the MCP server, whose stdout is not
# for logs (unconfigured structlog prints there).
log = logging.getLogger("browserx.setup.launch")

BROWSER_CANDIDATES = (
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "microsoft-edge",
    "brave-browser",
)

# Quiet, reproducible flags; the network-related ones keep Chromium from dialling home.
QUIET_FLAGS = (
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--disable-gpu",
    "--window-size=1280,900",
)


# Chromium's words when it has no display for a window (X11, Wayland, GTK), and the prefix of its
# log lines ("[pid:tid:date:ERROR:file.cc:257] ").
_NO_DISPLAY = re.compile(
    r"Missing X server|cannot open display|Failed to connect to Wayland|platform failed to initialize", re.I
)
_LOG_PREFIX = re.compile(r"^\[[^\]]*\]\s*")
STDERR_TAIL_LINES = 8


def display_available() -> bool:
    """Whether a browser window has somewhere to open: on Linux an X server or a Wayland compositor
    named in the environment; macOS and Windows always have one."""
    if not sys.platform.startswith("linux"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def find_browser() -> str:
    for name in BROWSER_CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    raise NoHost(
        f"No Chromium-family browser found on PATH (tried {', '.join(BROWSER_CANDIDATES)}); pass --browser."
    )


def browser_flags(user_data_dir: Path, headless: bool, extension_dir: Path = EXTENSION_DIR) -> list[str]:
    flags = [f"--user-data-dir={user_data_dir}", f"--load-extension={extension_dir}", *QUIET_FLAGS]
    if headless:
        flags.append("--headless=new")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        flags.append("--no-sandbox")  # Chromium refuses to start as root with its sandbox on
    return flags


@dataclass
class Launched:
    browser_pid: int
    user_data_dir: Path
    host: HostRecord


def launch(
    url: str | None = None,
    headless: bool = False,
    browser: str | None = None,
    user_data_dir: Path | None = None,
    timeout: float = 30.0,
) -> Launched:
    """Start the browser and wait for its host. Raises NoHost, at once when the browser exits
    first (quoting its stderr; naming ``--headless`` when it could not open a window), or after
    ``timeout``; either way nothing it started is left running."""
    executable = browser or find_browser()  # before making a profile that nothing would remove
    profile = user_data_dir or Path(tempfile.mkdtemp(prefix="browserx-profile-"))
    apply(default_plan(None, profile))
    started = time.time()
    cmd = [executable, *browser_flags(profile, headless)]
    if url:
        cmd.append(url)
    # An unnamed file, not a pipe: nobody drains a pipe once this command has returned, and the
    # browser writes to it for as long as it runs. Read only if it fails to start.
    with tempfile.TemporaryFile() as stderr:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            start_new_session=True,  # the browser outlives this command
        )
        if user_data_dir is None:
            remove_when_gone(proc.pid, profile)
        try:
            host = _wait_for_host(
                proc, started, timeout, str(profile), headless, stderr, user_data_dir is not None
            )
        except NoHost:
            stop_browser(
                proc.pid, profile if user_data_dir is None else None, grace_s=2.0, user_data_dir=profile
            )
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(1)  # collected (stop_browser may have reaped it already: then at once)
            raise
    record_launch(proc.pid, profile, throwaway=user_data_dir is None)
    if url and url.lower().startswith(("http:", "https:", "file:")):
        _wait_for_page(host, url, min(timeout, PAGE_WAIT_S))
    return Launched(proc.pid, profile, host)


PAGE_WAIT_S = 15.0  # for the page asked for to load
PAGE_SHOWN_S = 4.0  # for the browser's own first navigation to show it


def _wait_for_page(host: HostRecord, url: str, timeout: float) -> None:
    """Make sure the tab shows the page asked for: with the extension's network rules
    (declarativeNetRequest) the browser may start its first navigation seconds late, or lose it,
    while the tab already says it is complete at that address (with no title yet: a loaded page
    has one, its address when it sets none). Asked through ``tabs`` (attaching then would lose the
    navigation) for a moment; then the page is opened again, as ``navigate`` does (it waits)."""
    from browserx.control.client import Client

    deadline = time.monotonic() + PAGE_SHOWN_S
    with contextlib.suppress(Exception), Client(host.socket) as bx:  # (a slow page is no failure)
        while time.monotonic() < deadline:
            if any(
                t.get("status") == "complete"
                and t.get("title")
                and str(t.get("url", "")).startswith(("http:", "https:", "file:"))
                for t in bx.tabs()
            ):
                return
            time.sleep(0.1)
        bx.navigate(url, timeout=timeout)


def _wait_for_host(
    proc: subprocess.Popen[bytes],
    since: float,
    timeout: float,
    profile: str,
    headless: bool,
    stderr: IO[bytes],
    user_profile: bool,
) -> HostRecord:
    """The host the browser's extension started, polled for; NoHost as soon as the browser exits
    without one, or after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        for record in live_hosts():
            if record.started_at >= since and record.profile in (None, profile):
                return record
        code = proc.poll()
        if code is not None:
            raise exited_early(code, _read_all(stderr), headless, user_profile)
        if time.monotonic() > deadline:
            tail = _tail(_read_all(stderr))
            raise NoHost(
                f"The browser started (pid {proc.pid}) but no browserx host connected within {timeout:.0f} s. "
                "Check that the extension loaded (chrome://extensions) and the host log in the runtime dir."
                + (f" The browser's last lines on stderr: {' | '.join(tail)}" if tail else ""),
                stderr=tail,
            )
        time.sleep(0.1)


def _read_all(stream: IO[bytes]) -> str:
    stream.seek(0)
    return stream.read().decode("utf-8", "replace")


def _tail(text: str, lines: int = STDERR_TAIL_LINES) -> list[str]:
    return [_LOG_PREFIX.sub("", line).strip() for line in text.splitlines() if line.strip()][-lines:]


def exited_early(code: int, stderr: str, headless: bool, user_profile: bool) -> NoHost:
    """The error for a browser that exited before its host connected: its exit code and its own
    words; when it could not open a window, that it needs a display or ``--headless``."""
    tail = _tail(stderr)
    no_window = next((_LOG_PREFIX.sub("", line).strip() for line in stderr.splitlines()
                      if _NO_DISPLAY.search(line)), None)  # fmt: skip
    if not headless and (no_window is not None or not display_available()):
        said = (
            f'Chromium says "{no_window}"' if no_window else f"its last words: {' | '.join(tail) or '(none)'}"
        )
        where = (
            "there is no display here ($DISPLAY and $WAYLAND_DISPLAY are unset)"
            if not display_available()
            else f"the display could not be opened (DISPLAY={os.environ.get('DISPLAY', '')!r}, "
            f"WAYLAND_DISPLAY={os.environ.get('WAYLAND_DISPLAY', '')!r})"
        )
        return NoHost(
            f"The browser could not open a window and exited at once (exit code {code}): {said}; {where}. "
            "Run it without a window: add --headless (`browserx launch --headless`, "
            "`browserx mcp --launch --headless`).",
            exit_code=code,
            stderr=tail,
        )
    hint = (
        " Exit code 0 right away: a browser already running with this profile took the request;"
        " close it, or use another --user-data-dir."
        if code == 0 and user_profile
        else ""
    )
    return NoHost(
        f"The browser exited (exit code {code}) before browserx's host connected."
        + (f" Its last lines on stderr: {' | '.join(tail)}" if tail else " It wrote nothing on stderr.")
        + hint,
        exit_code=code,
        stderr=tail,
    )


# -- a browser for one-shot sessions (browserx mcp --launch --keep) ----------------------------------


@contextlib.contextmanager
def launch_lock() -> Iterator[None]:
    """One launch-or-reuse at a time in this runtime dir: two one-shot sessions started together
    share one browser instead of starting two."""
    import fcntl  # POSIX, as the rest of launching is (process groups)

    ensure_runtime_dir()
    with (runtime_dir() / "launch.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def reusable() -> Launched | None:
    """The newest browser browserx launched (``browserx launch``, or a kept ``mcp --launch``)
    whose host is serving, for a session that reuses it instead of starting another."""
    hosts = live_hosts()
    for record in reversed(launched()):
        for host in hosts:
            if host.profile == record.user_data_dir:
                return Launched(record.browser_pid, Path(record.user_data_dir), host)
    return None


# -- what `browserx stop` stops ---------------------------------------------------------------


class LaunchRecord(BaseModel):
    browser_pid: int
    user_data_dir: str
    throwaway: bool  # a profile browserx made, removed when the browser stops
    started_at: float


def _record_path(pid: int) -> Path:
    return runtime_dir() / f"launched-{pid}.json"


def record_launch(pid: int, profile: Path, throwaway: bool) -> None:
    ensure_runtime_dir()
    record = LaunchRecord(
        browser_pid=pid, user_data_dir=str(profile), throwaway=throwaway, started_at=time.time()
    )
    _record_path(pid).write_text(record.model_dump_json(), encoding="utf-8")


def launched() -> list[LaunchRecord]:
    """The browsers browserx launched from this runtime dir that still run, oldest first (the
    records of those that have exited are dropped)."""
    records: list[LaunchRecord] = []
    for path in sorted(runtime_dir().glob("launched-*.json")):
        try:
            record = LaunchRecord.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if alive(record.browser_pid):
            records.append(record)
        else:
            path.unlink(missing_ok=True)
    return sorted(records, key=lambda r: r.started_at)


def stop(record: LaunchRecord, grace_s: float = 5.0) -> None:
    """Stop a launched browser and forget it; its profile goes when browserx made it."""
    stop_browser(
        record.browser_pid,
        Path(record.user_data_dir) if record.throwaway else None,
        grace_s,
        user_data_dir=Path(record.user_data_dir),
    )
    _record_path(record.browser_pid).unlink(missing_ok=True)


def stop_browser(
    pid: int, profile: Path | None, grace_s: float = 5.0, user_data_dir: Path | None = None
) -> None:
    """Stop a browser browserx started: its whole process group (it was started in a session of
    its own), politely first, then for sure; then remove ``profile`` if given, and the folder
    Chromium made in the temp dir for its profile's single-instance socket (``user_data_dir``,
    default ``profile``: a stopped Chromium leaves it behind)."""
    linked = user_data_dir or profile
    socket_dir = singleton_dir(linked) if linked is not None else None
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGTERM)
        deadline = time.monotonic() + grace_s
        while _group_alive(pid):
            _reap(pid)
            if time.monotonic() > deadline:
                log.warning("browser pid %d still running after %.1f s: killing it", pid, grace_s)
                os.killpg(pid, signal.SIGKILL)
                _reap(pid)
                break
            time.sleep(0.05)
    if profile is not None:
        shutil.rmtree(profile, ignore_errors=True)
    if socket_dir is not None and not _group_alive(pid):
        remove_singleton_dir(socket_dir)
    _record_path(pid).unlink(missing_ok=True)
    log.info("stopped browser pid %d%s", pid, f", removed profile {profile}" if profile else "")


# What Chromium keeps in the temp-dir folder its profile's ``SingletonSocket`` links into.
_SINGLETON_FILES = frozenset({"SingletonSocket", "SingletonCookie"})


def singleton_dir(user_data_dir: Path) -> Path | None:
    """The folder Chromium made in the temp dir (``org.chromium.Chromium.XXXXXX``) for the
    single-instance socket of the browser running on ``user_data_dir``, which links to it; None
    when there is none. Read it while the browser runs: its profile may go with it."""
    try:
        target = Path(os.readlink(user_data_dir / "SingletonSocket"))
    except (OSError, ValueError):
        return None
    return target.parent if target.name == "SingletonSocket" and target.is_absolute() else None


def remove_singleton_dir(folder: Path) -> None:
    """Remove Chromium's single-instance socket folder once its browser has exited (Chromium
    stopped by a signal leaves it in /tmp), and only if it holds nothing but that socket and its
    cookie: anything else there is not ours to delete."""
    with contextlib.suppress(OSError):
        entries = list(folder.iterdir())
        if not entries or any(entry.name not in _SINGLETON_FILES for entry in entries):
            return
        for entry in entries:
            entry.unlink()
        folder.rmdir()


def _reap(pid: int) -> None:
    """Collect the browser's exit status when it is our child: until then it is a zombie."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def _group_alive(pgid: int) -> bool:
    """Whether a process of the group still runs. Zombies do not count: the browser's children
    are reparented to PID 1 when it exits, and a PID 1 that reaps slowly (containers) would keep
    an exited group "alive" for seconds."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    proc = Path("/proc")
    if not proc.is_dir():  # not Linux: zombies count, the wait is only longer
        return True
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:  # after "(comm)": state, ppid, pgrp, ...
            state, _, pgrp = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue
        if pgrp == str(pgid) and state != "Z":
            return True
    return False


def remove_when_gone(pid: int, path: Path) -> None:
    """Remove a throwaway profile once the browser using it has exited: a small process of its own
    (the browser outlives `browserx launch`) that checks every second."""
    _removers.append(
        subprocess.Popen(
            [sys.executable, "-m", "browserx.setup.launch", "--remove-when-gone", str(pid), str(path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    )


_removers: list[subprocess.Popen[bytes]] = []  # never waited for: they outlive this process


def _wait_then_remove(pid: int, path: Path, poll_s: float = 1.0) -> None:
    socket_dir: Path | None = None
    while alive(pid):
        socket_dir = singleton_dir(path) or socket_dir  # (made once the browser is up)
        time.sleep(poll_s)
    shutil.rmtree(path, ignore_errors=True)
    if socket_dir is not None:
        remove_singleton_dir(socket_dir)


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "--remove-when-gone":
    _wait_then_remove(int(sys.argv[2]), Path(sys.argv[3]))
