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

BROWSERS = ("chrome", "chromium", "edge", "brave")
OsName = Literal["linux", "darwin", "windows"]

REPO_ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = REPO_ROOT / "manifests" / f"{HOST_NAME}.json.in"

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


def launcher_path(os_name: OsName) -> Path:
    return REPO_ROOT / "scripts" / ("browserx-host.bat" if os_name == "windows" else "browserx-host")


def render_manifest(host_path: Path | str, extension_id: str = EXTENSION_ID) -> str:
    text = TEMPLATE.read_text(encoding="utf-8")
    # JSON-escape the path (Windows backslashes) before substituting it.
    text = text.replace('"@HOST_PATH@"', json.dumps(str(host_path)))
    return text.replace("@EXTENSION_ID@", extension_id)


def plan_install(
    *,
    browsers: tuple[str, ...] = BROWSERS,
    os_name: OsName,
    home: Path,
    host_path: Path | str,
    user_data_dir: Path | None = None,
    extension_id: str = EXTENSION_ID,
) -> list[Step]:
    manifest = render_manifest(host_path, extension_id)
    filename = f"{HOST_NAME}.json"
    if user_data_dir is not None:
        # One profile's own NativeMessagingHosts/ (what tests and `browserx launch` use).
        return [WriteFile(user_data_dir / "NativeMessagingHosts" / filename, manifest)]
    steps: list[Step] = []
    for browser in browsers:
        if os_name == "linux":
            steps.append(WriteFile(home / _LINUX_DIRS[browser] / "NativeMessagingHosts" / filename, manifest))
        elif os_name == "darwin":
            steps.append(WriteFile(home / _MAC_DIRS[browser] / "NativeMessagingHosts" / filename, manifest))
        else:
            path = home / "AppData" / "Local" / "browserx" / browser / filename
            steps += [
                WriteFile(path, manifest),
                RegistryValue(f"{_WINDOWS_KEYS[browser]}\\{HOST_NAME}", str(path)),
            ]
    return steps


def apply(steps: list[Step]) -> None:
    for step in steps:
        if isinstance(step, WriteFile):
            step.path.parent.mkdir(parents=True, exist_ok=True)
            step.path.write_text(step.content, encoding="utf-8")
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
        host_path=launcher_path(os_name),
        user_data_dir=user_data_dir,
    )
