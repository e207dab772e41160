"""The ``html`` view: the page as HTML, rendered from a snapshot (no I/O), in two modes.

``skeleton`` — only the elements an agent can act on (those with an ID), each with
``data-id="ID"`` (the IDs of the text view, what actions take) and the attributes that name or place it:
the page's own ``id`` (for CSS selectors; whole or not at all: one longer than ``MAX_ATTR``
characters is left out), ``name``, ``type``, ``href``, ``value`` (see below), ``placeholder``,
``role``, ``aria-label``, ``data-testid``; plus the states the text view shows for it (see
``state_attrs`` in views/html_common.py): ``disabled``, ``checked``, ``selected``, ``required``, ``readonly`` where the
element has them natively, else ``aria-disabled``, ``aria-checked`` …; ``aria-expanded``,
``aria-pressed``, ``aria-invalid``, ``aria-sort``. Inside each: its visible text (else its
accessible name; an element that cannot hold text, an ``<input>``, gets its name as
``aria-label``), a ``<select>``'s options. Context is kept only where it holds controls: landmarks, forms, dialogs, menus, tab lists,
toolbars, named fieldsets and tables as bare wrappers (tag, role, name); a frame's controls in an
``<iframe data-frame="label" title="…">``; and the heading of each section that holds controls.
Everything else is hoisted away; what a person cannot see is left out.

``full`` — the whole page: every visible element with its tag and a filtered attribute set (``id``,
``name``, ``type``, ``href``, ``src``, ``alt``, ``title``, ``placeholder``, ``role``, ``for``,
``aria-*`` but the ID references, ``data-testid``, form attributes and states — the live states
as in the skeleton; an ``id`` longer than ``MAX_ATTR`` is left out, not cut; never ``class``,
``style``, event handlers or other ``data-*``), and the text. Annotations: ``data-id`` on elements
with an ID; ``data-interactive="why"`` on those whose tag and role do not say they are controls (a
``<div>`` with a click listener); ``data-scrollable`` on scroll containers; ``data-frame="label"`` on
the ``<body>`` of each frame's document (rendered inside its ``<iframe>``). Left out: scripts,
styles, ``<noscript>``, ``<template>`` and ``<head>`` (the snapshot never holds them), SVG
internals (the ``<svg>`` stays, with its ID and name), ``data:`` URLs, and hidden elements with
everything in them — except an element that is hidden itself but holds visible content (a
zero-size wrapper): it stays, with only that content. Attribute values are cut at
``MAX_ATTR`` characters. Shadow roots are rendered inline under their host as plain content (no
``<template shadowrootmode>``). Repeated structures are templatized: a run of more than
``MIN_RUN - 1`` consecutive sibling elements of the same shape (tag, attribute names and the tags
of their first levels of content) keeps its first ``KEEP`` and says the rest in a comment:
``<!-- 37 more <li> like the above -->`` (with how many elements with IDs they hold: the skeleton
lists those).

Both modes stop at ``max_chars``: the HTML then ends cleanly (every open tag closed) and the view
says it was cut.

Privacy: password values never appear (neither the live value nor a ``value`` attribute written in
the page). Other form values only when the snapshot was taken with ``include_values``, masked as
the other views mask them (``snapshot/redaction.py``: a secret field by its kind, card and SSN
numbers in any value): the live value as ``value`` (a ``<textarea>``'s as its content, a
``<select>``'s as ``selected``, never for a secret list). URLs (``href``, ``src``) as
``redact_url`` leaves them. A ``value`` attribute is otherwise kept only where
it is a button's label (``<input type=submit|button|reset>``). Content of a frame or element that
says ``data-no-ai`` is left out (a comment says so in full mode); a page that says it is refused
before any snapshot (control/api.py).

Where each part lives: this module puts the view together (``render_html``);
views/html_skeleton.py and views/html_full.py render the two modes, views/html_common.py holds
what they share (attributes, values, states, a control's content, frame labels) and
views/html_writer.py the output with its size limit.
"""

from __future__ import annotations

from dataclasses import dataclass

from browserx.snapshot.frames import CUT_NOTE
from browserx.snapshot.snapshot import DomSnapshot
from browserx.views.html_full import write_full
from browserx.views.html_skeleton import write_skeleton
from browserx.views.html_writer import HtmlWriter

DEFAULT_MAX_CHARS = 50_000
MAX_MAX_CHARS = 200_000


@dataclass(frozen=True, slots=True)
class HtmlView:
    html: str
    elements: int  # elements rendered with a data-id
    truncated: bool
    note: str | None


def render_html(snap: DomSnapshot, mode: str = "skeleton", max_chars: int = DEFAULT_MAX_CHARS) -> HtmlView:
    """The snapshot as HTML: ``mode`` skeleton or full, at most ``max_chars`` characters."""
    out = HtmlWriter(max(1, min(max_chars, MAX_MAX_CHARS)))
    if mode == "full":
        write_full(snap, out)
    elif mode == "skeleton":
        write_skeleton(snap, out)
    else:
        raise ValueError(f"unknown html mode {mode!r}")
    html = out.finish()
    note = None
    if out.full:
        total = len(snap.by_id)
        note = (
            f"Cut at {len(html)} characters (max_chars {out.limit}): {out.ids} of the page's {total} elements "
            "with IDs are in it. "
            + ("Ask for a larger max_chars (up to 200000), " if out.limit < MAX_MAX_CHARS else "")
            + ("or mode skeleton, " if mode == "full" else "")
            + "or take a snapshot with a query to see the rest."
        )
    if snap.stats.cut_frames:
        note = f"{CUT_NOTE[0].upper()}{CUT_NOTE[1:]}." + (f" {note}" if note else "")
    return HtmlView(html, out.ids, out.full, note)


__all__ = ["DEFAULT_MAX_CHARS", "MAX_MAX_CHARS", "HtmlView", "render_html"]
