"""browserx launch's throwaway profile goes when its browser does."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

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


def test_stop_ends_the_last_launched_browser_and_removes_its_throwaway_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from browserx.launch import launched, record_launch, stop

    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path / "run"))
    browsers = []
    for name in ("old", "new"):
        profile = tmp_path / name
        profile.mkdir()
        # A stand-in browser in a session of its own, as launch() starts the real one.
        proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
        record_launch(proc.pid, profile, throwaway=True)
        browsers.append((proc, profile))
        time.sleep(0.01)
    try:
        running = launched()
        assert [r.browser_pid for r in running] == [p.pid for p, _ in browsers]
        stop(running[-1])
        assert browsers[1][0].wait(timeout=10) is not None
        assert not browsers[1][1].exists() and browsers[0][1].exists()
        assert [r.browser_pid for r in launched()] == [browsers[0][0].pid]
    finally:
        for proc, _ in browsers:
            proc.kill()
            proc.wait()
    assert launched() == []  # the records of exited browsers are dropped
