"""Fuzz tests: hooks that time each target, sample memory, and print the figures at the end."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fuzz import harness

_clock: harness.Clock | None = None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/fuzz/" in str(item.fspath):
            item.add_marker(pytest.mark.fuzz)
            # A falsifying example holding a megabyte string is worth reporting, warning or not.
            item.add_marker(pytest.mark.filterwarnings("ignore:Generating overly large repr"))


@pytest.fixture(scope="module", autouse=True)
def _fuzz_module() -> Iterator[None]:
    """The log sink is on while a fuzz module runs (and only then: other tests keep their logs)."""
    global _clock
    if _clock is None:
        _clock = harness.Clock()
        harness.STATS.rss_start = harness.settled_rss()
    harness.start_log_sink()
    try:
        yield
    finally:
        harness.stop_log_sink()


@pytest.fixture(autouse=True)
def _fuzz_target(request: pytest.FixtureRequest) -> Iterator[None]:
    """Per test: wall time and RSS before/after, booked on the targets the test counted."""
    before = {name: t.cases for name, t in harness.STATS.targets.items()}
    rss = harness.settled_rss()
    clock = harness.Clock()
    yield
    for name, t in harness.STATS.targets.items():
        if t.cases != before.get(name, 0):
            if name not in before:
                t.rss_start = rss
            t.seconds += clock.elapsed()
            t.rss_end = harness.settled_rss()
            t.peak = harness.peak_rss()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not harness.STATS.targets or _clock is None:
        return
    terminalreporter.section("fuzz")
    for line in harness.report_lines(_clock.elapsed()):
        terminalreporter.write_line(line)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # `make fuzz` fails when a floor is missed, even if every test passed.
    if harness.FULL and harness.STATS.targets and not harness.floors_met() and exitstatus == 0:
        session.exitstatus = 1
