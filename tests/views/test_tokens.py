"""Token counting in pieces gives the same count as one encode of the whole text."""

from __future__ import annotations

import random

import pytest

from browserx.views import tokens
from browserx.views.tokens import _encoding, count_tokens


def _whole(text: str) -> int:
    return len(_encoding().encode(text, disallowed_special=()))


def _view_like(seed: int, lines: int = 4000) -> str:
    """Text-view-shaped lines with the awkward parts: indentation, blank-line runs, trailing
    spaces, non-ASCII, digits and punctuation at line ends."""
    rng = random.Random(seed)
    parts = []
    for i in range(lines):
        indent = " " * rng.choice([0, 0, 1, 2, 3])
        line = rng.choice(
            [f"[{i}] button Buy {i}-{rng.randint(0, 99)}", f"[{i}] Link {i} → /p/{i}", "## Section ünïcödé",
             f"Item {i} | {rng.randint(0, 999)} | [{i}] textbox Name", "-- below the viewport --", "", "   ",
             "trailing space ", "end.", "„quoted“ — 日本語テキスト", "\t tab"]
        )  # fmt: skip
        parts.append(indent + line + "\n" * rng.choice([1, 1, 1, 2, 3]))
    return "".join(parts)


@pytest.mark.parametrize("seed", range(6))
def test_counting_in_pieces_matches_one_encode(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "CHUNK_CHARS", 97)  # many cuts, in every kind of spot
    text = _view_like(seed)
    assert count_tokens(text) == _whole(text)


def test_text_without_a_safe_cut_is_counted_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "CHUNK_CHARS", 10)
    for text in ("x" * 500, "a\n  b\n   c\n\n\n" * 40, "\n" * 300, ""):
        assert count_tokens(text) == _whole(text)
