"""Shared machinery of the fuzz tests: the hypothesis profiles, case/crash/hang counting, memory
figures and a log sink that measures every log line the code under test writes.

Profiles (chosen by BROWSERX_FUZZ): ``ci`` (default; what `make test` runs, a few seconds per
target) and ``full`` (what `make fuzz` runs, >= 100,000 cases in total). Both are derandomized:
the same cases every run, so a failure seen once is seen again.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import os
import resource
import time
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec
import structlog
from hypothesis import HealthCheck, settings

from browserx.errors import ERROR_BY_CODE

T = TypeVar("T")

PROFILE = os.environ.get("BROWSERX_FUZZ", "ci").strip().lower() or "ci"
if PROFILE not in ("ci", "full"):
    raise RuntimeError(f"BROWSERX_FUZZ must be 'ci' or 'full', not {PROFILE!r}")
FULL = PROFILE == "full"
FULL_FLOOR = 100_000  # cases `make fuzz` must run in total

for _name in ("ci", "full"):
    settings.register_profile(
        f"browserx-{_name}",
        derandomize=True,  # seeded: the same cases on every run and machine
        database=None,  # nothing written to .hypothesis/
        deadline=None,  # a shared 2-core machine: no per-case wall-clock deadline (hangs are timed below)
        print_blob=False,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
            HealthCheck.filter_too_much,
        ],
    )
settings.load_profile(f"browserx-{PROFILE}")


# BROWSERX_FUZZ_SCALE=0.1 runs a tenth of each budget (a quick look; the floors still apply).
SCALE = float(os.environ.get("BROWSERX_FUZZ_SCALE", "1"))


def examples(ci: int, full: int) -> settings:
    """Per-test budget: ``ci`` cases in CI, ``full`` under `make fuzz`."""
    return settings(max_examples=max(1, round((full if FULL else ci) * SCALE)))


# -- counting -------------------------------------------------------------------------------------


class Hang(AssertionError):
    """An operation that should have ended did not, within its time limit."""


@dataclass
class Target:
    cases: int = 0
    crashes: int = 0  # unexpected exceptions (anything but a property's AssertionError)
    hangs: int = 0
    failures: int = 0  # property violations
    seconds: float = 0.0
    rss_start: int = 0
    rss_end: int = 0
    peak: int = 0  # the process's peak RSS when the target's tests ended (it only rises)


@dataclass
class Stats:
    targets: dict[str, Target] = field(default_factory=dict)
    rss_start: int = 0
    extra: dict[str, str] = field(default_factory=dict)  # figures a target reports (the host's RSS)

    def target(self, name: str) -> Target:
        return self.targets.setdefault(name, Target())

    @property
    def cases(self) -> int:
        return sum(t.cases for t in self.targets.values())

    @property
    def crashes(self) -> int:
        return sum(t.crashes for t in self.targets.values()) + LOGS.crashes

    @property
    def hangs(self) -> int:
        return sum(t.hangs for t in self.targets.values())

    @property
    def failures(self) -> int:
        return sum(t.failures for t in self.targets.values())


STATS = Stats()


@contextlib.contextmanager
def case(target: str) -> Iterator[None]:
    """Count one fuzz case of ``target`` and classify how it ended."""
    t = STATS.target(target)
    t.cases += 1
    try:
        yield
    except Hang:
        t.hangs += 1
        raise
    except AssertionError:
        t.failures += 1
        raise
    except Exception:  # not BaseException: hypothesis stops a case with its own BaseExceptions
        t.crashes += 1
        raise


def run(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T], limit: float) -> T:
    """Run ``coro`` on ``loop``; a run past ``limit`` seconds is a hang."""
    try:
        return loop.run_until_complete(asyncio.wait_for(coro, limit))
    except TimeoutError:
        raise Hang(f"did not finish within {limit} s") from None


def new_loop() -> asyncio.AbstractEventLoop:
    """An event loop whose unhandled task exceptions count as crashes."""
    loop = asyncio.new_event_loop()

    def on_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        LOGS.unhandled.append(str(context.get("message")) + ": " + repr(context.get("exception")))

    loop.set_exception_handler(on_error)
    return loop


# -- memory ---------------------------------------------------------------------------------------

try:
    _libc: ctypes.CDLL | None = ctypes.CDLL("libc.so.6")
except OSError:  # not glibc
    _libc = None
if _libc is not None:
    # The cases allocate and free megabyte strings by the thousand; with glibc's sliding mmap
    # threshold those land on the heap and fragment it, and RSS would measure that, not what
    # is alive. A fixed threshold keeps big blocks in mmap (given back on free).
    _libc.mallopt(-3, 256 * 1024)  # M_MMAP_THRESHOLD


def settled_rss() -> int:
    """This process's RSS after a collection and handing freed heap back to the OS: what is alive."""
    gc.collect()
    if _libc is not None:
        _libc.malloc_trim(0)
    return rss_of()


def rss_of(pid: int | str = "self") -> int:
    """VmRSS of a process, bytes (0 when it is gone)."""
    return _status_field(pid, "VmRSS")


def hwm_of(pid: int | str = "self") -> int:
    """VmHWM (peak RSS) of a process, bytes."""
    return _status_field(pid, "VmHWM")


