"""How an action result reads (interfaces/outcome.py), here for scrolls: where it went and what
room is left in words, and a scroll that moved nothing says so instead of "succeeded"."""

from __future__ import annotations

from typing import Any

from browserx.interfaces.outcome import describe_action


def scrolled(
    before: list[float], after: list[float], remaining: dict[str, float], moved: bool
) -> dict[str, Any]:
    scroll = {"before": before, "after": after, "remaining": remaining, "target": "page"}
    changes = {"scroll": scroll, "scroll_changed": moved, "dom_mutations": 0}
    return {"action": "scroll", "success": True, "id": 17, "duration_ms": 40, "changes": changes}


NONE_LEFT = {"up": 0, "down": 0, "left": 0, "right": 0}


def test_a_scroll_that_moved_says_where_to_and_what_room_is_left() -> None:
    line = describe_action(scrolled([0, 0], [0, 757.5], {**NONE_LEFT, "up": 757.5, "down": 1636}, True))
    assert line == (
        "scroll succeeded on [17] in 40 ms: scrolled the page from (0, 0) to (0, 758), room left: "
        "up 758 px, down 1,636 px, no navigation, 0 DOM mutations"
    )


def test_a_scroll_that_moved_nothing_says_so_and_why() -> None:
    line = describe_action(scrolled([0, 0], [0, 0], NONE_LEFT, False))
    assert line.startswith(
        "scroll moved nothing on [17] in 40 ms: nothing to scroll: the page does not scroll"
    )
    line = describe_action(scrolled([0, 2393], [0, 2393], {**NONE_LEFT, "up": 2393}, False))
    assert "scroll moved nothing" in line
    assert "nothing scrolled: the page is at its end that way; room left: up 2,393 px" in line
    assert "{" not in line  # (it printed the raw dict of what was left)


def test_a_failed_scroll_still_reads_failed() -> None:
    result = {**scrolled([0, 0], [0, 0], NONE_LEFT, False), "success": False}
    assert describe_action(result).startswith("scroll failed on [17]")
