"""What an unnamed control's own markup says it is: a hint, never a name. Where Chrome's
accessible name is empty (an icon-only button, a bare ``<svg>`` in a link), the page still says
what the control is, just not in ARIA; page/unnamed_hints.js reads it, in a fixed order of trust
(an SVG's title, its sprite's id, an icon class of a well-known set, an icon font's ligature, the
control's test id, id or name, the title of an element around it), and ``hint_of`` turns the
first that yields words into the hint: page text, cut short, with the icon set's and the markup's
own words (``fa``, ``icon``, ``btn``, ``outline``) and generated ids left out — nothing invented.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

MAX_HINT = 40
# Sources whose text is read as a person would read it (prose), not split into words.
PROSE = frozenset({"svg", "title", "ligature"})
# Sources that are identifiers: split into words, their markup words dropped.
WORDY = frozenset({"sprite", "icon", "testid", "id", "name"})

_SPLIT = re.compile(r"[\s_\-.:/#]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_WORD = re.compile(r"^[a-z]{2,}$")
# Words of icon sets and of markup, not of what the control does.
MARKUP_WORDS = frozenset(
    [
        "icon",
        "icons",
        "ico",
        "btn",
        "button",
        "buttons",
        "svg",
        "img",
        "image",
        "glyph",
        "sprite",
        "symbol",
        "lucide",
        "fa",
        "fas",
        "far",
        "fal",
        "fad",
        "fab",
        "bi",
        "mdi",
        "ti",
        "tabler",
        "ri",
        "bx",
        "bxs",
        "bxl",
        "ph",
        "feather",
        "octicon",
        "codicon",
        "glyphicon",
        "la",
        "las",
        "lar",
        "lab",
        "uil",
        "heroicon",
        "heroicons",
        "iconoir",
        "carbon",
        "gg",
        "ion",
        "ionicon",
        "material",
        "symbols",
        "solid",
        "regular",
        "light",
        "thin",
        "duotone",
        "brands",
        "sharp",
        "outline",
        "outlined",
        "filled",
        "fill",
        "round",
        "rounded",
        "two",
        "tone",
        "line",
        "bold",
        "mini",
        "micro",
        "sm",
        "md",
        "lg",
        "xl",
        "xs",
        "fw",
        "spin",
        "pulse",
        "size",
        "default",
        "primary",
        "secondary",
        "small",
        "large",
        "medium",
        "el",
    ]
)
# Ids a framework generates (Radix, Headless UI, MUI, React's useId...): no word of the page's.
GENERATED_ID = re.compile(
    r"^(?:radix|headlessui|mui|react|ember|ng|css|jsx|sc|el|downshift|reach|aria|:r)", re.I
)


def words_of(text: str) -> list[str]:
    """The words of an identifier ("chatSubmit", "icon-gear", "lucide-trash-2"), lowercase, its
    markup words and any token with a digit left out."""
    out: list[str] = []
    for token in _SPLIT.split(_CAMEL.sub(" ", text)):
        word = token.lower()
        if _WORD.match(word) and word not in MARKUP_WORDS:
            out.append(word)
    return out


def hint_of(says: Sequence[Sequence[str]]) -> str:
    """The hint from what the markup says ([source, text] pairs, most trusted first): the first
    that yields words; "" when none does."""
    for pair in says:
        if len(pair) != 2:
            continue
        source, text = pair[0], pair[1]
        if source in PROSE:
            words = " ".join(text.replace("_", " ").split())
        elif source in WORDY:
            if source in ("id", "name") and GENERATED_ID.match(text):
                continue
            words = " ".join(words_of(text))
        else:
            continue
        if words:
            return words if len(words) <= MAX_HINT else words[: MAX_HINT - 1].rstrip() + "…"
    return ""


__all__ = ["MARKUP_WORDS", "MAX_HINT", "hint_of", "words_of"]
