"""Choosing what a view shows within its limits: the viewport first, then document order, until
the token budget or ``max_elements`` is reached; what is left out is summarised by where it is
and how to reach it ("… 140 links below — scroll down"), never cut mid-structure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from browserx.views.grammar import entry
from browserx.views.options import ViewOptions
from browserx.views.tokens import count_tokens
from browserx.views.units import Unit, describe

CHARS_PER_TOKEN = 3.4  # a first guess for the outline; the result is then counted exactly
FIT_MARGIN = 1.3  # how far over the budget a page's estimate may be and still be tried whole
PROSE_RATIO = 4.0  # chars per token of plain English text in cl100k
GROW_BELOW = 0.85  # a budgeted view using less of its budget than this takes more, if it can
MIN_SAMPLE = 50  # units counted before a page's size is extrapolated
SAMPLE_CHARS = 6000  # of the first units in priority order, to measure this page's chars per token
MAX_TRIES = 8
MAX_HEADINGS_LISTED = 5


@dataclass
class Omitted:
    """What a view left out, by where it is."""

    by_place: dict[str, Counter[str]] = field(default_factory=dict)  # "below" / "in [7] below" → labels
    headings: dict[str, list[str]] = field(default_factory=dict)
    total: int = 0
    elements: int = 0  # element IDs left out

    def add(self, unit: Unit) -> None:
        place = unit.where.direction or "in view"
        if unit.where.scroller is not None:
            place = f"{place} in scroll container {unit.where.scroller}"
        self.by_place.setdefault(place, Counter())[unit.label] += 1
        if unit.item.kind == "heading" and unit.item.text:
            self.headings.setdefault(place, []).append(unit.item.text)
        self.total += 1
        self.elements += len(unit.ids)

    def to_dict(self) -> dict[str, object]:
        return {
            "total": self.total,
            "elements": self.elements,
            "by_place": {place: dict(counts) for place, counts in self.by_place.items()},
            "headings": {place: names[:MAX_HEADINGS_LISTED] for place, names in self.headings.items()},
        }

    def lines(self, why: str) -> list[str]:
        if not self.total:
            return []
        out = [f"-- not shown ({why}): {self.total} more lines, {self.elements} with IDs --"]
        for place, counts in self.by_place.items():
            out.append(
                f"… {describe(counts)} {place} — {_how(place)}"
                if place != "in view"
                else f"… {describe(counts)} in view, left out for the budget"
            )
            names = self.headings.get(place)
            if names:
                more = (
                    f", … and {len(names) - MAX_HEADINGS_LISTED} more"
                    if len(names) > MAX_HEADINGS_LISTED
                    else ""
                )
                shown = ", ".join(
                    entry(name) for name in names[:MAX_HEADINGS_LISTED]
                )  # page text: quoted if need be
                out.append(f"  sections {place}: {shown}{more}")
        out.append(
            'to see them: scroll, or snapshot again with query="…", filter="css selector" or a larger max_tokens'
        )
        return out


def _how(place: str) -> str:
    if "scroll container" in place:
        container = place.rsplit(" ", 1)[-1]
        return f"scroll container {container} to see them"
    return {"below": "scroll down to see them", "above": "scroll up to see them", "left": "scroll left",
            "right": "scroll right", "in view": "in view, left out for the budget"}.get(place, "")  # fmt: skip


def priority(units: list[Unit], viewport_only: bool) -> list[Unit]:
    """Viewport first, then document order (everything else)."""
    seen = [u for u in units if u.where.in_view]
    return seen if viewport_only else seen + [u for u in units if not u.where.in_view]


def chars_per_token(order: list[Unit]) -> float:
    """This page's ratio, measured on the lines that will be shown first (IDs, numbers and
    brackets make outlines denser than prose: 2–4 chars per token)."""
    sample: list[str] = []
    size = 0
    for unit in order:
        sample.append(unit.text)
        size += len(unit.text) + 1
        if size >= SAMPLE_CHARS:
            break
    text = "\n".join(sample)
    tokens = count_tokens(text) if text else 0
    return max(1.5, min(6.0, len(text) / tokens)) if tokens >= 50 else CHARS_PER_TOKEN


def choose(
    order: Iterable[Unit],
    *,
    token_target: int | None,
    max_elements: int | None,
    base_chars: int = 0,
    ratio: float = CHARS_PER_TOKEN,
) -> set[int]:
    """Orders (``Unit.order``) of the units that fit: taken in the given order until the estimated
    tokens or the element count would run over. Containers around a unit cost their line too."""
    kept: set[int] = set()
    headers: set[int] = set()
    chars = base_chars
    elements = 0
    limit_chars = max(0, token_target) * ratio if token_target is not None else None
    for unit in order:
        extra = unit.chars + sum(40 for p in unit.parents if id(p) not in headers)
        if limit_chars is not None and chars + extra > limit_chars:
            break
        if max_elements is not None and unit.ids and elements + len(unit.ids) > max_elements:
            break
        kept.add(unit.order)
        headers.update(id(p) for p in unit.parents)
        chars += extra
        elements += len(unit.ids)
    return kept


def _estimated_tokens(order: list[Unit], kept: set[int], ratio: float) -> float:
    """What ``choose`` estimated the kept units to cost (their containers' lines included)."""
    headers: set[int] = set()
    chars = 0
    for unit in order:
        if unit.order in kept:
            chars += unit.chars + sum(40 for p in unit.parents if id(p) not in headers)
            headers.update(id(p) for p in unit.parents)
    return chars / ratio


def _fits_estimate(order: list[Unit], limit_chars: float) -> bool:
    """Whether the units' estimated size stays within the limit. Stops as soon as it clearly
    does not: a unit's text is rendered on first use, and on a big page rendering every unit
    just to learn that it is big costs more than the view itself. "Clearly": what is counted
    plus the rest at half the average so far is over. (A wrong "no" only costs time: the
    budgeted path then keeps everything that fits.)"""
    chars = 0
    total = len(order)
    for n, unit in enumerate(order, 1):
        chars += unit.chars
        if chars > limit_chars:
            return False
        if n >= MIN_SAMPLE and chars + (total - n) * (chars / n) / 2 > limit_chars:
            return False
    return True


@dataclass
class Fitted:
    output: str
    tokens: int
    kept: set[int]
    omitted: Omitted


def fit(
    units: list[Unit],
    render: Callable[[set[int], Omitted], str],
    opts: ViewOptions,
    order: list[Unit] | None = None,
) -> Fitted:
    """Render the units that fit ``opts`` (all of them when they do), counted exactly in cl100k.
    ``order`` overrides the priority (query views rank by relevance)."""
    everything = {u.order for u in units}
    if order is None:
        order = priority(units, opts.viewport_only)
    budget = opts.max_tokens
    unlimited = not opts.limited and order is not None and len(order) == len(units)
    ratio: float | None = None  # this page's, measured only when needed (a count of its own)

    def page_ratio() -> float:
        nonlocal ratio
        if ratio is None:
            ratio = chars_per_token(order) if budget else CHARS_PER_TOKEN
        return ratio

    # Whole if it may fit: units' own lines leave out indentation and headers, hence the margin;
    # and the sample may be denser than the rest (prose runs ~4 chars per token). The estimate
    # only grows with the ratio: the page's own is asked for when prose's is not enough.
    if unlimited and (
        not budget
        or _fits_estimate(order, FIT_MARGIN * budget * PROSE_RATIO)
        or (page_ratio() > PROSE_RATIO and _fits_estimate(order, FIT_MARGIN * budget * page_ratio()))
    ):
        text = render(everything, Omitted())
        tokens = count_tokens(text)
        if not budget or tokens <= budget:
            return Fitted(text, tokens, everything, Omitted())
    target: int | None = budget or None
    best: Fitted | None = None  # the smallest, should nothing fit
    fitting: Fitted | None = None  # the one that keeps the most within the budget
    for attempt in range(MAX_TRIES):
        kept = choose(order, token_target=target, max_elements=opts.max_elements, ratio=page_ratio())
        omitted = Omitted()
        for unit in units:
            if unit.order not in kept:
                omitted.add(unit)
        text = render(kept, omitted)
        tokens = count_tokens(text)
        if best is None or tokens < best.tokens:
            best = Fitted(text, tokens, kept, omitted)
        if not budget or not kept:
            return best  # (with nothing kept, the page context alone is over the budget)
        assert target is not None
        if tokens <= budget:
            if fitting is None or len(kept) > len(fitting.kept):
                fitting = Fitted(text, tokens, kept, omitted)
            # Well under the budget with units left out (the ratio was measured on denser lines
            # than the rest): take more. Otherwise done.
            if len(kept) == len(order) or tokens >= budget * GROW_BELOW or opts.max_elements is not None:
                return _whole_if_it_fits(fitting, unlimited, everything, render, budget)
            target = int(target * budget / tokens * 0.97)
        else:
            # Shrink what was kept, not the target: json and semantic cost more per line than the
            # estimate, and a target far above what it kept would keep the same units again.
            kept_tokens = min(target, _estimated_tokens(order, kept, page_ratio()))
            target = int(kept_tokens * budget / tokens * (0.95 if attempt < 2 else 0.8))
    if fitting is not None:
        return _whole_if_it_fits(fitting, unlimited, everything, render, budget)
    assert best is not None
    return best


def _whole_if_it_fits(
    fitting: Fitted,
    unlimited: bool,
    everything: set[int],
    render: Callable[[set[int], Omitted], str],
    budget: int,
) -> Fitted:
    """A page the size estimate misjudged (its first lines denser than the rest) and of which
    most already fits: it may fit whole, so count it. (A big page keeps a small share: skipped.)"""
    if not unlimited or len(fitting.kept) == len(everything) or 2 * len(fitting.kept) < len(everything):
        return fitting
    text = render(everything, Omitted())
    tokens = count_tokens(text)
    return Fitted(text, tokens, everything, Omitted()) if tokens <= budget else fitting
