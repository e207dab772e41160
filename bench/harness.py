"""The machinery every bench script shares (run.py, corpus.py, screenshot.py): a temporary work
directory with the environment the host reads, the pages served, one headless Chromium with the
browserx extension, host and a CDP port, the host's memory sampled while it serves, the comparison
tools' log warnings tallied, timing helpers, and the facts about the run (date, machine, load,
versions) a report prints. Nothing here knows which tools are compared or how they are scored."""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import importlib.metadata
import logging
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pages import write_pages

from browserx.runtime import wait_for_new_host
from browserx.setup.install import apply, default_plan
from browserx.setup.launch import browser_flags, find_browser

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the fixture servers and the app corpus are shared with the e2e tests
from tests.e2e.servers import fixture_servers  # noqa: E402

VIEWPORT = (1280, 900)  # the browser window (browserx.setup.launch.browser_flags)


# -- the command line ------------------------------------------------------------------------------


def arg_parser(doc: str | None, runs: int, runs_are: str) -> argparse.ArgumentParser:
    """A script's parser: its docstring as the description, and ``--runs`` (``runs_are``: what is
    counted, as the help says it)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=runs, help=f"measured {runs_are} (default {runs})")
    return parser


def comma_list(text: str) -> tuple[str, ...]:
    """An option's comma-separated names (empty items dropped)."""
    return tuple(x for x in text.split(",") if x)


def comma_ints(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in comma_list(text))


# -- timing ----------------------------------------------------------------------------------------


def spread(ms: list[float]) -> str:
    """ "median   42.0  p90   51.3  min   38.9": a timing's summary, one line of a report."""
    ordered = sorted(ms)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered):7.1f}  p90 {p90:7.1f}  min {ordered[0]:7.1f}"


def median_or_none(values: Iterable[float | None]) -> float | None:
    """The median of the values that are there, None when none is."""
    have = [v for v in values if v is not None]
    return statistics.median(have) if have else None


class Timings:
    """A tool's measured runs on one page (mixed into the scripts' result records)."""

    runs_ms: list[float]

    @property
    def median(self) -> float | None:
        return median_or_none(self.runs_ms)

    @property
    def min(self) -> float | None:
        return min(self.runs_ms) if self.runs_ms else None


def short_error(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip().replace("\n", " ")
    return text[:300] + ("…" if len(text) > 300 else "")


# -- the work directory ----------------------------------------------------------------------------


@contextlib.contextmanager
def workdir(prefix: str, raw_cdp: bool = False) -> Iterator[Path]:
    """A temporary directory, removed afterwards, holding the host's runtime dir (the control
    socket) and, with ``raw_cdp``, a config that opens the raw ``cdp`` method for this host only
    (the scripts that load and measure pages through it)."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        os.environ["BROWSERX_RUNTIME_DIR"] = str(path / "run")
        if raw_cdp:
            config = path / "config.json"
            config.write_text('{"allow_raw_cdp": true}', encoding="utf-8")
            os.environ["BROWSERX_CONFIG"] = str(config)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def serve_pages(workdir: Path, sizes: tuple[int, ...]) -> Iterator[tuple[str, list[str]]]:
    """The fixture pages and a generated page per size (``pages.write_pages``), written to
    ``workdir``/pages and served on two sites (the e2e tests' ``fixture_servers``: the generated
    pages' iframe is cross-site); yields the pages' origin and the generated pages' file names."""
    directory = workdir / "pages"
    directory.mkdir()
    generated = write_pages(directory, sizes)
    with fixture_servers(directory) as servers:
        yield servers.origin, generated


# -- the browser -----------------------------------------------------------------------------------


@dataclass
class Browser:
    proc: subprocess.Popen[bytes]
    cdp_endpoint: str
    host_pid: int
    version: str

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        # The host exits when the browser closes its pipe; make sure of it (by its own pid).
        deadline = time.monotonic() + 5
        while Path(f"/proc/{self.host_pid}").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        with contextlib.suppress(ProcessLookupError):
            if Path(f"/proc/{self.host_pid}").exists():
                os.kill(self.host_pid, signal.SIGTERM)


@contextlib.contextmanager
def running_browser(workdir: Path, timeout: float = 45.0) -> Iterator[Browser]:
    """``start_browser``, stopped on the way out."""
    browser = start_browser(workdir, timeout)
    try:
        yield browser
    finally:
        browser.stop()


def start_browser(workdir: Path, timeout: float = 45.0) -> Browser:
    """System Chromium, headless, with the extension, the host registered in a temp profile and a CDP
    port. BROWSERX_RUNTIME_DIR must already point at a temp dir (``workdir`` sets it)."""
    profile = workdir / "profile"
    apply(default_plan(None, profile))
    started = time.time()
    cmd = [
        find_browser(),
        *browser_flags(profile, headless=True),
        "--remote-debugging-port=0",
        "--remote-debugging-address=127.0.0.1",
        "about:blank",
    ]
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: stopped with killpg
    )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + timeout
        while not port_file.exists() or not port_file.read_text().strip():
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"Chromium exposed no CDP port (exit code {proc.poll()})")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        host = wait_for_new_host(started, timeout, str(profile))
        if host is None:
            raise RuntimeError(f"no browserx host connected within {timeout:.0f} s")
        version = subprocess.run(
            [cmd[0], "--version"], capture_output=True, text=True, check=False
        ).stdout.strip()
        return Browser(proc, f"http://127.0.0.1:{port}", host.pid, version)
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        raise


