"""Budgets (views/budget.py): what a view keeps within its token budget and max_elements — the
viewport first, then document order, never over the budget when anything fits — and how it
summarises what it left out (by place, with the way to reach it)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from browserx.views.budget import (
    CHARS_PER_TOKEN,
    GROW_BELOW,
    MAX_HEADINGS_LISTED,
    Omitted,
    chars_per_token,
    choose,
    fit,
    priority,
)
from browserx.views.build import build_view
from browserx.views.events import summarise
from browserx.views.options import ViewOptions
from browserx.views.outline import Item, outline
from browserx.views.tokens import count_tokens
from browserx.views.units import Unit, units_of
from browserx.views.viewport import Where
from tests.builders import page, recorded, snapshot_of

SNAP = page()
IN_VIEW = Where(True)
BELOW = Where(False, "below")


def unit(order: int, text: str, where: Where = IN_VIEW, *, ids: tuple[int, ...] = (), kind: str = "text",
         parents: tuple[Item, ...] = ()) -> Unit:  # fmt: skip
    label = {"text": "text line", "heading": "heading", "control": "button"}[kind]
    return Unit(Item(kind, text=text), parents, order, where, ids, label, False, SNAP)  # type: ignore[arg-type]


def lines_of(units: list[Unit], header: str = "") -> Callable[[set[int], Omitted], str]:
    """A render that prints the kept units' lines (and the omitted summary), as the views do."""

    def render(kept: set[int], omitted: Omitted) -> str:
        body = [u.text for u in units if u.order in kept]
        return "\n".join([header, *body, *omitted.lines("token budget")]) + "\n"

    return render


WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo",
         "lima", "mike")  # fmt: skip


