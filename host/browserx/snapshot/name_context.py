"""What naming needs to look up in a captured tree, built once per tree and shared by every
name computed in it (accname.py, label_hunt.py): nodes by ref, element ids per tree scope, the
``<label>``s of each control, and each node's role.

Pure functions of the captured tree: no I/O, no CDP.
"""

from __future__ import annotations

from .elements import input_type
from .model import Node, NodeRef, ScopeIndex
from .roles import role_of

# Elements a <label> can label (HTML's labelable elements that capture sees).
LABELABLE_TAGS: frozenset[str] = frozenset(
    {"button", "input", "meter", "output", "progress", "select", "textarea"}
)


class NameContext:
    """Lookups built once per tree: nodes by ref, ids per scope, label[for] targets, roles."""

    def __init__(
        self,
        root: Node,
        index: ScopeIndex | None = None,
        by_ref: dict[NodeRef, Node] | None = None,
        *,
        labels_complete: bool = False,
    ) -> None:
        """``by_ref``/``index`` may come prebuilt (the merged tree has them). ``labels_complete``
        says capture gave every control its ``state["labels"]``, so a control without that key
        has no label and the tree need not be searched."""
        self.root = root
        self.by_ref: dict[NodeRef, Node] = by_ref if by_ref is not None else {}
        self.index = index if index is not None else ScopeIndex()
        self.labels_complete = labels_complete
        self._labels_for: dict[tuple[int, str], list[Node]] | None = None
        self._roles: dict[int, str | None] = {}
        if by_ref is None or index is None:
            for node in root.walk():
                if by_ref is None:
                    self.by_ref[node.ref] = node
                if index is None:
                    self.index.add(node)

    def _label_targets(self) -> dict[tuple[int, str], list[Node]]:
        if self._labels_for is None:
            self._labels_for = {}
            for node in self.root.walk():
                target = node.attrs.get("for") if node.tag == "label" else None
                if target and node.scope is not None:
                    self._labels_for.setdefault((id(node.scope), target), []).append(node)
        return self._labels_for

    def role(self, node: Node) -> str | None:
        key = id(node)
        if key not in self._roles:
            self._roles[key] = node.role if node.role is not None else role_of(node)
        return self._roles[key]

    def labels(self, node: Node) -> list[Node]:
        """The element's <label>s: capture's ``state["labels"]`` keys, else found in the tree."""
        keys = node.state.get("labels")
        if keys is not None:
            found = (self.by_ref.get(NodeRef(node.ref.frame, int(key))) for key in keys)
            return [label for label in found if label is not None]
        if self.labels_complete:
            return []
        if node.tag not in LABELABLE_TAGS or (node.tag == "input" and input_type(node) == "hidden"):
            return []
        labels: list[Node] = []
        element_id = node.attrs.get("id")
        if element_id and node.scope is not None:
            labels.extend(self._label_targets().get((id(node.scope), element_id), []))
        wrapper = _nearest_label(node)
        if wrapper is not None and "for" not in wrapper.attrs and wrapper not in labels:
            labels.append(wrapper)
        return sorted(labels, key=lambda label: label.index)


def _nearest_label(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None and parent.is_element:
        if parent.tag == "label":
            return parent
        parent = parent.parent
    return None
