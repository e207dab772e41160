"""Accessible name and description (accname 1.2 + HTML-AAM), following Chrome for the common
cases.

    ctx = NameContext(root)            # name_context.py: once per tree (refs, ids, labels, roles)
    accessible_name(node, ctx)         # whitespace-collapsed, trimmed
    description(node, ctx)

Fields left unnamed here get a name from label_hunt.py, which reads the page as a person would.

One algorithm, read in the spec's order: the text alternative of a node (step 2: labelledby,
aria-label, native labels, content, title) and the name from content (children, slots, embedded
controls' values) call each other recursively, so both are here. What they read is not: the
role and tag tables in role_tables.py, an element's children in the flat tree (shadow trees,
slots, CSS generated text) in flat_tree.py.

Pure functions of the captured tree: no I/O, no CDP. The steps are plain calls in spec order
rather than a table of lambdas: compiled with mypyc (scripts/build_native.py), each lambda is an
object made per named node.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .elements import input_type
from .flat_tree import content_children, slot_content
from .model import F_ATOMIC_INLINE, F_INLINE, F_SPACE_AFTER, F_SPACE_BEFORE, Node
from .name_context import NameContext
from .role_tables import (
    CONTRIBUTES_CONTENT_ROLES,
    DEFAULT_BUTTON_LABELS,
    EMBEDDED_CONTROL_ROLES,
    NAME_CHILD_BY_TAG,
    NAME_FROM_CONTENT_ROLES,
    SPACED_CONTROL_ROLES,
    TEXT_FIELD_INPUT_TYPES,
    TEXTBOX_ROLES,
    UNNAMEABLE_ROLES,
)

MAX_DEPTH = 200  # recursion guard for pathological nesting inside a named element
MAX_DESCENDANTS = 100  # Chrome's kMaxDescendantsForTextAlternativeComputation


def collapse(text: str) -> str:
    return " ".join(text.split())


@dataclass(slots=True)
class _Walk:
    """One name computation: the node being named and the nodes already used."""

    root: Node
    visited: set[int] = field(default_factory=set)
    in_labelledby: bool = False  # aria-labelledby is not followed twice
    hidden_ok: bool = False  # inside a hidden element referenced by labelledby / a label
    depth: int = 0


# ---------------------------------------------------------------------------- public API


def accessible_name(node: Node, ctx: NameContext) -> str:
    return name_and_source(node, ctx)[0]


def name_and_source(node: Node, ctx: NameContext) -> tuple[str, str]:
    """The name and where it came from: "labelledby", "aria-label", "native" (labels, alt,
    value, legend, caption...), "contents", "title", "placeholder", or "" when unnamed."""
    if node.is_text:
        return collapse(node.text), "contents"
    if not node.is_element:
        return "", ""
    role = ctx.role(node)
    if role is None:
        return "", ""  # presentational or not exposed: no name
    quick = _text_only_content_name(node, ctx, role)
    if quick:
        return quick, "contents"
    walk = _Walk(root=node, visited={id(node)})
    text = collapse(_labelledby(node, ctx, walk))
    if text:
        return text, "labelledby"
    text = collapse(_attr(node, "aria-label"))
    if text:
        return text, "aria-label"
    text = collapse(_native(node, ctx, walk))
    if text:
        return text, "native"
    if _content_named(node, ctx, role):
        text = collapse(_content(node, ctx, walk))
        if text:
            return text, "contents"
    text = collapse(_attr(node, "title"))
    if text:
        return text, "title"
    text = collapse(_placeholder(node, role))
    if text:
        return text, "placeholder"
    return "", ""


_NATIVE_NAME_TAGS = frozenset({"input", "img", "area", "optgroup", "option", "track", *NAME_CHILD_BY_TAG})


def _text_only_content_name(node: Node, ctx: NameContext, role: str) -> str:
    """The common case, without the general algorithm: a control named by its own text nodes
    alone (a link or button with plain text), with no author or native name before content.
    "" when the case does not apply (the general steps then decide)."""
    attrs = node.attrs
    if (
        "aria-labelledby" in attrs
        or "aria-label" in attrs
        or node.tag in _NATIVE_NAME_TAGS
        or not ctx.labels_complete
        or "labels" in node.state
        or "before" in node.state
        or "after" in node.state
        or role not in NAME_FROM_CONTENT_ROLES
        or role == "row"
    ):
        return ""
    parts: list[str] = []
    for child in node.children:
        if child.tag != "#text":
            return ""
        if child.rendered:
            parts.append(child.text)
    return collapse("".join(parts))


def description(node: Node, ctx: NameContext) -> str:
    """aria-describedby (falling back to capture's ``describedbyText``), aria-description, then
    title when the title is not already the name."""
    if not node.is_element:
        return ""
    text = _referenced_text(node, ctx, "aria-describedby", "describedbyText")
    if text:
        return text
    text = _attr(node, "aria-description")
    if text:
        return text
    title = _attr(node, "title")
    name, source = name_and_source(node, ctx)
    return title if title and source != "title" and title != name else ""


def content_text(node: Node, ctx: NameContext, named: Node) -> str:
    """The name from ``node``'s content (not collapsed) as it reads while naming ``named``
    (``named`` itself is left out of it)."""
    return _content(node, ctx, _Walk(root=named, visited={id(named)}))


# ---------------------------------------------------------------------------- steps


def _attr(node: Node, name: str) -> str:
    return collapse(node.attrs.get(name) or "")


def is_hidden(node: Node) -> bool:
    """Hidden from the accessibility tree (accname's "hidden"): not rendered or aria-hidden.
    Unseen is not hidden: screen-reader-only, clipped, off-page and transparent content names."""
    return not node.rendered or node.attrs.get("aria-hidden", "").strip().lower() == "true"


def _content_named(node: Node, ctx: NameContext, role: str | None) -> bool:
    if role == "row":
        table = next((a for a in _ancestors(node) if ctx.role(a) in ("table", "grid", "treegrid")), None)
        return table is not None and ctx.role(table) in ("grid", "treegrid")
    return role in NAME_FROM_CONTENT_ROLES


def _ancestors(node: Node) -> list[Node]:
    out: list[Node] = []
    parent = node.parent
    while parent is not None and parent.tag != "#document":
        if parent.is_element:
            out.append(parent)
        parent = parent.parent
    return out


def _referenced_text(node: Node, ctx: NameContext, attr: str, fallback_state: str) -> str:
    """Text of the elements an idref attribute points at (aria-labelledby/-describedby)."""
    ids = (node.attrs.get(attr) or "").split()
    if not ids:
        return ""
    targets = [t for t in (ctx.index.get(node.scope, i) for i in ids) if t is not None]
    if not targets:
        return collapse(str(node.state.get(fallback_state) or ""))
    walk = _Walk(root=node, visited={id(node)}, in_labelledby=True)
    return collapse(" ".join(_referenced(target, ctx, walk) for target in targets))


def _labelledby(node: Node, ctx: NameContext, walk: _Walk) -> str:
    if walk.in_labelledby or not node.attrs.get("aria-labelledby", "").strip():
        return ""
    ids = node.attrs["aria-labelledby"].split()
    targets = [t for t in (ctx.index.get(node.scope, i) for i in ids) if t is not None]
    if not targets:
        return collapse(str(node.state.get("labelledbyText") or ""))
    sub = _Walk(walk.root, walk.visited, True, walk.hidden_ok, walk.depth)
    return " ".join(_referenced(target, ctx, sub) for target in targets)


def _referenced(target: Node, ctx: NameContext, walk: _Walk) -> str:
    """Text alternative of a labelledby/describedby target or a <label>: content is used
    whatever its role, and a hidden target's hidden subtree counts."""
    if target is not walk.root and id(target) in walk.visited:
        return ""
    sub = _Walk(walk.root, walk.visited, walk.in_labelledby, walk.hidden_ok or is_hidden(target), walk.depth)
    return _alternative(target, ctx, sub, referenced=True)[0]


def _alternative(node: Node, ctx: NameContext, walk: _Walk, *, referenced: bool = False) -> tuple[str, bool]:
    """accname step 2 for a node reached by recursion (not the node being named). Returns the
    text and whether it came from content (False: from an attribute, a label or a value, which
    Chrome sets apart from neighbouring text with a space)."""
    if node.is_text:
        if not (walk.hidden_ok or node.rendered):
            return "", True
        flags = node.flags  # the white space it had at its edges (collector.js)
        if not flags:
            return node.text, True
        return (" " if flags & F_SPACE_BEFORE else "") + node.text + (
            " " if flags & F_SPACE_AFTER else ""
        ), True
    if not node.is_element or walk.depth > MAX_DEPTH:
        return "", True
    if is_hidden(node) and not walk.hidden_ok:
        return "", True
    if node is walk.root:
        if not referenced:
            return "", True  # the control being named, met inside its own label
    elif id(node) in walk.visited:
        return "", True
    else:
        walk.visited.add(id(node))
    # (Built, not dataclasses.replace: that is a generic, slow call, and this runs for every node met.)
    walk = _Walk(walk.root, walk.visited, walk.in_labelledby, walk.hidden_ok, walk.depth + 1)
    role = ctx.role(node)
    text = _labelledby(node, ctx, walk)
    if text.strip():
        return text, False
    if node is not walk.root and role in EMBEDDED_CONTROL_ROLES:
        return _control_value(node, ctx, walk, role), False
    text = _attr(node, "aria-label")
    if text.strip():
        return text, False
    text = _native(node, ctx, walk)
    if text.strip():
        return text, False
    if referenced or _contributes(role):
        text = _content(node, ctx, walk)
        if text.strip():
            return text, True
    # A generic element cannot be named (ARIA 1.2), so Chrome 156 ignores its title when it is
    # met inside another's content: a tab's close icon <div title="Close x"> adds nothing.
    if node is walk.root or role not in UNNAMEABLE_ROLES:
        text = _attr(node, "title")
        if text.strip():
            return text, False
    return "", True


def _contributes(role: str | None) -> bool:
    return role is None or role in NAME_FROM_CONTENT_ROLES or role in CONTRIBUTES_CONTENT_ROLES


def _native(node: Node, ctx: NameContext, walk: _Walk) -> str:
    """HTML-AAM host-language names: labels, input values, alt, legend, figcaption, caption."""
    tag = node.tag
    labels = ctx.labels(node)
    if labels:
        text = collapse(" ".join(_referenced(label, ctx, walk) for label in labels))
        if text:
            return text
    if tag == "input":
        return _input_native(node)
    if tag in ("img", "area"):
        return _attr(node, "alt")
    if tag in NAME_CHILD_BY_TAG:
        first = next((c for c in node.children if c.tag == NAME_CHILD_BY_TAG[tag]), None)
        return _referenced(first, ctx, walk) if first is not None else ""
    if tag in ("optgroup", "option", "track"):
        return _attr(node, "label")
    return ""


def _input_native(node: Node) -> str:
    kind = input_type(node)
    if kind in ("button", "submit", "reset"):
        return _attr(node, "value") or DEFAULT_BUTTON_LABELS.get(kind, "")
    if kind == "image":
        text = _attr(node, "alt") or _attr(node, "value")
        # The title step comes before the default label.
        return text or ("" if _attr(node, "title") else "Submit")
    return ""


def _placeholder(node: Node, role: str | None) -> str:
    is_text_field = node.tag == "textarea" or (
        node.tag == "input" and input_type(node) in TEXT_FIELD_INPUT_TYPES
    )
    if is_text_field:
        return _attr(node, "placeholder") or _attr(node, "aria-placeholder")
    if role in TEXTBOX_ROLES or role == "combobox":
        return _attr(node, "aria-placeholder")
    return ""


# ---------------------------------------------------------------------------- content


def _content(node: Node, ctx: NameContext, walk: _Walk) -> str:
    """Name from content: the children's text alternatives in flat-tree order, with the text
    CSS generates before and after them (``::before`` / ``::after``: flat_tree.py); children in
    boxes of their own (block-level, inline-block, flex items) are set apart by spaces, as Chrome
    does between pieces whose layout boxes differ."""
    return _children_text(content_children(node), ctx, walk)


def _children_text(children: list[Node], ctx: NameContext, walk: _Walk) -> str:
    out = ""
    previous: Node | None = None
    previous_from_content = True
    for child in children:
        if len(walk.visited) > MAX_DESCENDANTS + 1:
            break  # Chrome stops naming from content after 100 descendants
        if child.tag == "br":
            text, from_content = " ", True
        elif child.tag == "slot":
            text, from_content = _children_text(slot_content(child), ctx, walk), True
        else:
            text, from_content = _alternative(child, ctx, walk)
        if text and previous is not None and out and not out[-1].isspace() and not text[0].isspace():
            apart = _set_apart(previous, ctx) or _set_apart(child, ctx)
            if apart or not (previous_from_content and from_content):
                out += " "
        out += text
        if walk.hidden_ok or not is_hidden(child):
            previous = child
        if text:
            previous_from_content = from_content
    return out


def _set_apart(node: Node, ctx: NameContext) -> bool:
    """Boxes of their own (block-level, inline-block, a flex item) and controls are separated
    from their neighbours by a space."""
    if not node.is_element or node.tag == "slot":
        return False
    flags = node.flags
    return not flags & F_INLINE or bool(flags & F_ATOMIC_INLINE) or ctx.role(node) in SPACED_CONTROL_ROLES


def _control_value(node: Node, ctx: NameContext, walk: _Walk, role: str | None) -> str:
    """accname 2C: an embedded control contributes its current value."""
    if role in TEXTBOX_ROLES:
        if node.tag in ("input", "textarea"):
            return _field_value(node)
        return _content(node, ctx, walk)
    if role in ("combobox", "listbox"):
        if node.tag == "select":
            return " ".join(_selected_options(node, ctx, walk))
        if node.tag == "input":
            return _field_value(node)
        if role == "combobox":
            return _content(node, ctx, walk)
        options = (n for n in node.walk() if ctx.role(n) == "option")
        chosen = (
            o for o in options if o.state.get("selected") is True or _attr(o, "aria-selected") == "true"
        )
        return " ".join(_content(o, ctx, walk) for o in chosen)
    return (
        _attr(node, "aria-valuetext")
        or _attr(node, "aria-valuenow")
        or (_field_value(node) if node.tag in ("input", "meter", "progress") else "")
    )


def _field_value(node: Node) -> str:
    if node.tag == "input" and input_type(node) == "password":
        return ""
    value = node.state.get("value")
    return str(value) if value is not None else node.attrs.get("value", "")


def _selected_options(select: Node, ctx: NameContext, walk: _Walk) -> list[str]:
    captured = select.state.get("options")
    if captured is not None:
        return [str(label) for label, selected in captured if selected]
    options = [n for n in select.walk() if n.tag == "option"]
    chosen = [o for o in options if o.state.get("selected") is True or "selected" in o.attrs]
    if not chosen and options and ctx.role(select) == "combobox":
        chosen = options[:1]  # a single-select shows its first option by default
    return [_attr(o, "label") or collapse(_content(o, ctx, walk)) for o in chosen]
