"""Quad and point math for pointer actions. CDP quads are 8 numbers: four (x, y) corners,
clockwise from top-left, in CSS pixels of a frame's viewport. Pure functions, no I/O."""

from __future__ import annotations

from collections.abc import Sequence

Quad = Sequence[float]
Point = tuple[float, float]


def quad_area(q: Quad) -> float:
    """Shoelace formula: quads may be rotated or skewed by transforms."""
    area = 0.0
    for i in range(4):
        x1, y1 = q[2 * i], q[2 * i + 1]
        x2, y2 = q[(2 * i + 2) % 8], q[(2 * i + 3) % 8]
        area += x1 * y2 - x2 * y1
    return abs(area) / 2


def quad_center(q: Quad) -> Point:
    return (sum(q[0::2]) / 4, sum(q[1::2]) / 4)


def clip_quad_to(q: Quad, rect: Sequence[float]) -> list[float]:
    """Clamp each corner into ``rect`` (left, top, right, bottom): an axis-aligned approximation,
    good enough for picking a point inside both the element and the visible area."""
    out: list[float] = []
    for i in range(4):
        out.append(min(max(q[2 * i], rect[0]), rect[2]))
        out.append(min(max(q[2 * i + 1], rect[1]), rect[3]))
    return out


def best_point(quads: Sequence[Quad], visible: Sequence[float] | None = None) -> Point | None:
    """Center of the largest (visible part of a) quad: an inline element wrapping over lines has
    several; a tall element may stick out of its viewport or out of a clipping box, so clip to
    the ``visible`` rect the page measured (left, top, right, bottom) before choosing."""
    best: tuple[float, Point] | None = None
    for q in quads:
        if len(q) != 8:
            continue
        part = clip_quad_to(q, visible) if visible is not None else list(q)
        area = quad_area(part)
        if area < 1:  # fully outside the viewport or degenerate
            continue
        if best is None or area > best[0]:
            best = (area, quad_center(part))
    return best[1] if best else None


def box_origin(content_quad: Quad) -> Point:
    """Top-left corner of a box-model quad (the content box of an <iframe> is where its
    document's (0, 0) sits in the parent's viewport)."""
    return (min(content_quad[0::2]), min(content_quad[1::2]))


def box_size(content_quad: Quad) -> Point:
    """Width and height of a box-model quad's bounding rectangle."""
    xs, ys = content_quad[0::2], content_quad[1::2]
    return (max(xs) - min(xs), max(ys) - min(ys))


def add_offsets(point: Point, offsets: Sequence[Point]) -> Point:
    """Translate a frame-local point to the top-level viewport through each ancestor frame."""
    x, y = point
    for dx, dy in offsets:
        x += dx
        y += dy
    return (x, y)
