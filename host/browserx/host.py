"""The native-messaging host process: started by the browser (``connectNative``), it speaks
framed JSON on stdin/stdout with the extension and serves agents on a control socket.

stdout is the browser channel and nothing else may touch it: at start-up the real stdout is set
aside for frames and file descriptor 1 is pointed at stderr, so a stray print cannot corrupt it.
Run as ``python -m browserx.host`` (what the launcher `browserx install-host` writes does).
"""

from __future__ import annotations

import sys

if __name__ == "__main__":
    # structlog formats exceptions with rich when it can import it: ~6 MB of the host's resident
    # memory (its budget is 150 MB with a 50k-element page) for log lines that go to a file as
    # plain text anyway. The host process goes without (None in sys.modules: not importable).
    sys.modules.setdefault("rich", None)  # type: ignore[arg-type]

import asyncio
import contextlib
import logging
import os
import signal
import time
from pathlib import Path
from typing import IO, TextIO, cast

import structlog

from browserx._version import __version__
from browserx.control.api import build_methods
from browserx.control.server import ControlServer
from browserx.environment import environment
from browserx.framing import FrameWriter, read_frames
from browserx.relay.connection import ExtensionConnection
from browserx.runtime import (
    HostRecord,
    ensure_runtime_dir,
    link_browser,
    prune_logs,
    remove_record,
    unlink_browser,
    write_record,
)
from browserx.settings import load_settings
from browserx.tabs.registry import TabRegistry

log = structlog.get_logger("browserx.host")

# How long the host waits for the extension's hello (it carries the tabs' ID watermarks) before
# it serves agents anyway.
HELLO_TIMEOUT_S = 5.0


def configure_logging(log_file: Path | None, level: str = "info") -> IO[str] | None:
    """structlog → JSON lines in a log file (stderr without one); never stdout."""
    stream: IO[str] = sys.stderr
    handle: IO[str] | None = None
    if log_file is not None:
        fd = os.open(log_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        handle = stream = open(fd, "a", buffering=1, encoding="utf-8")  # noqa: SIM115
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=structlog.PrintLoggerFactory(cast(TextIO, stream)),
        cache_logger_on_first_use=True,
    )
    return handle


def _take_stdout() -> int:
    """Reserve the real stdout for frames; make fd 1 an alias of stderr."""
    frames_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return frames_fd


def _browser_profile() -> str | None:
    """The browser's --user-data-dir, read from the parent's command line (Linux only)."""
    try:
        args = Path(f"/proc/{os.getppid()}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    for arg in args:
        if arg.startswith(b"--user-data-dir="):
            return arg.split(b"=", 1)[1].decode(errors="replace")
    return None


async def serve(stdin_fd: int, stdout_fd: int) -> int:
    loop = asyncio.get_running_loop()
    runtime = ensure_runtime_dir()
    pid = os.getpid()
    socket_path = str(runtime / f"host-{pid}.sock")

    reader = asyncio.StreamReader(limit=2**20)
    await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(stdin_fd, "rb", buffering=0)
    )
    w_transport, w_protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(stdout_fd, "wb", buffering=0)
    )
    writer = asyncio.StreamWriter(w_transport, w_protocol, None, loop)
    frames = FrameWriter(writer)

    conn = ExtensionConnection(frames.send)
    registry = TabRegistry(conn)
    settings = load_settings()
    server = ControlServer(socket_path, build_methods(registry, socket_path, settings))
    record = HostRecord(
        pid=pid,
        socket=socket_path,
        started_at=time.time(),
        version=__version__,
        profile=_browser_profile(),
        log=str(runtime / f"host-{pid}.log"),
        browser_pid=os.getppid(),
    )
    serving = False

    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)

    async def pump() -> None:
        async for item in read_frames(reader):
            if isinstance(item, Exception):
                log.error("bad_frame", error=str(item))
                continue
            conn.feed(item)
            if conn.hello is not None and record.browser is None:
                record.browser = conn.hello.userAgent or ""
                registry.restore_watermarks(conn.hello.watermarks)
                if serving:  # a hello later than HELLO_TIMEOUT_S
                    write_record(record)
        log.info("stdin_closed")

    pump_task = asyncio.create_task(pump())
    stop_task = asyncio.create_task(stop.wait())
    # Agents are served once the extension said hello: it hands over each tab's ID watermark, so
    # the first snapshot after a host restart already numbers above every ID given out before.
    greeted = asyncio.create_task(conn.greeted.wait())
    await asyncio.wait(
        {greeted, pump_task, stop_task}, timeout=HELLO_TIMEOUT_S, return_when=asyncio.FIRST_COMPLETED
    )
    greeted.cancel()
    if conn.hello is None:
        log.warning("no_hello", waited_s=HELLO_TIMEOUT_S)
    await server.start()
    write_record(record)
    link_browser(record)
    serving = True
    log.info("host_started", pid=pid, socket=socket_path, argv=sys.argv[1:])
    sweep = (
        asyncio.create_task(registry.release_idle_forever(settings.idle_release_s))
        if settings.idle_release_s
        else None
    )
    try:
        await asyncio.wait({pump_task, stop_task}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if sweep is not None:
            sweep.cancel()
        conn.close()
        await server.close()
        unlink_browser(record)
        remove_record(pid)
        pump_task.cancel()
        stop_task.cancel()
        log.info("host_stopped")
    # The pump never raises on bad input (feed() logs and drops it); should a bug end it anyway,
    # the host must not vanish without a word.
    crash = pump_task.exception() if pump_task.done() and not pump_task.cancelled() else None
    if crash is not None:
        log.error("stdin_pump_crashed", error=repr(crash)[:500])
        return 1
    return 0


def _record_captures(directory: Path | None) -> None:
    """Started by scripts/record_payloads.py (BROWSERX_RECORD_DIR): save every capture there, for
    unit tests on real payloads. Decided once, here; capture itself knows nothing of it."""
    if directory is None:
        return
    from browserx.page.recording import recorded
    from browserx.tabs import snapshots

    snapshots.capture_page = recorded(snapshots.capture_page, directory)
    log.info("recording_captures", directory=str(directory))


def main() -> int:
    frames_fd = _take_stdout()
    runtime = ensure_runtime_dir()
    prune_logs()  # the last few ended hosts' logs stay for a post-mortem, not every one forever
    env = environment()
    handle = configure_logging(runtime / f"host-{os.getpid()}.log", env.log_level)
    _record_captures(env.record_dir)
    try:
        return asyncio.run(serve(0, frames_fd))
    except Exception:
        log.exception("host_crashed")
        return 1
    finally:
        if handle is not None:
            handle.close()


if __name__ == "__main__":
    sys.exit(main())
