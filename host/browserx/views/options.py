"""What a caller asked a view to show: the options every view (text, json, semantic) accepts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Format = Literal["text", "json", "semantic"]
DEFAULT_MAX_TOKENS = 6000  # the default budget of every view; 0 = unlimited
MIN_VISIBLE = 2 / 3  # docs/DESIGN.md "In view": an element is in view when >= 2/3 of its box is visible


@dataclass(frozen=True, slots=True)
class ViewOptions:
    format: Format = "text"
    viewport_only: bool = False
    boxes: bool = False
    max_depth: int | None = None
    max_elements: int | None = None
    max_tokens: int = DEFAULT_MAX_TOKENS
    since_last: bool = False
    query: str | None = None

    @property
    def limited(self) -> bool:
        """Whether anything but the token budget restricts what is shown."""
        return self.viewport_only or self.max_depth is not None or self.max_elements is not None
