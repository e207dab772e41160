"""browserx launch's throwaway profile goes when its browser does."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from browserx.launch import remove_when_gone


def test_a_throwaway_profile_is_removed_once_its_browser_has_exited(tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    (profile / "Default").mkdir(parents=True)
    browser = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1.5)"])
    remove_when_gone(browser.pid, profile)
    time.sleep(0.5)
    assert profile.exists(), "removed while the browser still ran"
    browser.wait()
    deadline = time.monotonic() + 10
    while profile.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not profile.exists()


def test_a_profile_whose_browser_exited_unreaped_is_removed_too(tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    profile.mkdir()
    browser = subprocess.Popen([sys.executable, "-c", "pass"])
    time.sleep(0.5)  # a zombie now: exited, not yet waited for by its parent (this test)
    remove_when_gone(browser.pid, profile)
    deadline = time.monotonic() + 10
    while profile.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not profile.exists()
    browser.wait()
