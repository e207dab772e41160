"""Clicks and hovers (actions/pointer.py) on a recorded page (tests/actions/acting.py): the mouse
events sent and where, the fast path (one call aims, one call checks the outcome) and the long one
(scrolled into view first), a cover or a layout shift (nothing clicked), a link the allowlist
refuses (nothing clicked), and what the result reports."""

from __future__ import annotations

from typing import Any

import pytest

from browserx.actions import pointer
from browserx.actions.links import AT_POINT_JS
from browserx.actions.result import ActionResult
from browserx.errors import SiteBlocked
from tests.actions.acting import Acting, ActingPage, PageError, act

AIMED = {
    "area": {"rect": [8, 522, 85, 543], "whole": True},
    "point": [46.5, 532.5],
    "link": None,
    "cover": None,
}
AFTER = {"seen": True, "bad": None, "counted": [2, "http://127.0.0.1:34659/snap-controls.html"]}


def page(**answers: Any) -> ActingPage:
    """snap-controls, its targets in view (aimed at the Save draft button's box) unless ``answers``
    say otherwise (by pointer's snippet constant names: aim=..., after=...)."""
    p = ActingPage("snap-controls")
    p.on(pointer.AIM_JS, answers.get("aim", AIMED))
    p.on(pointer.AFTER_JS, answers.get("after", AFTER))
    p.on(pointer.VISIBLE_AREA_JS, answers.get("area", {"rect": [8, 522, 85, 543], "whole": True}))
    p.on(pointer.GUARD_JS, answers.get("guard"))
    p.on(pointer.VERDICT_JS, answers.get("verdict", {"seen": True, "bad": None}))
    p.on(pointer.HIT_JS, answers.get("hit"))
    p.on(pointer.FRAMES_JS, None)
    p.on(AT_POINT_JS, answers.get("link"))
    return p


def mouse(p: ActingPage) -> list[tuple[str, float, float, str, int, int]]:
    """The mouse events sent: (type, x, y, button, clickCount, modifiers)."""
    return [
        (e["type"], e["x"], e["y"], e.get("button", ""), e.get("clickCount", 0), e.get("modifiers", 0))
        for m, e in p.inputs
        if m == "Input.dispatchMouseEvent"
    ]


def click(p: ActingPage, name: str = "Save draft", **options: Any) -> tuple[ActionResult, Acting, int]:
    async def body(acting: Acting) -> tuple[ActionResult, Acting, int]:
        trips = acting.tab.session.round_trips
        result = await pointer.click(acting.tab, acting.id_named(name), **options)
        return result, acting, acting.tab.session.round_trips - trips

    return act(p, body)


def test_a_click_in_view_aims_presses_and_releases_at_the_point_in_one_call_each() -> None:
    p = page()
    result, acting, trips = click(p)
    assert result.success and result.error is None
    assert result.action == "click" and result.id == acting.id_named("Save draft")
    assert mouse(p) == [
        ("mouseMoved", 46.5, 532.5, "none", 0, 0),
        ("mousePressed", 46.5, 532.5, "left", 1, 0),
        ("mouseReleased", 46.5, 532.5, "left", 1, 0),
    ]
    assert result.point == (46.5, 532.5)
    assert len(p.calls_to(pointer.AIM_JS)) == 1 and len(p.calls_to(pointer.AFTER_JS)) == 1
    assert not [m for m, _ in p.dom if m == "DOM.scrollIntoViewIfNeeded"]  # in view: not scrolled
    assert result.changes.dom_mutations == 2  # as the call that settled the page counted them
    assert result.round_trips == trips >= 1  # what the result says is what the tab's session counted
    assert result.duration_ms is not None and result.duration_ms >= 0


def test_a_double_right_click_with_modifiers_is_two_press_release_pairs() -> None:
    p = page()
    result, _, _ = click(p, button="right", count=2, modifiers=["ctrl", "shift"])
    assert result.success
    held = 2 | 8  # Control, Shift
    assert mouse(p) == [
        ("mouseMoved", 46.5, 532.5, "none", 0, held),
        ("mousePressed", 46.5, 532.5, "right", 1, held),
        ("mouseReleased", 46.5, 532.5, "right", 1, held),
        ("mousePressed", 46.5, 532.5, "right", 2, held),
        ("mouseReleased", 46.5, 532.5, "right", 2, held),
    ]
    pressed = [e for m, e in p.inputs if e.get("type") == "mousePressed"]
    assert all(e["buttons"] == 2 for e in pressed)


