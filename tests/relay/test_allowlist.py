"""Least privilege: the CDP allowlist is exactly what the host's code sends, and the test-only
methods are off in a host without the test switch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from browserx.relay.protocol import CDP_ALLOWLIST, TEST_ONLY_CDP, allowed

HOST = Path(__file__).resolve().parents[2] / "host" / "browserx"


def test_every_allowlisted_method_is_sent_by_the_host() -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in HOST.rglob("*.py") if p.name != "protocol.py")
    unused = sorted(m for m in CDP_ALLOWLIST if f'"{m}"' not in sources)
    assert not unused, f"allowlisted but never sent by the host: {unused}"


def test_test_only_methods_need_the_test_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BROWSERX_TEST_CDP", raising=False)
    assert not any(allowed(m) for m in TEST_ONLY_CDP)
    assert not TEST_ONLY_CDP & CDP_ALLOWLIST
    monkeypatch.setenv("BROWSERX_TEST_CDP", "1")
    assert all(allowed(m) for m in TEST_ONLY_CDP)
    assert not allowed("Browser.close")


def test_the_shipped_extension_has_no_test_allowlist_and_no_content_script() -> None:
    extension = HOST / "extension"
    assert not (extension / "allowlist-test.js").exists()
    worker = (extension / "service-worker.js").read_text(encoding="utf-8")
    assert re.search(r'importScripts\("allowlist-test\.js"\)', worker)  # loaded only where present