# -- watching processes ----------------------------------------------------------------------------


class LogTally(logging.Handler):
    """Counts the warnings the given loggers log (numbers masked), to note them per page."""

    def __init__(self, loggers: Sequence[str]) -> None:
        super().__init__(logging.WARNING)
        self.loggers = tuple(loggers)
        self.counts: Counter[str] = Counter()
        self._seen: set[int] = set()

    def emit(self, record: logging.LogRecord) -> None:
        if id(record) in self._seen:  # the same record reaches several of the loggers we watch
            return
        self._seen.add(id(record))
        message = re.sub(r"\d+", "N", record.getMessage().splitlines()[0] if record.getMessage() else "")
        self.counts[f"{record.name.split('.')[0].split(' ')[0]}: {message[:120]}"] += 1

    def attach(self) -> None:
        for name in self.loggers:
            logging.getLogger(name).addHandler(self)

    def detach(self) -> None:
        for name in self.loggers:
            logging.getLogger(name).removeHandler(self)

    def clear(self) -> None:
        self.counts.clear()
        self._seen.clear()

    def summary(self, top: int = 5) -> list[str]:
        return [f"`{message}` ×{n}" for message, n in self.counts.most_common(top)]


class RssSampler:
    """Samples VmRSS of one process every few ms in a thread while ``sampling`` is on."""

    def __init__(self, pid: int, interval: float = 0.005) -> None:
        self.pid = pid
        self.interval = interval
        self.max_kb = 0
        self._on = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def status_kb(self, key: str) -> int | None:
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith(key + ":"):
                    return int(line.split()[1])
        except OSError:
            return None
        return None

    def _loop(self) -> None:
        while not self._stop.is_set():
            if self._on.wait(0.1):
                kb = self.status_kb("VmRSS")
                if kb:
                    self.max_kb = max(self.max_kb, kb)
                time.sleep(self.interval)

    @contextlib.contextmanager
    def sampling(self) -> Iterator[None]:
        self.max_kb = self.status_kb("VmRSS") or 0
        self._on.set()
        try:
            yield
        finally:
            self._on.clear()
            self.max_kb = max(self.max_kb, self.status_kb("VmRSS") or 0)

    def close(self) -> None:
        self._stop.set()
        self._on.set()
        self._thread.join(timeout=2)


# -- facts about the run ---------------------------------------------------------------------------


def machine_info() -> dict[str, Any]:
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    ram = "unknown"
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    return {"nproc": os.cpu_count(), "cpu": cpu, "ram": ram, "kernel": platform.release()}


def version_of(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def interpreter() -> str:
    """The Python running this, as a path relative to the checkout when it lives inside it."""
    exe = Path(sys.executable)
    try:
        return str(exe.relative_to(ROOT))
    except ValueError:
        return str(exe)


def run_facts(script: str, argv: list[str] | None) -> dict[str, Any]:
    """What a report says about its run, known at the start: date, machine, the command that
    reproduces it (``script`` as run from the checkout), the load average; ``end_facts`` adds the
    elapsed time and the load at the end."""
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine_info(),
        "command": " ".join([interpreter(), script, *(argv if argv is not None else sys.argv[1:])]),
        "load_start": os.getloadavg(),
        "started": time.monotonic(),
    }


def end_facts(facts: dict[str, Any]) -> None:
    facts["elapsed_s"] = time.monotonic() - facts["started"]
    facts["load_end"] = os.getloadavg()
