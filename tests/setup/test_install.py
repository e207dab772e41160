"""Native-messaging host registration: per-OS, per-browser plans, the rendered manifest, apply and
remove, the install-host CLI, and the extension's pinned id."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import sys
from pathlib import Path, PurePosixPath, PureWindowsPath

import pytest

from browserx.interfaces.cli import main as cli_main
from browserx.relay.protocol import EXTENSION_ID, HOST_NAME
from browserx.setup import install
from browserx.setup.install import (
    BROWSERS,
    RegistryValue,
    WriteFile,
    apply,
    current_os,
    default_plan,
    launcher,
    plan_install,
    remove,
    render_manifest,
)

REPO = Path(__file__).resolve().parents[2]
FILENAME = "com.browserx.host.json"
PY = "/opt/bx/venv/bin/python"
ORIGIN = "chrome-extension://bdmcchjakioickidfhiggdbapfpibgdc/"

LINUX = {
    "chrome": ".config/google-chrome",
    "chromium": ".config/chromium",
    "edge": ".config/microsoft-edge",
    "brave": ".config/BraveSoftware/Brave-Browser",
}
MAC = {
    "chrome": "Library/Application Support/Google/Chrome",
    "chromium": "Library/Application Support/Chromium",
    "edge": "Library/Application Support/Microsoft Edge",
    "brave": "Library/Application Support/BraveSoftware/Brave-Browser",
}
WINDOWS_KEYS = {
    "chrome": "Software\\Google\\Chrome\\NativeMessagingHosts\\com.browserx.host",
    "chromium": "Software\\Chromium\\NativeMessagingHosts\\com.browserx.host",
    "edge": "Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.browserx.host",
    "brave": "Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts\\com.browserx.host",
}


def check_manifest(text: str, host_path: str) -> None:
    manifest = json.loads(text)
    assert manifest["name"] == HOST_NAME == "com.browserx.host"
    assert manifest["type"] == "stdio"
    assert manifest["path"] == host_path
    assert manifest["allowed_origins"] == [ORIGIN]
    assert isinstance(manifest.get("description", ""), str)
    assert "@" not in text, "unsubstituted placeholder"


def test_constants() -> None:
    assert HOST_NAME == "com.browserx.host"
    assert EXTENSION_ID == "bdmcchjakioickidfhiggdbapfpibgdc"
    assert BROWSERS == ("chrome", "chromium", "edge", "brave")


# -- plans -------------------------------------------------------------------------------------


def _pair(steps: list[install.Step], folder: str) -> None:
    """A launcher and, beside it, the manifest that names it."""
    run, manifest = steps
    assert isinstance(run, WriteFile) and isinstance(manifest, WriteFile)
    assert run.executable and not manifest.executable
    assert str(manifest.path.parent) == str(run.path.parent) == folder
    assert manifest.path.name == FILENAME
    check_manifest(manifest.content, str(run.path))


@pytest.mark.parametrize("browser", BROWSERS)
def test_linux_plan(browser: str) -> None:
    steps = plan_install(browsers=(browser,), os_name="linux", home=Path("/home/ada"), python=PY)
    _pair(steps, f"/home/ada/{LINUX[browser]}/NativeMessagingHosts")
    assert steps[0].path.name == "browserx-host"  # type: ignore[union-attr]


@pytest.mark.parametrize("browser", BROWSERS)
def test_macos_plan(browser: str) -> None:
    steps = plan_install(browsers=(browser,), os_name="darwin", home=Path("/Users/ada"), python=PY)
    _pair(steps, f"/Users/ada/{MAC[browser]}/NativeMessagingHosts")


@pytest.mark.parametrize("browser", BROWSERS)
def test_windows_plan(browser: str) -> None:
    home = PureWindowsPath("C:/Users/Ada")
    python = r"C:\Program Files\Python311\python.exe"
    steps = plan_install(browsers=(browser,), os_name="windows", home=home, python=python)  # type: ignore[arg-type]
    assert len(steps) == 3
    *files, registry = steps
    _pair(files, f"C:\\Users\\Ada\\AppData\\Local\\browserx\\{browser}")
    assert files[0].path.name == "browserx-host.bat"  # type: ignore[union-attr]
    assert python in files[0].content  # type: ignore[union-attr]
    assert isinstance(registry, RegistryValue)
    assert registry.key == WINDOWS_KEYS[browser]
    assert registry.value == str(files[1].path)  # type: ignore[union-attr]
    assert f"HKCU\\{WINDOWS_KEYS[browser]}" in registry.describe()


def test_windows_manifest_files_are_distinct_per_browser() -> None:
    steps = plan_install(os_name="windows", home=PureWindowsPath("C:/Users/Ada"), python="py.exe")  # type: ignore[arg-type]
    files = [s.path for s in steps if isinstance(s, WriteFile)]
    keys = [s.key for s in steps if isinstance(s, RegistryValue)]
    assert len(files) == len(set(files)) == 8
    assert sorted(keys) == sorted(WINDOWS_KEYS.values())


@pytest.mark.parametrize("os_name", ["linux", "darwin"])
def test_all_browsers_by_default(os_name: install.OsName) -> None:
    steps = plan_install(os_name=os_name, home=Path("/h"), python=PY)
    dirs = LINUX if os_name == "linux" else MAC
    assert [str(s.path) for s in steps if isinstance(s, WriteFile) and not s.executable] == [
        f"/h/{dirs[b]}/NativeMessagingHosts/{FILENAME}" for b in BROWSERS
    ]


@pytest.mark.parametrize("os_name", ["linux", "darwin", "windows"])
def test_user_data_dir_plan_writes_only_that_profile(os_name: install.OsName, tmp_path: Path) -> None:
    steps = plan_install(os_name=os_name, home=Path("/h"), python=PY, user_data_dir=tmp_path / "profile")
    _pair(steps, str(tmp_path / "profile" / "NativeMessagingHosts"))


def test_the_launcher_runs_this_installations_host(tmp_path: Path) -> None:
    odd = "/opt/it's here/bin/python3"
    script = launcher("linux", odd)
    assert script.startswith("#!/bin/sh\n") and script.endswith('-m browserx.host "$@"\n')
    assert "'/opt/it'\\''s here/bin/python3'" in script  # quoted for sh
    bat = launcher("windows", r"C:\Py\python.exe")
    assert bat == '@echo off\r\n"C:\\Py\\python.exe" -m browserx.host %*\r\n'
    # It really starts this interpreter's host module: run with --version-only stand-in (sh -n).
    path = tmp_path / "browserx-host"
    path.write_text(launcher("linux", "/bin/echo"), encoding="utf-8")
    path.chmod(0o755)
    import subprocess

    out = subprocess.run([str(path), "chrome-extension://x/"], capture_output=True, text=True, check=True)
    assert out.stdout == "-m browserx.host chrome-extension://x/\n"


# -- manifest ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host_path",
    [
        "/opt/browserx/scripts/browserx-host",
        "C:\\Users\\Ada\\browserx\\scripts\\browserx-host.bat",
        'C:\\odd "quoted" dir\\tab\there\\x.bat',
        PurePosixPath("/a b/ü/browserx-host"),
    ],
)
def test_rendered_manifest_is_valid_json(host_path: str | PurePosixPath) -> None:
    text = render_manifest(host_path)  # type: ignore[arg-type]
    check_manifest(text, str(host_path))


def test_manifest_with_another_extension_id() -> None:
    manifest = json.loads(render_manifest("/x", extension_id="abcdefghijklmnopabcdefghijklmnop"))
    assert manifest["allowed_origins"] == ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]


def test_default_plan_uses_this_os_home_and_interpreter(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    run, manifest = default_plan("chromium", None)
    assert isinstance(run, WriteFile) and isinstance(manifest, WriteFile)
    assert run.path.is_relative_to(tmp_path) and manifest.path.is_relative_to(tmp_path)
    assert Path(json.loads(manifest.content)["path"]) == run.path
    assert sys.executable in run.content


# -- apply / remove ----------------------------------------------------------------------------


def test_apply_and_remove(tmp_path: Path) -> None:
    steps = plan_install(os_name="linux", home=tmp_path, python=PY)
    apply(steps)
    paths = [s.path for s in steps if isinstance(s, WriteFile)]
    for step in steps:
        assert isinstance(step, WriteFile)
        assert step.path.read_text(encoding="utf-8") == step.content
        assert os.access(step.path, os.X_OK) == step.executable
    apply(steps)  # idempotent
    removed = remove(steps)
    assert removed == [str(p) for p in paths]
    assert not any(p.exists() for p in paths)
    assert remove(steps) == []


def test_apply_and_remove_user_data_dir(tmp_path: Path) -> None:
    steps = plan_install(os_name="linux", home=Path("/nonexistent"), python=PY, user_data_dir=tmp_path)
    apply(steps)
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")) == [
        "NativeMessagingHosts",
        "NativeMessagingHosts/browserx-host",
        f"NativeMessagingHosts/{FILENAME}",
    ]
    folder = tmp_path / "NativeMessagingHosts"
    assert remove(steps) == [str(folder / "browserx-host"), str(folder / FILENAME)]


# -- CLI ---------------------------------------------------------------------------------------


def _expected_dir(home: Path, browser: str) -> Path:
    dirs = MAC if current_os() == "darwin" else LINUX
    return home / dirs[browser] / "NativeMessagingHosts"


def test_cli_install_host_dry_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cli_main(["install-host", "--dry-run", "--browser", "chromium"]) == 0
    out = capsys.readouterr().out
    folder = _expected_dir(tmp_path, "chromium")
    assert out.startswith(f"write {folder / 'browserx-host'}:\n#!/bin/sh")
    check_manifest(out.split(f"write {folder / FILENAME}:\n", 1)[1], str(folder / "browserx-host"))
    assert list(tmp_path.iterdir()) == []


def test_cli_install_host_dry_run_all_browsers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cli_main(["install-host", "--dry-run"]) == 0
    out = capsys.readouterr().out
    for browser in BROWSERS:
        assert f"write {_expected_dir(tmp_path, browser) / FILENAME}:\n" in out
    assert list(tmp_path.iterdir()) == []


def test_cli_install_and_uninstall_user_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    profile = tmp_path / "profile"
    target = profile / "NativeMessagingHosts" / FILENAME
    run = profile / "NativeMessagingHosts" / "browserx-host"

    assert cli_main(["uninstall-host", "--dry-run", "--user-data-dir", str(profile)]) == 0
    assert capsys.readouterr().out == f"would remove: {run}\nwould remove: {target}\n"

    assert cli_main(["install-host", "--user-data-dir", str(profile)]) == 0
    assert capsys.readouterr().out == f"installed: {run}\ninstalled: {target}\n"
    check_manifest(target.read_text(encoding="utf-8"), str(run))

    assert cli_main(["uninstall-host", "--user-data-dir", str(profile)]) == 0
    assert capsys.readouterr().out == f"removed: {run}\nremoved: {target}\n"
    assert not target.exists() and not run.exists()
    assert list(home.iterdir()) == []


def test_cli_rejects_an_unknown_browser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli_main(["install-host", "--dry-run", "--browser", "netscape"])
    assert info.value.code == 2
    assert "netscape" in capsys.readouterr().err


# -- the extension's pinned id -----------------------------------------------------------------


def extension_id_from_key(key_b64: str) -> str:
    digest = hashlib.sha256(base64.b64decode(key_b64)).hexdigest()[:32]
    return "".join(chr(ord("a") + int(c, 16)) for c in digest)


def test_extension_key_hashes_to_the_extension_id() -> None:
    manifest = json.loads(
        (REPO / "host" / "browserx" / "extension" / "manifest.json").read_text(encoding="utf-8")
    )
    assert extension_id_from_key(manifest["key"]) == EXTENSION_ID


def test_extension_id_mapping_is_right() -> None:
    # sha256(b"") starts e3b0c44298fc1c149afbf4c8996fb924; 0 → a ... f → p.
    assert extension_id_from_key("") == "odlameecjipmbmbejkplpemijjgpljce"
    assert len(EXTENSION_ID) == 32 and set(EXTENSION_ID) <= set("abcdefghijklmnop")


def test_extension_manifest_permissions() -> None:
    manifest = json.loads(
        (REPO / "host" / "browserx" / "extension" / "manifest.json").read_text(encoding="utf-8")
    )
    assert manifest["manifest_version"] == 3
    assert "nativeMessaging" in manifest["permissions"]
    assert "debugger" in manifest["permissions"]
