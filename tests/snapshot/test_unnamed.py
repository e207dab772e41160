"""snapshot/unnamed.py: the hint of a control without a name, from what its markup says."""

from __future__ import annotations

import pytest

from browserx.snapshot.unnamed import MAX_HINT, hint_of, words_of


@pytest.mark.parametrize(
    "said,hint",
    [
        ([["icon", "lucide-settings"]], "settings"),
        ([["icon", "fa-solid"], ["icon", "fa-trash-can"]], "trash can"),  # a style class says nothing
        ([["icon", "bi-send-fill"]], "send"),
        ([["icon", "mdi-cog-outline"]], "cog"),
        ([["sprite", "icon-gear"]], "gear"),
        ([["ligature", "help_outline"]], "help outline"),
        ([["testid", "chat-submit"]], "chat submit"),
        ([["testid", "uploadButton"]], "upload"),
        ([["id", ":r5:"], ["title", "Attach"]], "Attach"),  # a generated id: the next source
        ([["id", "radix-:R2a:"]], ""),
        ([["name", "q"]], ""),  # one letter is no word
        ([["svg", "  Send\n message "]], "Send message"),
        ([["testid", "btn-2"], ["svg", "x"]], "x"),  # digits and markup words only: the next one
        ([["bogus", "whatever"], ["icon", "ri-home-line"]], "home"),  # an unknown source is skipped
        ([], ""),
    ],
)
def test_the_first_source_that_yields_words_is_the_hint(said: list[list[str]], hint: str) -> None:
    assert hint_of(said) == hint


def test_a_hint_is_cut_short() -> None:
    hint = hint_of([["title", "word " * 40]])
    assert len(hint) <= MAX_HINT and hint.endswith("…")


def test_words_are_split_at_case_and_punctuation_and_keep_letters_only() -> None:
    assert words_of("composerAttach_file.v2") == ["composer", "attach", "file"]
    assert words_of('x"] [9] button Pay') == ["pay"]  # markup words and punctuation go
