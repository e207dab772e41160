from __future__ import annotations

import pytest

from browserx.actions.frames import Hop, offsets
from browserx.actions.geometry import (
    add_offsets,
    best_point,
    box_origin,
    clip_quad_to,
    quad_area,
    quad_center,
)


def rect(x: float, y: float, w: float, h: float) -> list[float]:
    return [x, y, x + w, y, x + w, y + h, x, y + h]


def test_area_and_center() -> None:
    assert quad_area(rect(10, 20, 30, 40)) == 1200
    assert quad_center(rect(10, 20, 30, 40)) == (25, 40)
    diamond = [5, 0, 10, 5, 5, 10, 0, 5]  # a rotated square
    assert quad_area(diamond) == pytest.approx(50)


def test_largest_quad_wins() -> None:
    # An inline link wrapping onto two lines: the bigger fragment is the safer target.
    assert best_point([rect(0, 0, 10, 10), rect(0, 20, 100, 10)]) == (50, 25)


def test_clipped_to_the_visible_rect() -> None:
    assert clip_quad_to(rect(-10, -10, 30, 30), (0, 0, 100, 100)) == rect(0, 0, 20, 20)
    # A tall element: click its visible part, not its off-screen center.
    assert best_point([rect(0, 0, 100, 2000)], (0, 0, 800, 600)) == (50, 300)
    assert best_point([rect(900, 0, 10, 10)], (0, 0, 800, 600)) is None
    assert best_point([[1, 2, 3]]) is None


def test_frame_offsets_translate_a_frame_point_to_the_top() -> None:
    hops = [
        Hop("child", "mid", 7, box_origin(rect(10, 20, 300, 200))),
        Hop("mid", None, 3, box_origin(rect(100, 50, 500, 400))),
    ]
    assert offsets(hops) == [(10, 20), (100, 50)]
    top = add_offsets((5, 5), offsets(hops))
    assert top == (115, 75)


def test_box_origin_is_top_left_even_when_rotated() -> None:
    assert box_origin([30, 10, 50, 30, 30, 50, 10, 30]) == (10, 10)
