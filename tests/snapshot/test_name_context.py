"""The lookups naming builds once per tree (snapshot/name_context.py): a control's <label>s
(captured or found in the tree), ids per scope, roles. Trees wired as the pipeline wires them
(merge.Tree.finish: document order, scopes, id index)."""

from __future__ import annotations

from tests.builders import doc, el, text

from browserx.snapshot.accname import accessible_name
from browserx.snapshot.merge import Tree
from browserx.snapshot.model import Node, ScopeIndex
from browserx.snapshot.name_context import NameContext


def wired(*body: Node) -> Tree:
    tree = Tree(doc(el("body", *body)))
    tree.finish()
    return tree


def test_labels_come_from_captured_keys() -> None:
    first, second = el("label", text("First")), el("label", text("Second"))
    field = el("input", state={"labels": [second.ref.key, first.ref.key, 10**9]})
    tree = wired(first, second, field)
    assert NameContext(tree.root).labels(field) == [second, first]  # as captured; unknown keys dropped


def test_labels_found_in_the_tree_in_document_order() -> None:
    by_for = el("label", text("Query"), attrs={"for": "q"})
    field = el("input", attrs={"id": "q"})
    wrapper = el("label", field, text(" again"))
    elsewhere = el("input")
    pointing_away = el("label", elsewhere, attrs={"for": "other"})
    tree = wired(wrapper, by_for, pointing_away)
    ctx = NameContext(tree.root, tree.ids, tree.by_ref)
    assert ctx.labels(field) == [wrapper, by_for]
    assert ctx.labels(elsewhere) == []  # a wrapping label for another control


def test_no_tree_search_when_capture_labelled_every_control() -> None:
    field = el("input", attrs={"id": "q"})
    tree = wired(el("label", text("Query"), attrs={"for": "q"}), field)
    assert NameContext(tree.root, labels_complete=True).labels(field) == []
    assert NameContext(tree.root).labels(field) != []


def test_hidden_inputs_and_unlabelable_elements_have_no_labels() -> None:
    hidden = el("input", attrs={"type": "hidden", "id": "h"})
    div = el("div", attrs={"id": "d"})
    tree = wired(el("label", attrs={"for": "h"}), el("label", attrs={"for": "d"}), hidden, div)
    ctx = NameContext(tree.root)
    assert ctx.labels(hidden) == []
    assert ctx.labels(div) == []


def test_role_prefers_the_classified_role() -> None:
    button, classified = el("button"), el("div", role="link")
    tree = wired(button, classified)
    ctx = NameContext(tree.root)
    assert ctx.role(button) == "button"
    assert ctx.role(classified) == "link"


def test_context_reuses_a_given_scope_index() -> None:
    target = el("span", text("Target"), attrs={"id": "t"}, inline=True)
    field = el("input", attrs={"aria-labelledby": "t"})
    tree = wired(target, field)
    index = ScopeIndex()
    ctx = NameContext(tree.root, index)
    assert accessible_name(field, ctx) == ""  # the given (empty) index is used as is
    for node in tree.root.walk():
        index.add(node)
    assert accessible_name(field, NameContext(tree.root, index)) == "Target"
