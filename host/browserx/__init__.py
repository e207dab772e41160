"""browserx: eyes and hands for an LLM agent in a person's real browser."""

from browserx import _native  # noqa: F401  (first: decides which build of the hot modules loads)
from browserx._version import __version__
from browserx.control.client import Client
from browserx.errors import BrowserxError

__all__ = ["BrowserxError", "Client", "__version__"]
