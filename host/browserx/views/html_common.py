"""What both modes of the ``html`` view (views/html.py) share: which tags are alike to both (void,
left out, named by an ``aria-label``), how an attribute is written (white space collapsed, escaped,
cut at ``MAX_ATTR``; the page's own ``id`` whole or not at all; no ``data:`` URLs), ``value`` as the
privacy rules allow it, the states as attributes (native where HTML has them, ``aria-*``
otherwise), what a control holds (its visible text, a ``<select>``'s options, a ``<textarea>``'s
value) and the label of each frame's document."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from browserx.snapshot.elements import is_disabled
from browserx.snapshot.model import Node
from browserx.snapshot.redaction import field_of, field_secret, value_of
from browserx.snapshot.snapshot import DomSnapshot
from browserx.views.outline import control_facts

MAX_ATTR = 100  # characters of an attribute value
MAX_OPTIONS = 12  # a <select>'s options listed (as the text view lists them)
MAX_DEPTH = 400  # nesting beyond this is not rendered (a comment says so)

VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track",
     "wbr"}
)  # fmt: skip
DROPPED_TAGS = frozenset({"script", "style", "noscript", "template", "head", "meta", "link", "title", "base"})
BUTTON_INPUTS = frozenset({"submit", "button", "reset"})
# Elements whose content is not their name: their name, when shown, is an aria-label.
NAMED_BY_LABEL = frozenset({"select", "textarea", "svg", "iframe", "canvas"})
# The page's own attributes the full mode keeps (the states among them are not said twice).
FULL_ATTRS = frozenset(
    {"id", "name", "type", "href", "src", "alt", "title", "placeholder", "role", "for", "tabindex",
     "contenteditable", "disabled", "readonly", "required", "multiple", "open", "action", "method", "list",
     "size", "scope", "autocomplete", "label", "data-testid"}
)  # fmt: skip
# Where a state is the element's own HTML attribute (else it is said with aria-*).
NATIVE_DISABLED = frozenset({"button", "input", "select", "textarea", "fieldset", "optgroup", "option"})
NATIVE_FIELDS = frozenset({"input", "select", "textarea"})  # required, readonly


def attr(name: str, value: str) -> str:
    value = " ".join(value.split())
    if len(value) > MAX_ATTR:
        value = value[: MAX_ATTR - 1] + "…"
    return f' {name}="{escape(value)}"'


def url_ok(value: str) -> bool:
    """Not a data: URL (base64 images and the like: long and meaningless here)."""
    return value.lstrip()[:5].lower() != "data:"


def opted_out(node: Node) -> bool:
    return "data-no-ai" in node.attrs


def name_unsaid(node: Node, alt_shown: bool = True) -> bool:
    """Whether the element's accessible name is not already in one of the attributes shown
    (``alt_shown``: the mode writes ``alt``; the skeleton does not)."""
    attrs = node.attrs
    name = node.name
    return "aria-label" not in attrs and name not in (
        attrs.get("placeholder"),
        attrs.get("alt") if alt_shown else None,
        attrs.get("value"),
    )


def _input_type(node: Node) -> str:
    kind = node.state.get("inputType")
    return str(kind) if kind is not None else node.attrs.get("type", "text").lower()


def value_attrs(node: Node, snap: DomSnapshot) -> str:
    """``value`` as the privacy rules allow it (see the docstring of views/html.py)."""
    tag = node.tag
    if tag == "input":
        kind = _input_type(node)
        if kind in BUTTON_INPUTS:
            label = node.attrs.get("value")
            return attr("value", label) if label else ""
        # Secrets by kind, as the other views show them (a password's value is never read).
        value = value_of(node.attrs, node.state, node.name or "") if snap.include_values else None
        return attr("value", value) if value is not None else ""
    elif tag in ("progress", "meter"):
        value = node.attrs.get("value")
        return attr("value", value) if value else ""
    return ""


def id_attr(value: str) -> str:
    """The page's own ``id``, for selectors (``#save``): whole or not at all, never cut."""
    if not value or len(value) > MAX_ATTR or any(c.isspace() for c in value):
        return ""
    return f' id="{escape(value)}"'


def _states(node: Node, snap: DomSnapshot) -> Mapping[str, object]:
    """The element's non-default states: for an element with an ID, those the text view shows
    (``control_facts``: native, ARIA and inherited ones alike); for others, the live states the
    snapshot recorded."""
    if node.visible and node.ref in snap.id_of:
        return control_facts(node, snap)
    state = node.state
    found: dict[str, object] = {}
    if state.get("disabled"):
        found["disabled"] = True
    checked = state.get("checked")
    if checked is True or checked == "mixed":
        found["checked"] = checked
    if state.get("selected") is True:
        found["selected"] = True
    return found


