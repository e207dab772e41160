"""Self-healing: when the element an ID named is gone (a framework re-rendered it), find the one
element of a fresh snapshot that is unmistakably the same thing. Pure: works on fingerprints.

Accepted only when the role is equal, the name is exactly equal (whitespace-normalised) and the
match is unique — a different element with a look-alike name must never be clicked instead.
Position only breaks ties between candidates that are otherwise identical *and* sit at the same
place (a re-render in place); two same-named items elsewhere make the match ambiguous → fail.
"""

from __future__ import annotations

import math

from browserx.tabs.memory import Fingerprint

SAME_PLACE_PX = 4.0  # a re-rendered element at the same place moved by less than this


def normalise(name: str) -> str:
    return " ".join(name.split())


def _page_point(fp: Fingerprint) -> tuple[float, float] | None:
    if fp.center is None:
        return None
    return (fp.center[0] + fp.scroll[0], fp.center[1] + fp.scroll[1])


def best_match(old: Fingerprint, candidates: list[Fingerprint]) -> Fingerprint | None:
    """The candidate that is the same element as ``old``, or None when none is certain."""
    if not old.name.strip() or old.role is None:
        return None  # nameless elements cannot be recognised safely
    want = normalise(old.name)
    same = [c for c in candidates if c.role == old.role and c.tag == old.tag and normalise(c.name) == want]
    if len(same) == 1:
        return same[0]
    if len(same) > 1:
        # Several identical twins: only one sitting exactly where the old one was may be taken.
        here = _page_point(old)
        if here is None:
            return None
        close = []
        for c in same:
            there = _page_point(c)
            if there is not None and math.dist(here, there) <= SAME_PLACE_PX:
                close.append(c)
        if len(close) == 1:
            return close[0]
    return None
