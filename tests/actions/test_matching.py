from __future__ import annotations

from browserx.actions.matching import Fingerprint, best_match


def fp(i: int, name: str, role: str | None = "button", tag: str = "button",
       center: tuple[float, float] | None = (10, 10), scroll: tuple[float, float] = (0, 0)) -> Fingerprint:  # fmt: skip
    return Fingerprint(i, "m", 1, tag, role, name, center, scroll)


def test_unique_exact_match() -> None:
    old = fp(1, "Open B")
    assert best_match(old, [fp(5, "Open A"), fp(6, "Open  B "), fp(7, "Open C")]) == fp(6, "Open  B ")


def test_role_and_tag_must_agree() -> None:
    old = fp(1, "Open B")
    assert best_match(old, [fp(6, "Open B", role="link", tag="a")]) is None
    assert best_match(old, [fp(6, "Open B", tag="div")]) is None


def test_no_fuzzy_lookalikes() -> None:
    assert best_match(fp(1, "Delete item 3"), [fp(2, "Delete item 4")]) is None
    assert best_match(fp(1, "Save"), [fp(2, "save")]) is None


def test_nameless_never_heals() -> None:
    assert best_match(fp(1, ""), [fp(2, "")]) is None


def test_twins_need_the_same_place() -> None:
    old = fp(1, "Reply", center=(50, 100))
    twins = [fp(2, "Reply", center=(50, 40)), fp(3, "Reply", center=(50, 101))]
    assert best_match(old, twins) == twins[1]
    far = [fp(2, "Reply", center=(50, 40)), fp(3, "Reply", center=(50, 160))]
    assert best_match(old, far) is None


def test_position_is_compared_in_page_coordinates() -> None:
    # Same viewport point but the page scrolled in between: not the same place.
    old = fp(1, "Reply", center=(50, 100), scroll=(0, 0))
    twins = [
        fp(2, "Reply", center=(50, 100), scroll=(0, 300)),
        fp(3, "Reply", center=(50, 400), scroll=(0, 300)),
    ]
    assert best_match(old, twins) is None
