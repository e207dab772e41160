"""Builds the view a caller asked for from one snapshot — text, json or semantic; whole, within a
token budget, viewport only, filtered, query-focused or as a delta — with page context, scroll
state and page events on top. Pure: no browser round trips (those are in control/snapshot_tool.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from browserx.quoting import quote
from browserx.snapshot.frames import CUT_NOTE
from browserx.snapshot.model import NodeRef
from browserx.snapshot.snapshot import DomSnapshot
from browserx.views.budget import Fitted, Omitted, fit, priority
from browserx.views.delta import Delta, ViewState, change_lines, diff, headline, state_of
from browserx.views.events import EventSummary
from browserx.views.json_view import render_json
from browserx.views.options import ViewOptions
from browserx.views.outline import Item, outline
from browserx.views.query import chunks_of, rank
from browserx.views.scroll import container_dicts, page_scroll, scroll_lines, scroll_position
from browserx.views.semantic import render_semantic
from browserx.views.text import Style, header_lines, render_items
from browserx.views.units import Unit, prune, units_of

SEMANTIC_RESERVE = 8  # tokens kept free for meta.estimatedTokens, filled in after counting


@dataclass
class View:
    format: str
    payload: Any  # str for text, dict for json and semantic
    tokens: int
    state: ViewState  # what the next delta compares against
    stats: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Plan:
    """What to show, decided before rendering."""

    units: list[Unit]  # the candidates
    order: list[Unit] | None = None  # priority order; default: viewport first
    notes: list[str] = field(default_factory=list)  # lines under the header
    tail: list[str] = field(default_factory=list)  # lines after the outline
    marks: dict[int, str] = field(default_factory=dict)
    container_notes: bool = True
    why: str = "token budget"
    extra: dict[str, Any] = field(default_factory=dict)  # json/semantic context fields
    summary: Callable[[set[int]], list[str]] | None = None  # replaces the omitted summary


def build_view(
    snap: DomSnapshot,
    opts: ViewOptions,
    *,
    events: EventSummary,
    previous: ViewState | None = None,
    matched: frozenset[NodeRef] | None = None,
    filter_text: str | None = None,
) -> View:
    state = state_of(snap)
    items = outline(snap)
    units = units_of(items, snap)
    by_item = {id(u.item): u for u in units}
    eligible = [u for u in units if _eligible(u, opts, matched, snap)]
    plan = _Plan(eligible)
    if snap.stats.cut_frames:
        plan.notes.append(CUT_NOTE)
    if matched is not None:
        plan.notes.append(f"filter {quote(filter_text or '')}: {len(eligible)} of {len(units)} lines match")
        plan.container_notes = False
        plan.why = "filter and budget"
    delta: Delta | None = None
    if opts.since_last:
        if previous is None:
            plan.notes.append("(no previous view of this tab to compare with: the whole view follows)")
        else:
            delta = diff(previous, state)
            _plan_delta(plan, delta, snap.created_at - previous.at)
    if opts.query and delta is None:
        _plan_query(plan, opts.query)
    if opts.viewport_only:
        plan.why = "outside the viewport"
    if delta is not None and delta.empty:
        return _unchanged(snap, opts, state, delta, events, previous)

    def render(kept: set[int], omitted: Omitted) -> str:
        chosen = {id(u.item) for u in plan.units if u.order in kept}
        summary = plan.summary(kept) if plan.summary else omitted.lines(plan.why)
        if opts.format == "text":
            return _text(snap, opts, items, chosen, by_item, plan, events, summary)
        if opts.format == "json":
            context = {**_context(snap, events), **plan.extra, "notes": plan.notes + summary}
            if omitted.total and plan.summary is None:
                context["omitted"] = omitted.to_dict()
            body = prune(items, chosen, by_item, plan.container_notes)
            return msgspec.json.encode(render_json(snap, body, boxes=opts.boxes, context=context)).decode()
        ids = [i for u in plan.units if u.order in kept for i in u.ids]
        seen = sum(len(u.ids) for u in plan.units if u.where.in_view)
        extra: dict[str, Any] = dict(plan.extra)
        if plan.notes or summary:
            extra["notes"] = plan.notes + summary
        if omitted.total and plan.summary is None:
            extra["omitted"] = omitted.to_dict()
        doc = render_semantic(snap, sorted(set(ids), key=ids.index), boxes=opts.boxes, viewport_elements=seen,
                              events=events.strings(), has_errors=events.has_errors, has_success=events.has_success,
                              extra=extra, reason=plan.why)  # fmt: skip
        return msgspec.json.encode(doc).decode()

    budget_opts = opts
    if opts.format == "semantic" and opts.max_tokens:
        budget_opts = _replace(opts, max_tokens=max(1, opts.max_tokens - SEMANTIC_RESERVE))
    fitted = fit(plan.units, render, budget_opts, order=plan.order)
    return _finish(snap, opts, fitted, state, len(units))


def _replace(opts: ViewOptions, **changes: Any) -> ViewOptions:
    from dataclasses import replace

    return replace(opts, **changes)


def _eligible(unit: Unit, opts: ViewOptions, matched: frozenset[NodeRef] | None, snap: DomSnapshot) -> bool:
    if opts.max_depth is not None and unit.depth > opts.max_depth:
        return False
    if matched is not None:
        node = unit.item.node
        if node is not None and node.ref in matched:
            return True
        # A row (or list item) printed as one line holds controls of its own: a filter that
        # matches one of them (a row's checkbox) keeps the line it is on.
        return any((inner := snap.by_id.get(i)) is not None and inner.ref in matched for i in unit.ids)
    return True


def _plan_delta(plan: _Plan, delta: Delta, ago: float) -> None:
    touched = set(delta.added) | set(delta.changed)
    plan.units = [u for u in plan.units if touched.intersection(u.ids)]
    plan.marks = {i: "+ " for i in delta.added} | {i: "~ " for i in delta.changed}
    plan.notes.append(headline(delta, ago))
    plan.tail = change_lines(delta)
    plan.container_notes = False
    plan.extra["delta"] = delta.to_dict()
    plan.why = "delta over the token budget"


def _plan_query(plan: _Plan, query: str) -> None:
    chunks = chunks_of(plan.units)
    ranked = rank(chunks, query)
    total_elements = sum(len(u.ids) for u in plan.units)
    if not ranked:
        plan.notes.append(f"query {quote(query)}: nothing matched; the page follows, viewport first")
        return
    order: list[Unit] = []
    seen: set[int] = set()
    focused = [u for u in plan.units if u.item.node is not None and u.item.node.state.get("focused")]
    for chunk in [c for c in chunks if any(u in c.units for u in focused)] + [c for _, c in ranked]:
        for unit in chunk.headings + chunk.units:
            if unit.order not in seen:
                seen.add(unit.order)
                order.append(unit)
    plan.order = order
    plan.container_notes = False
    plan.why = "query"
    units = plan.units  # (not plan itself: plan holds this function, a cycle over the whole page)

    def summary(kept: set[int]) -> list[str]:
        shown = [c for c in chunks if any(u.order in kept for u in c.units)]
        elements = sum(len(u.ids) for u in units if u.order in kept)
        return [
            f"-- query {quote(query)}: {len(shown)} of {len(chunks)} sections shown (best BM25 matches of "
            f"{len(ranked)} that match), {elements} of {total_elements} elements; "
            f"{total_elements - elements} filtered out — refine the query, or scroll --"
        ]

    plan.summary = summary
    plan.extra["query"] = {"text": query, "sections": len(chunks), "matching": len(ranked)}


def _context(snap: DomSnapshot, events: EventSummary) -> dict[str, Any]:
    page = page_scroll(snap)
    return {
        "scroll_position": scroll_position(snap),
        "more_below": page.more_below,
        "scrollable_containers": container_dicts(snap),
        "recent_events": [e.to_dict(events.now) for e in events.events],
        "has_errors": events.has_errors,
        "has_success": events.has_success,
    }


def _text(
    snap: DomSnapshot,
    opts: ViewOptions,
    items: list[Item],
    chosen: set[int],
    by_item: dict[int, Unit],
    plan: _Plan,
    events: EventSummary,
    summary: list[str],
) -> str:
    lines = header_lines(snap) + scroll_lines(snap) + events.lines() + plan.notes
    body = prune(items, chosen, by_item, plan.container_notes)
    lines += render_items(body, snap, Style(opts.boxes, plan.marks))
    lines += plan.tail + summary
    return "\n".join(lines) + "\n"


def _unchanged(
    snap: DomSnapshot, opts: ViewOptions, state: ViewState, delta: Delta, events: EventSummary,
    previous: ViewState | None,
) -> View:  # fmt: skip
    ago = snap.created_at - previous.at if previous else 0.0
    line = headline(delta, ago)
    payload: Any
    if opts.format == "text":
        payload = "\n".join([line, *events.lines()]) + "\n"
        text = payload
    else:
        payload = {"mode": "delta", "unchanged": True, "tree_hash": delta.new_hash, "url": snap.url,
                   "recent_events": events.strings(), "has_errors": events.has_errors,
                   "has_success": events.has_success}  # fmt: skip
        text = msgspec.json.encode(payload).decode()
    from browserx.views.tokens import count_tokens

    return View(opts.format, payload, count_tokens(text), state, {"delta": delta.to_dict(), "shown_lines": 0})


def _finish(snap: DomSnapshot, opts: ViewOptions, fitted: Fitted, state: ViewState, total_units: int) -> View:
    payload: Any = fitted.output
    tokens = fitted.tokens
    if opts.format != "text":
        payload = msgspec.json.decode(fitted.output)
        if opts.format == "semantic":
            payload["meta"]["estimatedTokens"] = tokens
    stats = {
        "tokens": tokens,
        "max_tokens": opts.max_tokens,
        "shown_lines": len(fitted.kept),
        "total_lines": total_units,
        "omitted": fitted.omitted.to_dict() if fitted.omitted.total else None,
    }
    return View(opts.format, payload, tokens, state, stats)


__all__ = ["View", "build_view", "priority"]
