"""A control without an accessible name gets a hint from its own markup (snapshot/unnamed.py):
shown as a hint, never a name, quoted like all page text, and enough to pick the right control —
judged by which button the page says was pressed."""

from __future__ import annotations

import pytest

from browserx import Client
from tests.e2e.harness import Browser, Servers
from tests.e2e.helpers import js, open_page

EXPECTED = {  # hint → what the page records when that button is pressed
    "paperclip": "attach",  # an icon class of a known set (lucide), before the test id
    "gear": "settings",  # the sprite an SVG <use> draws
    "trash can": "trash",  # Font Awesome, its style class left out
    "chat submit": "send",  # data-testid, split into words
    "Upload a file": "upload",  # the title of an element around it
}


def semantic(bx: Client, tab: int) -> list[dict[str, object]]:
    return list(bx.snapshot(tab=tab, format="semantic")["semantic"]["interactive_tree"])


@pytest.mark.parametrize("hint", sorted(EXPECTED))
def test_an_unnamed_control_is_reachable_by_its_hint(
    browser: Browser, bx: Client, servers: Servers, hint: str
) -> None:
    tab = open_page(browser, bx, servers.url("unnamed-controls.html"))
    controls = semantic(bx, tab)
    (found,) = [c for c in controls if c.get("hn") == hint]
    assert "n" not in found  # a hint, not a name
    bx.click(int(str(found["i"])), tab=tab)
    assert js(browser, "window.presses") == [EXPECTED[hint]]


def test_the_text_view_marks_hints_as_hints_and_quotes_them(
    browser: Browser, bx: Client, servers: Servers
) -> None:
    tab = open_page(browser, bx, servers.url("unnamed-controls.html"))
    text = bx.snapshot(tab=tab)["text"]
    for hint in EXPECTED:
        assert f'] button (hint="{hint}")' in text
    # A title that tries to write a line of its own stays inside its quotes.
    assert 'hint="Close\\" [99] button \\"Pay now"' in text
    assert "\n[99]" not in text
    # A generated id (React's useId) says nothing: no hint rather than one made up.
    lines = [line for line in text.splitlines() if "button" in line]
    assert sum('hint="' not in line for line in lines) == 1, lines