def _status_field(pid: int | str, name: str) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(name + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def mb(n: int) -> str:
    return f"{n / 2**20:.1f} MB"


# -- logs -----------------------------------------------------------------------------------------


@dataclass
class LogSink:
    """Every log line of the code under test, rendered as the host renders it (JSON, tracebacks
    formatted), measured and dropped."""

    lines: int = 0
    longest: int = 0
    longest_event: str = ""
    tracebacks: int = 0
    events: dict[str, int] = field(default_factory=dict)
    unhandled: list[str] = field(default_factory=list)  # asyncio: exceptions nobody retrieved

    @property
    def crashes(self) -> int:
        return len(self.unhandled)

    def mark(self) -> tuple[int, int]:
        return self.lines, self.tracebacks

    def record(self, rendered: str, event: str) -> None:
        self.lines += 1
        self.events[event] = self.events.get(event, 0) + 1
        if len(rendered) > self.longest:
            self.longest, self.longest_event = len(rendered), event
        if "Traceback (most recent call last)" in rendered:
            self.tracebacks += 1


LOGS = LogSink()
MAX_LOG_LINE = 2048  # bytes: bad input earns a short line, never a traceback


def _measure(_: Any, __: str, event_dict: dict[str, Any]) -> str:
    rendered = structlog.processors.JSONRenderer()(_, __, event_dict)
    assert isinstance(rendered, str)
    LOGS.record(rendered, str(event_dict.get("event")))
    raise structlog.DropEvent


class _AsyncioErrors(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR:
            LOGS.unhandled.append(record.getMessage()[:300])


def start_log_sink() -> None:
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.format_exc_info,
            _measure,
        ],
        logger_factory=structlog.ReturnLoggerFactory(),
        cache_logger_on_first_use=False,
    )
    logging.getLogger("asyncio").addHandler(_ASYNCIO_ERRORS)


def stop_log_sink() -> None:
    structlog.reset_defaults()
    logging.getLogger("asyncio").removeHandler(_ASYNCIO_ERRORS)


_ASYNCIO_ERRORS = _AsyncioErrors()


def assert_logs_small_since(mark: tuple[int, int]) -> None:
    """Since ``mark``: no traceback was logged, no line longer than MAX_LOG_LINE, nothing unhandled."""
    assert LOGS.tracebacks == mark[1], "a traceback was logged for bad input"
    assert LOGS.longest <= MAX_LOG_LINE, f"log line of {LOGS.longest} bytes ({LOGS.longest_event})"
    assert not LOGS.unhandled, f"unhandled exceptions: {LOGS.unhandled[:3]}"


# -- the report -----------------------------------------------------------------------------------


def report_lines(elapsed: float) -> list[str]:
    s = STATS
    lines = [
        f"fuzz profile {PROFILE} (derandomized): {s.cases:,} cases run in {elapsed:.1f} s — "
        f"crashes {s.crashes}, hangs {s.hangs}, property failures {s.failures}",
    ]
    width = max((len(n) for n in s.targets), default=10)
    for name, t in sorted(s.targets.items()):
        lines.append(
            f"  {name:<{width}}  {t.cases:>8,} cases  {t.seconds:6.1f} s  crashes {t.crashes}  "
            f"hangs {t.hangs}  failures {t.failures}  RSS {mb(t.rss_start)} -> {mb(t.rss_end)}"
            f" (process peak so far {mb(t.peak)})"
        )
    lines.append(
        f"  test process RSS (settled): {mb(s.rss_start)} at start, {mb(settled_rss())} at end, "
        f"peak {mb(peak_rss())}"
    )
    lines.extend(f"  {k}: {v}" for k, v in s.extra.items())
    lines.append(
        f"  log lines written by the code under test: {LOGS.lines:,}, longest {LOGS.longest} bytes"
        f" ({LOGS.longest_event or '-'}), tracebacks {LOGS.tracebacks}, unhandled task errors {LOGS.crashes}"
    )
    if FULL:
        verdict = "OK" if floors_met() else "FLOOR MISSED"
        lines.append(f"  floors: >= {FULL_FLOOR:,} cases, 0 crashes, 0 hangs, 0 property failures: {verdict}")
    return lines


def floors_met() -> bool:
    s = STATS
    return s.cases >= FULL_FLOOR and s.crashes == 0 and s.hangs == 0 and s.failures == 0


class Clock:
    def __init__(self) -> None:
        self.started = time.monotonic()

    def elapsed(self) -> float:
        return time.monotonic() - self.started


# -- the control socket's answers ------------------------------------------------------------------

CODES = set(ERROR_BY_CODE) - {"internal"}  # bad input earns a structured error, never `internal`
MAX_MESSAGE = 4096


def check_response(line: bytes) -> dict[str, Any]:
    assert line.endswith(b"\n"), f"response without a newline: {line[:200]!r}"
    response = msgspec.json.decode(line)
    assert isinstance(response, dict)
    assert set(response) in ({"id", "ok", "result"}, {"id", "ok", "error"}), response.keys()
    assert response["id"] is None or type(response["id"]) in (int, str)
    if response["ok"] is True:
        return response
    assert response["ok"] is False
    error = response["error"]
    assert set(error) <= {"code", "message", "details"}
    assert error["code"] in CODES, error
    assert isinstance(error["message"], str)
    assert 0 < len(error["message"]) <= MAX_MESSAGE, len(error["message"])
    return response
