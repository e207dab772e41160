"""Which tab opened which (tabs/openers.py): reported once per opener, closings too, bounded."""

from __future__ import annotations

from browserx.tabs.openers import MAX_KEPT, Openers


def test_opened_and_closed_tabs_are_reported_once_to_their_opener() -> None:
    openers = Openers()
    openers.created(2, opener=1)
    openers.created(3, opener=1)
    openers.created(4, opener=None)  # the person's own new tab: nobody's
    openers.created(5, opener=9)
    assert openers.take(1) == ([2, 3], [])
    assert openers.take(1) == ([], [])
    openers.removed(3)  # an OAuth popup that finished
    openers.removed(4)
    assert openers.take(1) == ([], [3]) and openers.take(9) == ([5], [])


def test_a_tab_opened_and_closed_between_two_calls_is_both_and_the_agents_own_closing_neither() -> None:
    openers = Openers()
    openers.created(2, opener=1)
    openers.removed(2)
    assert openers.take(1) == ([2], [2])
    openers.created(3, opener=1)
    openers.take(1)
    openers.forget(3)  # close_tab by the agent
    openers.removed(3)
    assert openers.take(1) == ([], [])


def test_a_closed_opener_takes_its_news_along_and_a_page_opening_tabs_in_a_loop_is_bounded() -> None:
    openers = Openers()
    for new_tab in range(100, 100 + 3 * MAX_KEPT):
        openers.created(new_tab, opener=1)
    opened, _ = openers.take(1)
    assert len(opened) == MAX_KEPT and opened[-1] == 100 + 3 * MAX_KEPT - 1
    openers.created(7, opener=1)
    openers.removed(1)
    assert openers.take(1) == ([], [])
