"""Fixtures and hooks of the end-to-end suite (the helpers its modules share: helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from browserx import Client
from tests.e2e.harness import Browser, Servers, browser_with_extension, fixture_servers
from tests.e2e.person_pages import Pages


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


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    """The options page beside the web page, the person's settings put back before and after."""
    p = Pages(browser)
    p.reset()
    try:
        yield p
    finally:
        p.reset()
        p.close()
