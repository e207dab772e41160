"""What a name from content reads of an element (accname.py): its children in the flat tree, and
the text CSS generates around them. A shadow host's content is its shadow tree; a ``<slot>``
shows the light children assigned to it, else its fallback content; frame documents are skipped;
the ``::before`` and ``::after`` text (capture's ``state["before"]`` / ``["after"]``) is read as
text nodes in the element's own box.

Pure functions of the captured tree: no I/O, no CDP.
"""

from __future__ import annotations

from .model import F_SPACE_AFTER, F_SPACE_BEFORE, Node


def content_children(node: Node) -> list[Node]:
    """``node``'s children as a name from content reads them: the flat tree's, with the generated
    text before and after them."""
    children = _flat_children(node)
    state = node.state
    if "before" in state or "after" in state:
        children = _with_generated(node, children)
    return children


def _flat_children(node: Node) -> list[Node]:
    """A shadow host's content is its shadow tree; frame documents are skipped."""
    shadow = next((c for c in node.children if c.tag == "#shadow-root"), None)
    if shadow is not None:
        return shadow.children
    return [c for c in node.children if c.tag != "#document"]


def _with_generated(node: Node, children: list[Node]) -> list[Node]:
    """The children with the pseudo-elements' text as text nodes in the element's own box (an
    ``::after`` of a chip is glued to its text: "Electronics,")."""
    out = list(children)
    for key, at_end in (("before", False), ("after", True)):
        raw = str(node.state.get(key) or "")
        text = " ".join(raw.split())
        if not text:
            continue
        flags = (F_SPACE_BEFORE if raw[:1].isspace() else 0) | (F_SPACE_AFTER if raw[-1:].isspace() else 0)
        piece = Node(node.ref, "#text", parent=node, text=text, flags=flags, index=node.index)
        if at_end:
            out.append(piece)
        else:
            out.insert(0, piece)
    return out


def slot_content(slot: Node) -> list[Node]:
    """The light children assigned to a <slot> (matched on the slot / name attributes when
    captured; unnamed light children go to the default slot), else its fallback content."""
    shadow = slot.scope
    host = shadow.parent if shadow is not None and shadow.tag == "#shadow-root" else None
    if host is None:
        return slot.children
    light = [c for c in host.children if c.tag not in ("#shadow-root", "#document")]
    name = slot.attrs.get("name", "")
    if name:
        assigned = [c for c in light if c.attrs.get("slot", "") == name]
    else:
        assigned = [c for c in light if not c.is_element or not c.attrs.get("slot")]
    return assigned or slot.children
