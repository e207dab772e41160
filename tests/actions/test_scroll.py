"""Scrolling (actions/scroll.py) on a recorded page (tests/actions/acting.py): the page or a container
by a page or by pixels, an element into view, and what the result says (where it was, where it
is, how much is left, whether anything moved); bad directions and amounts are refused before
anything is sent."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from browserx.actions.result import ActionResult
from browserx.errors import BadRequest
from tests.actions.acting import Acting, ActingPage, act

# The module (the package exports its scroll function under the same name).
scroll = importlib.import_module("browserx.actions.scroll")


class Scroller:
    """The page (or a container) as scroll.js sees it: each call moves it by the amount asked."""

    def __init__(self, label: str = "page", height: float = 3000.0, view: float = 800.0) -> None:
        self.y = 0.0
        self.label = label
        self.height = height
        self.view = view
        self.asked: list[list[Any]] = []

    def run(self, args: list[Any]) -> dict[str, Any]:
        direction, amount, measure = args[0], args[1], args[2]
        self.asked.append([direction, amount, measure])
        before = [0.0, self.y]
        if not measure:
            step = self.view * 0.9 if amount < 0 else amount
            room = self.height - self.view
            self.y = min(room, self.y + step) if direction == "down" else max(0.0, self.y - step)
        return {"label": self.label, "before": before, "after": [0.0, self.y],
                "remaining": {"up": self.y, "down": self.height - self.view - self.y, "left": 0, "right": 0}}  # fmt: skip


def page(scroller: Scroller) -> ActingPage:
    p = ActingPage("snap-controls")
    p.on(scroll.SCROLL_JS, scroller.run)
    p.on(scroll.PAGE_POS_JS, lambda args: [0.0, scroller.y])
    return p


def scrolling(p: ActingPage, name: str | None = None, **options: Any) -> ActionResult:
    async def body(acting: Acting) -> ActionResult:
        element = acting.id_named(name) if name else None
        return await scroll.scroll(acting.tab, element, **options)

    return act(p, body)


def test_the_page_scrolls_down_a_page_and_the_result_says_where_it_is() -> None:
    s = Scroller()
    result = scrolling(page(s))
    assert result.success and result.action == "scroll"
    assert s.asked[0] == ["down", -1.0, False]  # a page: the page sizes it
    assert s.asked[-1][2] is True  # measured again once the page settled (lazy lists grow)
    info = result.changes.scroll
    assert info is not None and info.target == "page"
    assert info.before == (0.0, 0.0) and info.after == (0.0, 720.0)
    assert info.remaining["down"] == 3000 - 800 - 720
    assert result.changes.scroll_changed is True


def test_a_container_scrolls_by_pixels_and_the_end_is_said() -> None:
    s = Scroller(label="div.list", height=900)
    s.y = 100
    result = scrolling(page(s), name="Comment editor", direction="up", amount=250)
    assert result.success and s.asked[0] == ["up", 250.0, False]
    info = result.changes.scroll
    assert info is not None and info.target == "div.list"
    assert info.after == (0.0, 0.0) and info.remaining["up"] == 0
    at_end = Scroller(height=800)  # nothing to scroll: nothing moves
    result = scrolling(page(at_end))
    assert result.success and result.changes.scroll_changed is False


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"direction": "sideways"}, "direction must be"),
        ({"amount": "lots"}, "amount must be 'page' or a number"),
        ({"amount": -5}, "amount must be positive"),
    ],
)
def test_a_bad_direction_or_amount_is_refused_and_nothing_scrolls(
    options: dict[str, Any], message: str
) -> None:
    s = Scroller()
    result = scrolling(page(s), **options)
    assert not result.success and result.error is not None and result.error.code == "bad_request"
    assert message in result.error.message and s.asked == []


def test_amounts() -> None:
    assert scroll.parse_amount("page") == scroll.parse_amount(" PAGE ") == -1.0
    assert scroll.parse_amount("120") == 120.0 and scroll.parse_amount(3) == 3.0
    with pytest.raises(BadRequest):
        scroll.parse_amount(0)


def test_scrolling_the_page_cannot_do_is_a_clear_failure() -> None:
    p = ActingPage("snap-controls")
    p.on(scroll.SCROLL_JS, None)
    result = scrolling(p)
    assert not result.success and result.error is not None
    assert "scrolling failed in the page" in result.error.message


def test_to_an_element_scrolls_it_into_view_and_says_where_the_page_is() -> None:
    s = Scroller()
    p = page(s)
    rect = getattr(scroll, "RECT_JS", None)  # (a module constant since page_call)
    tops = [900.0, 300.0]
    if rect is not None:
        p.on(rect, lambda args: [8.0, tops.pop(0) if len(tops) > 1 else tops[0]])

    def scrolled_in(args: list[Any]) -> Any:
        return [0.0, s.y]

    p.on(scroll.PAGE_POS_JS, scrolled_in)
    original = p.dom

    async def body(acting: Acting) -> ActionResult:
        s.y = 0.0
        result = await scroll.scroll(acting.tab, to_id=acting.id_named("Delete account"))
        return result

    result = act(p, body)
    assert result.success and result.id is not None
    assert [m for m, _ in original if m == "DOM.scrollIntoViewIfNeeded"]
    info = result.changes.scroll
    assert info is not None and info.target == "page"
    if rect is not None:
        assert result.changes.scroll_changed is True
