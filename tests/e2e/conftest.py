from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from browserx import Client
from tests.e2e.harness import Browser, Servers, browser_with_extension, fixture_servers

# The snapshot fixture pages checked by both test_snapshot.py and test_ax_oracle.py.
SNAPSHOT_PAGES = [
    "snap-controls.html",
    "snap-js.html",
    "snap-shadow.html",
    "snap-frames.html",
    "snap-layout.html",
    "snap-hidden.html",
    "snap-rerender.html",
    "snap-values.html",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def servers() -> Iterator[Servers]:
    with fixture_servers() as s:
        yield s


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with browser_with_extension() as b:
        yield b


@pytest.fixture
def bx(browser: Browser) -> Iterator[Client]:
    with Client() as client:
        yield client


def open_page(browser: Browser, bx: Client, url: str) -> int:
    """Navigate the Selenium tab to ``url`` and return its browserx tab id."""
    browser.driver.get(url)
    for tab in bx.tabs():
        if tab["url"] == browser.driver.current_url:
            return int(tab["tabId"])
    raise AssertionError(f"tab with {url} not listed: {bx.tabs()}")


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The `browserx` CLI as a separate process, with this process's environment (runtime dir)."""
    return subprocess.run(
        [sys.executable, "-m", "browserx.interfaces.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ.copy(),
    )
