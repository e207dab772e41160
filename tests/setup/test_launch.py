"""browserx launch's throwaway profile goes when its browser does."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from browserx.runtime import alive
from browserx.setup.launch import remove_when_gone


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
    from browserx.setup.launch import launched, record_launch, stop

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


# -- a browser that cannot start: at once, in its own words --------------------------------------

NO_X = (
    "[14986:14986:1127/103126.894116:ERROR:ui/ozone/platform/x11/ozone_platform_x11.cc:257] Missing X server or $DISPLAY\n"
    "[14986:14986:1127/103126.894147:ERROR:ui/aura/env.cc:253] The platform failed to initialize.  Exiting.\n"
)


def _no_display(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


def test_a_display_is_an_x_server_or_a_wayland_compositor_on_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    from browserx.setup.launch import display_available

    _no_display(monkeypatch)
    assert not display_available()
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    assert display_available()
    monkeypatch.delenv("WAYLAND_DISPLAY")
    monkeypatch.setenv("DISPLAY", ":0")
    assert display_available()
    _no_display(monkeypatch)
    monkeypatch.setattr(sys, "platform", "darwin")
    assert display_available()


def test_no_window_without_a_display_names_headless_and_quotes_chromium(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from browserx.setup.launch import exited_early

    _no_display(monkeypatch)
    error = exited_early(1, NO_X, headless=False, user_profile=False)
    assert error.code == "no_host"
    assert 'Chromium says "Missing X server or $DISPLAY"' in error.message
    assert "$DISPLAY and $WAYLAND_DISPLAY are unset" in error.message and "--headless" in error.message
    assert "extension" not in error.message  # not blamed: it never had a chance
    assert error.details["exit_code"] == 1 and error.details["stderr"][0] == "Missing X server or $DISPLAY"
    monkeypatch.setenv("DISPLAY", ":99")  # a display named that cannot be opened
    error = exited_early(1, NO_X, headless=False, user_profile=False)
    assert "DISPLAY=':99'" in error.message and "--headless" in error.message


def test_any_other_early_exit_is_reported_with_its_code_and_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    from browserx.setup.launch import exited_early

    monkeypatch.setenv("DISPLAY", ":0")
    error = exited_early(21, "[1:1:0:FATAL:x.cc:1] Bad flag\n", headless=True, user_profile=False)
    assert error.message == (
        "The browser exited (exit code 21) before browserx's host connected. Its last lines on stderr: Bad flag"
    )
    taken = exited_early(0, "", headless=False, user_profile=True)
    assert "already running with this profile" in taken.message and "--headless" not in taken.message


def _fake_browser(tmp_path: Path, body: str) -> str:
    """An executable that stands in for Chromium (it ignores the flags)."""
    script = tmp_path / "fake-browser"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    return str(script)


def test_launch_fails_at_once_when_the_browser_exits_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from browserx.errors import NoHost
    from browserx.setup.launch import launch, launched

    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path / "run"))
    _no_display(monkeypatch)
    profile = tmp_path / "profile"
    fake = _fake_browser(tmp_path, "printf '%s' \"$NO_X\" >&2; exit 1")
    monkeypatch.setenv("NO_X", NO_X)
    started = time.monotonic()
    with pytest.raises(NoHost, match="--headless") as caught:
        launch(browser=fake, user_data_dir=profile, timeout=30)
    assert time.monotonic() - started < 2, "waited for the timeout"
    assert "Missing X server or $DISPLAY" in caught.value.message
    assert launched() == []  # never recorded as a running browser


def test_launch_times_out_with_the_browsers_last_words_and_stops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from browserx.errors import NoHost
    from browserx.setup.launch import launch

    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path / "run"))
    pid_file = tmp_path / "pid"
    fake = _fake_browser(
        tmp_path, f"echo $$ > {pid_file}; echo 'Failed to load extension' >&2; exec sleep 60"
    )
    with pytest.raises(NoHost, match="within 1 s") as caught:
        launch(browser=fake, timeout=1, headless=True)
    assert "Failed to load extension" in caught.value.message
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid), "the browser was left running"


def test_a_kept_browser_is_the_newest_launched_one_whose_host_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from browserx.runtime import HostRecord
    from browserx.setup import launch as launch_module
    from browserx.setup.launch import record_launch, reusable

    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path / "run"))
    assert reusable() is None
    procs = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) for _ in range(3)]
    try:
        for n, proc in enumerate(procs):
            record_launch(proc.pid, tmp_path / f"p{n}", throwaway=True)
            time.sleep(0.01)
        hosts = [
            HostRecord(pid=1, socket="/s0", started_at=1, version="0", profile=str(tmp_path / "p0")),
            HostRecord(pid=2, socket="/s1", started_at=2, version="0", profile=str(tmp_path / "p1")),
        ]  # p2's host is not (yet) serving
        monkeypatch.setattr(launch_module, "live_hosts", lambda: hosts)
        found = reusable()
        assert found is not None and found.browser_pid == procs[1].pid and found.host.socket == "/s1"
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


# -- Chromium's single-instance socket folder in the temp dir --------------------------------------


def _singleton(tmp_path: Path, profile: Path, extra: str | None = None) -> Path:
    """A profile linked, as Chromium links it, to a socket folder of its own in a stand-in temp dir."""
    import os

    folder = tmp_path / "tmp" / "org.chromium.Chromium.AbC123"
    folder.mkdir(parents=True)
    (folder / "SingletonSocket").touch()  # (a socket in Chromium's; tmp_path is too long a path for one)
    (folder / "SingletonCookie").symlink_to("1234567890")
    if extra:
        (folder / extra).write_text("not Chromium's")
    profile.mkdir(exist_ok=True)
    os.symlink(folder / "SingletonSocket", profile / "SingletonSocket")
    return folder


@pytest.mark.parametrize("throwaway", [True, False])
def test_stop_removes_the_socket_folder_chromium_left_in_the_temp_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, throwaway: bool
) -> None:
    from browserx.setup.launch import launched, record_launch, singleton_dir, stop

    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path / "run"))
    profile = tmp_path / "profile"
    folder = _singleton(tmp_path, profile)
    assert singleton_dir(profile) == folder
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    try:
        record_launch(proc.pid, profile, throwaway=throwaway)
        stop(launched()[-1])
        assert proc.wait(timeout=10) is not None
    finally:
        proc.kill()
        proc.wait()
    assert not folder.exists()
    assert profile.exists() != throwaway  # a profile of the person's own stays


def test_a_socket_folder_holding_anything_else_is_left_alone(tmp_path: Path) -> None:
    from browserx.setup.launch import remove_singleton_dir, singleton_dir

    profile = tmp_path / "profile"
    folder = _singleton(tmp_path, profile, extra="notes.txt")
    remove_singleton_dir(folder)
    assert sorted(p.name for p in folder.iterdir()) == ["SingletonCookie", "SingletonSocket", "notes.txt"]
    assert singleton_dir(tmp_path / "no-profile") is None
