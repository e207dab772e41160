"""The public surface of the ``browserx`` package."""

from __future__ import annotations

import importlib.metadata
import inspect

import browserx
from browserx.control.client import Client
from browserx.errors import BrowserxError


def _public_names() -> set[str]:
    """Names a user would see: not private, not a submodule; plus __version__."""
    names = {
        name
        for name in dir(browserx)
        if not name.startswith("_") and not inspect.ismodule(getattr(browserx, name))
    }
    return names | {"__version__"}


def test_all_equals_the_public_names() -> None:
    assert sorted(browserx.__all__) == sorted(_public_names())
    assert len(browserx.__all__) == len(set(browserx.__all__))


def test_all_is_exactly_the_documented_api() -> None:
    assert set(browserx.__all__) == {"BrowserxError", "Client", "__version__"}
    assert browserx.Client is Client
    assert browserx.BrowserxError is BrowserxError


def test_star_import() -> None:
    namespace: dict[str, object] = {}
    exec("from browserx import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(browserx.__all__)


def test_version_matches_the_distribution() -> None:
    assert browserx.__version__ == importlib.metadata.version("browserx")