def _token(value: object) -> str:
    return "true" if value is True else "false" if value is False else str(value)


def state_attrs(node: Node, snap: DomSnapshot, written: bool) -> str:
    """The states as attributes: the element's native ones where HTML has them (``disabled``,
    ``checked``, ``selected``, ``required``, ``readonly``), ``aria-*`` otherwise (``aria-expanded``,
    ``aria-pressed``, ``aria-invalid``, ``aria-sort``, and ``aria-disabled``… on elements without
    the native one). ``written``: the page's own attributes of those names are already there (full
    mode), so one is not said twice."""
    facts = _states(node, snap)
    if not facts:
        return ""
    tag, attrs = node.tag, node.attrs
    pairs: list[tuple[str, str | None]] = []  # (name, value); None: a boolean attribute
    if facts.get("disabled") is True:
        native = tag in NATIVE_DISABLED and is_disabled(node)
        pairs.append(("disabled", None) if native else ("aria-disabled", "true"))
    checked = facts.get("checked")
    if checked is True and tag == "input":
        pairs.append(("checked", None))
    elif checked is True or checked == "mixed":
        pairs.append(("aria-checked", _token(checked)))
    if facts.get("selected") is True:
        pairs.append(("selected", None) if tag == "option" else ("aria-selected", "true"))
    for key in ("expanded", "pressed"):
        if key in facts:
            pairs.append(("aria-" + key, _token(facts[key])))
    for key in ("required", "readonly"):
        if facts.get(key) is True:
            native = tag in NATIVE_FIELDS and key in attrs
            pairs.append((key, None) if native else ("aria-" + key, "true"))
    for key in ("invalid", "sort"):
        if key in facts:
            pairs.append(("aria-" + key, _token(facts[key])))
    out = ""
    for name, value in pairs:
        if written and name in attrs and (name in FULL_ATTRS or name.startswith("aria-")):
            continue
        out += " " + name if value is None else attr(name, value)
    return out


def visible_text(node: Node, limit: int) -> str:
    """The visible text of a subtree, white space collapsed, at most ``limit`` characters."""
    parts: list[str] = []
    size = 0
    stack = [node]
    while stack and size <= limit:
        n = stack.pop()
        if n.tag == "#text":
            if n.visible and n.text and n.text != " ":
                parts.append(n.text)
                size += len(n.text) + 1
        elif not opted_out(n) and n.children:
            stack.extend(reversed(n.children))
    text = " ".join(" ".join(parts).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def select_options(node: Node, snap: DomSnapshot) -> str:
    """A <select>'s options from the snapshot's summary (its <option> elements are not walked)."""
    options = node.state.get("options")
    if not options:
        return ""
    multiple = "multiple" in node.attrs
    # Which option is chosen is the value: a secret list (a card's expiry) never says.
    marks = (snap.include_values or multiple) and field_secret(
        field_of(node.attrs, node.state, node.name or "")
    ) is None
    out = ""
    for label, selected in options[:MAX_OPTIONS]:
        mark = " selected" if selected and marks else ""
        out += f"<option{mark}>{escape(str(label), quote=False)}</option>"
    total = node.state.get("optionCount", len(options))
    if isinstance(total, int) and total > MAX_OPTIONS:
        out += f"<!-- {total - MAX_OPTIONS} more options -->"
    return out


def textarea_value(node: Node, snap: DomSnapshot) -> str:
    if node.tag == "textarea" and snap.include_values and "value" in node.state:
        value = value_of(node.attrs, node.state, node.name or "")
        return escape(value, quote=False) if value is not None else ""
    return ""


class FrameLabels:
    """The label of each frame's document: the snapshot's frame label for an out-of-process frame
    (``f1``), the enclosing one's plus a number for a frame of the same process (``m.1``)."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def label(self, doc: Node) -> str:
        own = doc.attrs.get("frame")
        if own:
            return own
        parent = doc.ref.frame
        n = self.counts.get(parent, 0) + 1
        self.counts[parent] = n
        return f"{parent}.{n}"


__all__ = [
    "DROPPED_TAGS",
    "FULL_ATTRS",
    "MAX_ATTR",
    "MAX_DEPTH",
    "NAMED_BY_LABEL",
    "VOID",
    "FrameLabels",
    "attr",
    "id_attr",
    "name_unsaid",
    "opted_out",
    "select_options",
    "state_attrs",
    "textarea_value",
    "url_ok",
    "value_attrs",
    "visible_text",
]