def prose(n: int) -> list[Unit]:
    """``n`` lines of plain words, the first half in view."""
    lines = [" ".join(WORDS[(i + k) % len(WORDS)] for k in range(12)) for i in range(n)]
    return [unit(i, line, IN_VIEW if i < n // 2 else BELOW, ids=(i + 1,)) for i, line in enumerate(lines)]


# -- what is left out, and how it is said ------------------------------------------------------------


def test_omitted_counts_by_place_and_says_how_to_reach_it() -> None:
    omitted = Omitted()
    for i in range(3):
        omitted.add(unit(i, f"[{i}] Buy", BELOW, ids=(i,), kind="control"))
    omitted.add(unit(3, "More", Where(False, "above"), kind="heading"))
    omitted.add(unit(4, "[9] Row", Where(False, "below", 7), ids=(9,), kind="control"))
    omitted.add(unit(5, "Side", Where(False, "right")))
    omitted.add(unit(6, "Fine print", IN_VIEW))
    assert omitted.total == 7 and omitted.elements == 4
    assert omitted.to_dict() == {
        "total": 7,
        "elements": 4,
        "by_place": {"below": {"button": 3}, "above": {"heading": 1}, "below in scroll container 7": {"button": 1},
                     "right": {"text line": 1}, "in view": {"text line": 1}},
        "headings": {"above": ["More"]},
    }  # fmt: skip
    lines = omitted.lines("token budget")
    assert lines[0] == "-- not shown (token budget): 7 more lines, 4 with IDs --"
    assert "… 3 buttons below — scroll down to see them" in lines
    assert "… 1 heading above — scroll up to see them" in lines
    assert '  sections above: "More"' in lines or "  sections above: More" in lines
    assert "… 1 button below in scroll container 7 — scroll container 7 to see them" in lines
    assert "… 1 text line right — scroll right" in lines
    assert "… 1 text line in view, left out for the budget" in lines
    assert lines[-1].startswith("to see them: scroll, or snapshot again with query=")
    assert Omitted().lines("token budget") == []


def test_omitted_lists_a_few_headings_of_a_place_and_counts_the_rest() -> None:
    omitted = Omitted()
    for i in range(MAX_HEADINGS_LISTED + 3):
        omitted.add(unit(i, f"Chapter {i}", BELOW, kind="heading"))
    (sections,) = [line for line in omitted.lines("query") if line.startswith("  sections below")]
    assert "Chapter 0" in sections and f"Chapter {MAX_HEADINGS_LISTED - 1}" in sections
    assert f"Chapter {MAX_HEADINGS_LISTED}" not in sections and sections.endswith(", … and 3 more")
    assert len(omitted.to_dict()["headings"]["below"]) == MAX_HEADINGS_LISTED  # type: ignore[index]


# -- the order and the choice ------------------------------------------------------------------------


def test_priority_is_the_viewport_then_document_order() -> None:
    units = [unit(0, "a", BELOW), unit(1, "b"), unit(2, "c", BELOW), unit(3, "d")]
    assert [u.order for u in priority(units, viewport_only=False)] == [1, 3, 0, 2]
    assert [u.order for u in priority(units, viewport_only=True)] == [1, 3]


def test_the_ratio_is_measured_on_the_first_lines_and_kept_within_bounds() -> None:
    assert chars_per_token([unit(0, "tiny")]) == CHARS_PER_TOKEN  # too little to measure
    assert chars_per_token([]) == CHARS_PER_TOKEN
    words = prose(40)
    measured = chars_per_token(words)
    text = "\n".join(u.text for u in words)
    assert measured == pytest.approx(len(text) / count_tokens(text))
    assert chars_per_token([unit(0, "a" * 5000)]) == 6.0  # one long token run: clamped
    assert chars_per_token([unit(0, "→" * 400)]) == 1.5  # a token a character: clamped


def test_choose_stops_at_the_element_limit_and_the_token_estimate() -> None:
    units = prose(20)
    assert choose(units, token_target=None, max_elements=5) == {0, 1, 2, 3, 4}
    kept = choose(units, token_target=100, max_elements=None, ratio=3.0)
    chars = sum(u.chars for u in units if u.order in kept)
    assert kept == set(range(len(kept))) and chars <= 300 < chars + units[len(kept)].chars
    assert choose(units, token_target=0, max_elements=None) == set()
    # Text lines (no IDs) do not count against max_elements.
    mixed = [unit(0, "intro"), unit(1, "[1] a", ids=(1,)), unit(2, "note"), unit(3, "[2] b", ids=(2,))]
    assert choose(mixed, token_target=None, max_elements=1) == {0, 1, 2}


def test_a_container_line_costs_once_for_all_it_holds() -> None:
    form = Item("group")
    inside = [unit(i, "x" * 9, parents=(form,)) for i in range(3)]  # 10 chars + 1 indent each
    # 40 for the form's own line, once: 40 + 3 * 11 = 73 chars.
    assert choose(inside, token_target=73, max_elements=None, ratio=1.0) == {0, 1, 2}
    assert choose(inside, token_target=72, max_elements=None, ratio=1.0) == {0, 1}


# -- fit ------------------------------------------------------------------------------------------------


def test_a_page_that_fits_is_rendered_whole_once() -> None:
    units = prose(10)
    calls: list[set[int]] = []
    inner = lines_of(units)

    def render(kept: set[int], omitted: Omitted) -> str:
        calls.append(kept)
        return inner(kept, omitted)

    fitted = fit(units, render, ViewOptions(max_tokens=10_000))
    assert calls == [set(range(10))] and fitted.kept == set(range(10)) and not fitted.omitted.total
    assert fitted.tokens == count_tokens(fitted.output)
    unlimited = fit(units, lines_of(units), ViewOptions(max_tokens=0))
    assert unlimited.kept == set(range(10)) and unlimited.output == fitted.output


@pytest.mark.parametrize("budget", [100, 150, 250, 400, 700])
def test_a_budget_is_never_exceeded_and_the_viewport_goes_first(budget: int) -> None:
    units = prose(60)
    fitted = fit(units, lines_of(units, "# page"), ViewOptions(max_tokens=budget))
    assert fitted.tokens == count_tokens(fitted.output) <= budget
    assert fitted.kept and len(fitted.kept) < len(units)
    order = [u.order for u in priority(units, False)]
    assert fitted.kept == set(order[: len(fitted.kept)])  # a prefix of the priority order
    assert fitted.omitted.total == len(units) - len(fitted.kept)
    assert fitted.omitted.elements == sum(len(u.ids) for u in units if u.order not in fitted.kept)


def test_a_view_well_under_its_budget_takes_more() -> None:
    """Lines whose estimate is far above what they cost (the render prints a short form): the
    first choice uses a fraction of the budget, and fit grows it until the budget is nearly used."""
    units = [unit(i, f"[{i}] " + "wordy " * 30, ids=(i,)) for i in range(200)]

    def short(kept: set[int], omitted: Omitted) -> str:
        return "\n".join(f"[{i}] ok" for i in sorted(kept)) + "\n"

    budget = 400
    first_guess = choose(priority(units, False), token_target=budget, max_elements=None,
                         ratio=chars_per_token(units))  # fmt: skip
    fitted = fit(units, short, ViewOptions(max_tokens=budget))
    assert fitted.tokens <= budget
    assert len(fitted.kept) > len(first_guess)
    assert fitted.tokens >= GROW_BELOW * budget or len(fitted.kept) == len(units)


def test_nothing_fits_gives_the_smallest_view() -> None:
    units = prose(5)
    fitted = fit(units, lines_of(units, "# " + "header " * 200), ViewOptions(max_tokens=20))
    assert fitted.kept == set() and fitted.omitted.total == 5
    assert fitted.tokens > 20  # the page's context alone is over the budget: said, not hidden


def test_max_elements_caps_the_ids_within_the_budget() -> None:
    units = prose(30)
    fitted = fit(units, lines_of(units), ViewOptions(max_tokens=10_000, max_elements=7))
    assert len(fitted.kept) == 7 and fitted.omitted.elements == 23


def test_a_page_misjudged_by_its_first_lines_is_still_shown_whole_when_it_fits() -> None:
    """Dense first lines make the page look bigger than it is: the estimate keeps a part, the
    render is counted, and a page most of which fits is tried whole."""
    dense = [unit(i, "→" * 40, ids=(i,)) for i in range(30)]  # in view: sampled first
    rest = [unit(30 + i, "plain words here", BELOW) for i in range(30)]
    units = dense + rest
    whole = count_tokens(lines_of(units)(set(range(60)), Omitted()))
    fitted = fit(units, lines_of(units), ViewOptions(max_tokens=whole))
    assert fitted.kept == set(range(60)) and fitted.tokens == whole


# -- on recorded pages, through build_view ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["snap-layout", "snap-controls", "snap-rerender", "app-scroll-shell"])
def test_every_format_keeps_its_budget_on_recorded_pages(name: str) -> None:
    """Budgets from half the whole view to one token under it. Just under the whole, a json view
    once came out whole and over its budget (the estimate, made on the outline's lines, put every
    line under the budget each time it was shrunk)."""
    snap = snapshot_of(recorded(name))
    units = units_of(outline(snap), snap)
    for fmt in ("text", "json", "semantic"):
        whole = build_view(snap, ViewOptions(format=fmt, max_tokens=0), events=summarise([], snap))  # type: ignore[arg-type]
        for budget in (
            whole.tokens // 2,
            int(whole.tokens * 0.8),
            int(whole.tokens * 0.95),
            whole.tokens - 1,
        ):
            view = build_view(snap, ViewOptions(format=fmt, max_tokens=budget), events=summarise([], snap))  # type: ignore[arg-type]
            assert view.tokens <= budget, (fmt, budget, view.tokens)
            assert view.stats["total_lines"] == len(units)
            assert 0 < view.stats["shown_lines"] < len(units)
            assert view.stats["omitted"]["total"] == len(units) - view.stats["shown_lines"]