def test_an_unknown_button_is_a_bad_request_and_nothing_is_sent() -> None:
    p = page()
    result, _, _ = click(p, button="thumb")
    assert not result.success and result.error is not None and result.error.code == "bad_request"
    assert mouse(p) == []


def test_a_target_out_of_view_is_scrolled_in_and_clicked_in_its_visible_part() -> None:
    # The page answers the aim with "scroll first", measures a sliver, then (scrolled) the whole box.
    areas = [{"rect": [8, 0, 85, 10], "whole": False}, {"rect": [8, 522, 85, 543], "whole": True}]
    p = page(
        aim={"area": areas[0], "scroll": True}, area=lambda args: areas.pop(0) if len(areas) > 1 else areas[0]
    )
    result, acting, _ = click(p)
    assert result.success
    scrolled = [params for m, params in p.dom if m == "DOM.scrollIntoViewIfNeeded"]
    assert scrolled == [{"objectId": acting.object_of(acting.id_named("Save draft"))}]
    # The point: the center of the largest visible quad (the recorded box 8,522 77x21).
    presses = [(x, y) for kind, x, y, *_ in mouse(p) if kind == "mousePressed"]
    assert presses == [(46.5, 532.5)]
    assert len(p.calls_to(pointer.GUARD_JS)) == 1  # hit-tested as the interceptor was armed
    assert len(p.calls_to(pointer.VERDICT_JS)) == 1


def test_a_cover_at_the_point_is_occluded_and_nothing_is_clicked() -> None:
    cover = {"desc": "div#cookie-banner", "text": "We use cookies"}
    p = page(aim={**AIMED, "cover": cover}, guard=cover)
    result, _, _ = click(p)
    assert not result.success and result.error is not None
    assert result.error.code == "occluded"
    assert result.error.details is not None and result.error.details["covered_by"] == "div#cookie-banner"
    assert "We use cookies" in result.error.message
    assert [e for e in mouse(p) if e[0] == "mousePressed"] == []
    # Tried twice from the layout it found (the aim, then the long way), as a layout shift would be.
    assert len(p.calls_to(pointer.AIM_JS)) == 1 and len(p.calls_to(pointer.GUARD_JS)) == 1


def test_forced_clicks_skip_the_hit_test() -> None:
    cover = {"desc": "div#overlay"}
    p = page(aim={**AIMED, "cover": cover}, guard=cover, hit=cover)
    result, _, _ = click(p, force=True)
    assert result.success
    assert p.calls_to(pointer.AIM_JS) == [] and p.calls_to(pointer.GUARD_JS) == []
    assert [e[0] for e in mouse(p)] == ["mouseMoved", "mousePressed", "mouseReleased"]


def test_a_click_the_page_moved_something_under_is_reported_intercepted() -> None:
    p = page(after={"seen": True, "bad": {"desc": "a#ad", "text": "Buy now"}})
    result, _, _ = click(p)
    assert not result.success and result.error is not None and result.error.code == "occluded"
    assert result.error.details is not None and result.error.details.get("intercepted") is True
    assert "a#ad" in result.error.message and "nothing was clicked" in result.error.message


def test_a_click_stopped_before_it_reached_anything_is_tried_once_more() -> None:
    p = page(after={"seen": False, "bad": {"desc": "div#shift"}})
    result, _, _ = click(p)
    assert result.success  # the second try (the long way) went through
    assert [e[0] for e in mouse(p)].count("mousePressed") == 2
    assert len(p.calls_to(pointer.VERDICT_JS)) == 1


def test_a_link_outside_the_allowlist_is_refused_before_any_input() -> None:
    p = page(aim={**AIMED, "link": {"href": "chrome://settings/", "page": "http://127.0.0.1/"}})
    result, _, _ = click(p)
    assert not result.success and result.error is not None and result.error.code == "url_not_allowed"
    assert mouse(p) == []
    assert len(p.calls_to(pointer.VERDICT_JS)) == 1  # the armed interceptor is taken down


