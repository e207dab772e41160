"""Registering the native-messaging host with browsers.

``plan_install`` is pure: it says which files (and on Windows, registry values) to write for each
browser, so every OS's plan is testable anywhere; ``apply`` carries a plan out.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from browserx.relay.protocol import EXTENSION_ID, HOST_NAME
from browserx.setup.assets import HOST_MANIFEST_TEMPLATE

BROWSERS = ("chrome", "chromium", "edge", "brave")
OsName = Literal["linux", "darwin", "windows"]

LAUNCHER = {"windows": "browserx-host.bat"}  # written next to the manifest; elsewhere: browserx-host

# Per-user config dirs, relative to $HOME (Linux: ~/.config, macOS: ~/Library/Application Support).
_LINUX_DIRS = {
    "chrome": ".config/google-chrome",
    "chromium": ".config/chromium",
    "edge": ".config/microsoft-edge",
    "brave": ".config/BraveSoftware/Brave-Browser",
}
_MAC_DIRS = {
    "chrome": "Library/Application Support/Google/Chrome",
    "chromium": "Library/Application Support/Chromium",
    "edge": "Library/Application Support/Microsoft Edge",
    "brave": "Library/Application Support/BraveSoftware/Brave-Browser",
}
_WINDOWS_KEYS = {
    "chrome": r"Software\Google\Chrome\NativeMessagingHosts",
    "chromium": r"Software\Chromium\NativeMessagingHosts",
    "edge": r"Software\Microsoft\Edge\NativeMessagingHosts",
    "brave": r"Software\BraveSoftware\Brave-Browser\NativeMessagingHosts",
}


@dataclass(frozen=True)
class WriteFile:
    path: Path
    content: str
    executable: bool = False

    def describe(self) -> str:
        return f"write {self.path}:\n{self.content}"


@dataclass(frozen=True)
class RegistryValue:
    key: str  # under HKEY_CURRENT_USER
    value: str  # the default value: path of the manifest file

    def describe(self) -> str:
        return f"set registry HKCU\\{self.key}\\{HOST_NAME} (default) = {self.value}"


Step = WriteFile | RegistryValue


def current_os() -> OsName:
    if sys.platform.startswith("win"):
        return "windows"
    if sys.platform == "darwin":
        return "darwin"
    return "linux"


def launcher(os_name: OsName, python: str) -> str:
    """The small program the browser starts (the manifest's ``path``): this installation's
    interpreter running the host, so it works wherever browserx was installed (a virtualenv, pipx,
    uv tool, a checkout's .venv) and keeps working when a checkout moves or goes."""
    if os_name == "windows":
        return f'@echo off\r\n"{python}" -m browserx.host %*\r\n'
    quoted = "'" + python.replace("'", "'\\''") + "'"
    return f'#!/bin/sh\n# Written by `browserx install-host`: the browser starts the browserx host through it.\nexec {quoted} -m browserx.host "$@"\n'


def render_manifest(host_path: Path | str, extension_id: str = EXTENSION_ID) -> str:
    text = HOST_MANIFEST_TEMPLATE.read_text(encoding="utf-8")
    # JSON-escape the path (Windows backslashes) before substituting it.
    text = text.replace('"@HOST_PATH@"', json.dumps(str(host_path)))
    return text.replace("@EXTENSION_ID@", extension_id)


def plan_install(
    *,
    browsers: tuple[str, ...] = BROWSERS,
    os_name: OsName,
    home: Path,
    python: str,
    user_data_dir: Path | None = None,
    extension_id: str = EXTENSION_ID,
) -> list[Step]:
    """For each browser: the launcher (running ``python``'s browserx) and, beside it, the manifest
    that names it."""
    filename = f"{HOST_NAME}.json"
    script = launcher(os_name, python)
    name = LAUNCHER.get(os_name, "browserx-host")
    if user_data_dir is not None:  # one profile's own NativeMessagingHosts/ (tests, `browserx launch`)
        folders = [user_data_dir / "NativeMessagingHosts"]
    elif os_name == "linux":
        folders = [home / _LINUX_DIRS[b] / "NativeMessagingHosts" for b in browsers]
    elif os_name == "darwin":
        folders = [home / _MAC_DIRS[b] / "NativeMessagingHosts" for b in browsers]
    else:
        folders = [home / "AppData" / "Local" / "browserx" / b for b in browsers]
    steps: list[Step] = []
    for folder in folders:
        steps += [
            WriteFile(folder / name, script, executable=True),
            WriteFile(folder / filename, render_manifest(folder / name, extension_id)),
        ]
    if os_name == "windows" and user_data_dir is None:
        steps += [
            RegistryValue(f"{_WINDOWS_KEYS[b]}\\{HOST_NAME}", str(folder / filename))
            for b, folder in zip(browsers, folders, strict=True)
        ]
    return steps


def apply(steps: list[Step]) -> None:
    for step in steps:
        if isinstance(step, WriteFile):
            step.path.parent.mkdir(parents=True, exist_ok=True)
            step.path.write_text(step.content, encoding="utf-8", newline="")
            if step.executable:
                step.path.chmod(0o755)
        else:
            _set_registry(step)


def remove(steps: list[Step]) -> list[str]:
    removed = []
    for step in steps:
        if isinstance(step, WriteFile):
            if step.path.exists():
                step.path.unlink()
                removed.append(str(step.path))
        else:
            if _delete_registry(step):
                removed.append(f"HKCU\\{step.key}")
    return removed


def _set_registry(step: RegistryValue) -> None:  # pragma: no cover - Windows only
    winreg: Any = importlib.import_module("winreg")

    with winreg.CreateKey(winreg.HKEY_CURRENT_USER, step.key) as key:
        winreg.SetValueEx(key, "", 0, winreg.REG_SZ, step.value)


def _delete_registry(step: RegistryValue) -> bool:  # pragma: no cover - Windows only
    winreg: Any = importlib.import_module("winreg")

    try:
        winreg.DeleteKey(winreg.HKEY_CURRENT_USER, step.key)
    except OSError:
        return False
    return True


def default_plan(browser: str | None, user_data_dir: Path | None) -> list[Step]:
    os_name = current_os()
    return plan_install(
        browsers=(browser,) if browser else BROWSERS,
        os_name=os_name,
        home=Path(os.path.expanduser("~")),
        python=sys.executable,
        user_data_dir=user_data_dir,
    )
