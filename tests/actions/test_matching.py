"""The heal rule (actions/matching.py): a stale ID heals only to the one candidate that is provably
the same control — same document, tag, role, name and context (snapshot/context.py) — and, among
twins, at the same place. Pure fingerprints; the contexts of real trees are checked at the end."""

from __future__ import annotations

from browserx.actions.matching import best_match, line, lookalikes
from browserx.snapshot.context import Chain, ControlContext, control_contexts
from browserx.snapshot.model import Node
from browserx.tabs.memory import Fingerprint, fingerprints
from tests.builders import el, page, text

FORM: Chain = (("form", "Newsletter"),)
DIALOG: Chain = (("dialog", "Delete account"),)


def ctx(chain: Chain = FORM, heading: str = "", near: str = "", rank: int = 0) -> ControlContext:
    return ControlContext(chain, heading, near, rank)


def fp(i: int, name: str, role: str | None = "button", tag: str = "button", *,
       where: ControlContext | None = None, center: tuple[float, float] | None = (10, 10),
       scroll: tuple[float, float] = (0, 0), context_id: int | None = 1, frame: str = "m") -> Fingerprint:  # fmt: skip
    return Fingerprint(i, frame, context_id, tag, role, name, center, scroll, where or ctx())


def test_the_one_candidate_in_the_same_place_is_taken() -> None:
    old = fp(1, "Open B")
    assert best_match(old, [fp(5, "Open A"), fp(6, "Open  B "), fp(7, "Open C")]) == fp(6, "Open  B ")


def test_the_confirm_of_another_dialog_is_another_control() -> None:
    # The attack: the form's Confirm is gone, a dialog's Confirm is the only lookalike.
    old = fp(1, "Confirm", where=ctx(FORM))
    dialog = fp(41, "Confirm", where=ctx(DIALOG))
    assert best_match(old, [dialog]) is None
    assert lookalikes(old, [dialog, fp(42, "Cancel", where=ctx(DIALOG))]) == [dialog]
    assert line(dialog) == '[41] button "Confirm" in dialog "Delete account"'


def test_every_part_of_the_context_must_agree() -> None:
    old = fp(1, "Delete", where=ctx(FORM, "Settings", "Alice", 0))
    for where in (
        ctx((*FORM, ("region", "Danger")), "Settings", "Alice", 0),  # one container more
        ctx((("form", "Profile"),), "Settings", "Alice", 0),  # a container of another name
        ctx(FORM, "Billing", "Alice", 0),  # under another heading
        ctx(FORM, "Settings", "Bob", 0),  # after other text (another row's label)
        ctx(FORM, "Settings", "Alice", 1),  # another rank among equals
    ):
        assert best_match(old, [fp(2, "Delete", where=where)]) is None, where
    assert best_match(old, [fp(2, "Delete", where=ctx(FORM, "Settings", "Alice", 0))]) is not None


def test_same_document_role_tag_and_exact_name() -> None:
    old = fp(1, "Open B")
    assert best_match(old, [fp(6, "Open B", role="link", tag="a")]) is None
    assert best_match(old, [fp(6, "Open B", tag="div")]) is None
    assert best_match(old, [fp(6, "Open B", context_id=2)]) is None  # another page load
    assert best_match(old, [fp(6, "Open B", frame="f1")]) is None  # another frame
    assert best_match(fp(1, "Open B", context_id=None), [fp(6, "Open B", context_id=None)]) is None
    assert best_match(fp(1, "Delete item 3"), [fp(2, "Delete item 4")]) is None
    assert best_match(fp(1, "Save"), [fp(2, "save")]) is None


def test_nameless_or_contextless_never_heals() -> None:
    assert best_match(fp(1, ""), [fp(2, "")]) is None
    bare = Fingerprint(1, "m", 1, "button", "button", "Go", (10, 10), (0, 0), None)
    assert best_match(bare, [bare._replace(element_id=2)]) is None


def test_two_equal_candidates_are_no_heal() -> None:
    assert best_match(fp(1, "Go"), [fp(2, "Go"), fp(3, "Go")]) is None


def test_twins_also_need_the_same_place_in_page_coordinates() -> None:
    # Identical rows: rank 1 now may be another row that reads the same.
    old = fp(1, "Reply", where=ctx(rank=1), center=(50, 100))
    first = fp(2, "Reply", where=ctx(rank=0), center=(50, 40))
    assert best_match(old, [first, fp(3, "Reply", where=ctx(rank=1), center=(50, 101))]) is not None
    assert best_match(old, [first, fp(3, "Reply", where=ctx(rank=1), center=(50, 160))]) is None
    # Same viewport point, but the page scrolled in between: not the same place.
    moved = fp(3, "Reply", where=ctx(rank=1), center=(50, 100), scroll=(0, 300))
    assert best_match(old, [first, moved]) is None


# -- contexts of real trees (snapshot/context.py) -------------------------------------------------


_ID = iter(range(1, 10_000))


def button(name: str) -> Node:
    return el("button", text(name), role="button", name=name, tier=1, bx_id=next(_ID))


def test_contexts_name_the_dialog_form_landmark_heading_row_and_rank() -> None:
    snap = page(
        el("h1", text("Settings"), role="heading", name="Settings"),
        button("Save"),
        el("form", button("Confirm"), role="form", name="Newsletter"),
        el("ul",
           el("li", text("Alice"), button("Delete"), role="listitem"),
           el("li", text("Bob"), button("Delete"), role="listitem"), role="list"),
        el("nav", button("Delete"), button("Delete"), role="navigation", name="Main"),
        el("div", el("h2", text("Really?"), role="heading", name="Really?"), button("Confirm"),
           role="dialog", name="Delete account"),
    )  # fmt: skip
    prints = sorted(fingerprints(snap, lambda _: 1).values())
    assert [line(fp).split("] ", 1)[1] for fp in prints] == [
        'button "Save" under heading "Settings" after "Settings"',
        'button "Confirm" in form "Newsletter"',
        'button "Delete" in listitem "Alice" after "Alice"',
        'button "Delete" in listitem "Bob" after "Bob"',
        'button "Delete" in navigation "Main"',
        'button "Delete" in navigation "Main" after "Delete"',
        'button "Confirm" in dialog "Delete account" under heading "Really?" after "Really?"',
    ]
    ranks = [fp.context.rank for fp in prints if fp.context is not None]
    assert ranks == [0, 0, 0, 0, 0, 1, 0]  # the two Deletes of the nav are told apart by rank


def test_chains_are_interned_per_container() -> None:
    snap = page(el("form", *(button(f"B{i}") for i in range(50)), role="form", name="F"))
    contexts = control_contexts(snap.nodes, list(snap.by_id.values()))
    assert len(contexts) == 50 and len({id(c.chain) for c in contexts.values()}) == 1
