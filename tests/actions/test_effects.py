"""The outline drawn around an action's target (actions/effects.py): pure box math."""

from __future__ import annotations

from browserx.actions.effects import outline


def rect(x: float, y: float, w: float, h: float) -> list[float]:
    return [x, y, x + w, y, x + w, y + h, x, y + h]


def test_the_outline_surrounds_every_quad_of_the_element() -> None:
    # An inline link wrapping over two lines: one box around both.
    assert outline([rect(50, 0, 40, 10), rect(0, 12, 30, 10)], None, (0, 0)) == (0, 0, 90, 22)


def test_the_outline_is_cut_to_what_shows_and_moved_into_the_top_viewport() -> None:
    # A tall element clipped by its scroller (visible: left, top, right, bottom), in an iframe at (100, 200).
    assert outline([rect(10, -50, 40, 300)], [0, 0, 500, 80], (100, 200)) == (110, 200, 40, 80)


def test_no_outline_for_an_element_with_nothing_left_to_see() -> None:
    assert outline([rect(10, 10, 40, 20)], [0, 100, 500, 300], (0, 0)) is None  # clipped away
    assert outline([], None, (0, 0)) is None
    assert outline([[1, 2, 3]], None, (0, 0)) is None  # not a quad


def test_an_element_without_a_box_of_its_own_is_outlined_by_what_shows_of_its_content() -> None:
    # display: contents: no quads; the page measured its content's visible box.
    assert outline([], [5, 6, 25, 16], (1, 1)) == (6, 7, 20, 10)
