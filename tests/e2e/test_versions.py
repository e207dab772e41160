"""Host and extension agree on a version, or every request says they do not: an unpacked
extension of another version than the host (as after upgrading one and not the other) is named,
with both versions and the fix, and `status` shows both."""

from __future__ import annotations

import pytest

from browserx import Client, __version__
from browserx.errors import VersionMismatch
from tests.e2e.harness import browser_with_extension
from tests.e2e.servers import Servers


def test_an_extension_of_another_version_is_refused_with_the_fix(servers: Servers) -> None:
    with browser_with_extension(extension_version="0.0.1") as browser, Client() as bx:
        browser.driver.get(servers.url("hello.html"))
        status = bx.status()
        assert status["version"] == __version__ and status["extension"]["version"] == "0.0.1"
        for call in (bx.tabs, lambda: bx.snapshot(), lambda: bx.call("click", id=1)):
            with pytest.raises(VersionMismatch) as info:
                call()
            assert "0.0.1" in info.value.message and __version__ in info.value.message
            assert "browserx extension" in info.value.message
        assert browser.driver.title == "Hello fixture"  # nothing touched the page
