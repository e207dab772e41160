"""Self-healing: when the element an ID named is gone (a framework re-rendered it), find the one
element of a fresh snapshot that is provably the same control. Pure: works on fingerprints.

The rule (an ID never acts on another element): a candidate is the same control only when it is
in the same document (frame label and browserx world, i.e. the same page load), has the same tag,
role and whitespace-normalised name (a nameless element is never healed), and sits in the same
context (snapshot/context.py): the same chain of dialog/form/landmark/row ancestors with their
names, the same nearest preceding heading and text in its container, and the same rank among the
controls with that role and name there; among twins (identical rows) it must also sit where the
old one sat. And it must be the only such candidate. Anything else —
a lookalike in another dialog, form or landmark, a twin in a re-ordered list, two equal
candidates — is no heal: the caller answers ``stale_id`` and lists ``lookalikes`` so the agent
can choose by their new IDs.
"""

from __future__ import annotations

import math

from browserx.snapshot.context import describe
from browserx.tabs.memory import Fingerprint

SAME_PLACE_PX = 4.0  # a re-rendered twin at the same place moved by less than this


def normalise(name: str) -> str:
    return " ".join(name.split())


def same_control(old: Fingerprint, new: Fingerprint) -> bool:
    """Whether ``new`` is provably the element ``old`` named, re-created in place."""
    return (
        old.context_id is not None
        and new.context_id == old.context_id
        and new.frame == old.frame
        and new.tag == old.tag
        and new.role == old.role
        and old.context is not None
        and new.context == old.context
        and normalise(new.name) == normalise(old.name)
    )


def best_match(old: Fingerprint, candidates: list[Fingerprint]) -> Fingerprint | None:
    """The one candidate that is the same control as ``old``, or None when none is certain."""
    if not old.name.strip() or old.role is None:
        return None  # nameless elements cannot be recognised safely
    same = [c for c in candidates if same_control(old, c)]
    if len(same) != 1:
        return None
    # Among twins (equal role, name and chain: identical rows), the rank alone could name another
    # row that now reads the same: the twin must also sit where the old one sat.
    assert old.context is not None  # same_control checked it
    chain, want = old.context.chain, normalise(old.name)
    twins = sum(
        1
        for c in candidates
        if c.context is not None
        and c.context.chain == chain
        and c.role == old.role
        and normalise(c.name) == want
    )
    if (twins > 1 or old.context.rank > 0) and not _same_place(old, same[0]):
        return None
    return same[0]


def _same_place(old: Fingerprint, new: Fingerprint) -> bool:
    """Whether ``new`` sits where ``old`` sat, in page coordinates (scrolling moves neither)."""
    if old.center is None or new.center is None:
        return False
    here = (old.center[0] + old.scroll[0], old.center[1] + old.scroll[1])
    there = (new.center[0] + new.scroll[0], new.center[1] + new.scroll[1])
    return math.dist(here, there) <= SAME_PLACE_PX


def lookalikes(old: Fingerprint, candidates: list[Fingerprint], limit: int = 10) -> list[Fingerprint]:
    """Candidates with the role and name of ``old``, anywhere (what the agent may have meant)."""
    if old.role is None or not old.name.strip():
        return []
    want = normalise(old.name)
    return [c for c in candidates if c.role == old.role and normalise(c.name) == want][:limit]


def line(fp: Fingerprint) -> str:
    """'[41] button "Confirm" in dialog "Delete account"': a candidate as the agent reads it."""
    what = fp.role or fp.tag
    return f'[{fp.element_id}] {what} "{normalise(fp.name)}"' + describe(fp.context)
