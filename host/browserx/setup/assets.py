"""The files browserx ships beside its code, as package data: the browser extension (the folder
"Load unpacked" takes) and the native-messaging host manifest's template. Found through
``importlib.resources``, so an installed wheel has them exactly as a checkout does, wherever the
checkout is (or whether there is one)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def package_dir() -> Path:
    """The installed ``browserx`` package's folder (a real folder: browserx is never zipped)."""
    return Path(str(resources.files("browserx")))


EXTENSION_DIR = package_dir() / "extension"
HOST_MANIFEST_TEMPLATE = package_dir() / "native_host.json.in"

__all__ = ["EXTENSION_DIR", "HOST_MANIFEST_TEMPLATE", "package_dir"]