def test_a_link_to_a_site_the_person_blocked_is_refused_before_any_input() -> None:
    """The tab's check_destination (the person's site rules, control/person/controls.py) hears the link's
    URL before the click; its site_blocked stops the click, and the interceptor is taken down."""
    p = page(aim={**AIMED, "link": {"href": "https://bank.example/pay", "page": "http://127.0.0.1/"}})
    heard: list[str] = []

    async def body(acting: Acting) -> ActionResult:
        async def check(url: str) -> None:
            heard.append(url)
            if "bank.example" in url:
                raise SiteBlocked("browserx may not go to bank.example", site="bank.example")

        acting.tab.check_destination = check
        return await pointer.click(acting.tab, acting.id_named("Save draft"))

    result = act(p, body)
    assert not result.success and result.error is not None and result.error.code == "site_blocked"
    assert heard == ["https://bank.example/pay"] and mouse(p) == []
    assert len(p.calls_to(pointer.VERDICT_JS)) == 1


def test_a_click_whose_link_made_browserx_ask_the_person_is_aimed_again_after_the_answer() -> None:
    """While the person answered (ask mode), the page may have moved something under the point
    measured before the question: the interceptor armed then is taken down and the click aims
    again from what the page shows now, with a new hit test; the person is asked once."""
    p = page(aim={**AIMED, "link": {"href": "https://new.example/", "page": "http://127.0.0.1/"}})
    p.on(AT_POINT_JS, {"href": "https://new.example/", "page": "http://127.0.0.1/"})
    asked: list[str] = []

    async def body(acting: Acting) -> ActionResult:
        async def check(url: str) -> bool:
            asked.append(url)
            return len(asked) == 1  # asked (and allowed) the first time; remembered after

        acting.tab.check_destination = check
        return await pointer.click(acting.tab, acting.id_named("Save draft"))

    result = act(p, body)
    assert result.success
    assert (
        len(p.calls_to(pointer.AIM_JS)) == 1 and len(p.calls_to(pointer.VERDICT_JS)) == 2
    )  # disarmed, checked
    assert len(p.calls_to(pointer.GUARD_JS)) == 1  # the hit test armed again after the answer
    assert [t for t, *_ in mouse(p)] == ["mouseMoved", "mousePressed", "mouseReleased"]


def test_a_page_error_in_the_aim_fails_the_click_naming_the_snippet() -> None:
    pytest.importorskip("browserx.page.page_call", reason="a page error reads as no value before page_call")
    p = page(aim=PageError("TypeError: getClientRects is not a function"))
    result, _, _ = click(p)
    assert not result.success and result.error is not None
    assert "getClientRects is not a function" in result.error.message
    assert mouse(p) == []


def test_hover_moves_the_pointer_there_and_presses_nothing() -> None:
    p = page()

    async def body(acting: Acting) -> ActionResult:
        return await pointer.hover(acting.tab, acting.id_named("Save draft"))

    result = act(p, body)
    assert result.success and result.action == "hover"
    assert [e[:3] for e in mouse(p)] == [("mouseMoved", 46.5, 532.5)]
    assert result.point == (46.5, 532.5)


def test_an_element_with_nothing_visible_is_not_interactable() -> None:
    p = page(aim=None, area=None)
    result, _, _ = click(p)
    assert not result.success and result.error is not None and result.error.code == "not_interactable"
    assert mouse(p) == []


@pytest.mark.parametrize("button", ["left", "middle"])
def test_held_keys_checks_the_button(button: str) -> None:
    assert pointer.held_keys(button, ["alt"]) == 1


def test_a_world_that_lost_the_page_library_gets_it_whole_and_the_click_lands() -> None:
    """A click's functions are members of the page library kept in browserx's world (page_js.py);
    should the world lack it when the next click comes (a new document under the same context
    id), a stub's throw sends the call whole (installing the library), and one click goes in."""
    p = page()

    async def body(acting: Acting) -> tuple[ActionResult, ActionResult]:
        first = await pointer.click(acting.tab, acting.id_named("Save draft"))
        p.kept.clear()
        second = await pointer.click(acting.tab, acting.id_named("Save draft"))
        return first, second

    first, second = act(p, body)
    assert first.success and second.success
    assert [t for t, *_ in mouse(p)] == ["mouseMoved", "mousePressed", "mouseReleased"] * 2
    assert len(p.calls_to(pointer.AIM_JS)) == 2 and len(p.calls_to(pointer.AFTER_JS)) == 2
