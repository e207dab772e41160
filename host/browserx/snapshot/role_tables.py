"""The tables role and name computation read: which role tokens ARIA and Chrome know, which
tags are never exposed, which input types map to which role, which ancestors scope a landmark,
which roles and tags a name comes from. Data only; the rules that use it are in roles.py
(roles), states.py (states) and accname.py (names).
"""

from __future__ import annotations


def word_set(text: str) -> frozenset[str]:
    """A frozenset from a whitespace-separated word list (keeps the role tables compact)."""
    return frozenset(text.split())


# ARIA 1.2 concrete roles (+ ARIA 1.3 additions, graphics and DPUB roles Chrome knows).
ARIA_ROLES: frozenset[str] = word_set(
    """
    alert alertdialog application article banner blockquote button caption cell checkbox code
    columnheader combobox comment complementary contentinfo definition deletion dialog document
    emphasis feed figure form generic grid gridcell group heading img insertion link list
    listbox listitem log main mark marquee math menu menubar menuitem menuitemcheckbox
    menuitemradio meter navigation none note option paragraph presentation progressbar radio
    radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider
    spinbutton status strong subscript suggestion superscript switch tab table tablist tabpanel
    term textbox time timer toolbar tooltip tree treegrid treeitem graphics-document
    graphics-object graphics-symbol doc-abstract doc-acknowledgments doc-afterword doc-appendix
    doc-backlink doc-biblioentry doc-bibliography doc-biblioref doc-chapter doc-colophon
    doc-conclusion doc-cover doc-credit doc-credits doc-dedication doc-endnote doc-endnotes
    doc-epigraph doc-epilogue doc-errata doc-example doc-footnote doc-foreword doc-glossary
    doc-glossref doc-index doc-introduction doc-noteref doc-notice doc-pagebreak doc-pagefooter
    doc-pageheader doc-pagelist doc-part doc-preface doc-prologue doc-pullquote doc-qna
    doc-subtitle doc-tip doc-toc
    """
)

# Role tokens Chrome accepts under another name.
ROLE_SYNONYMS: dict[str, str] = {"image": "img", "directory": "list"}

PRESENTATIONAL_ROLES: frozenset[str] = frozenset({"presentation", "none"})

# Global ARIA attributes: their presence overrides role=presentation/none (ARIA conflict rules).
GLOBAL_ARIA_ATTRS: frozenset[str] = word_set(
    """
    aria-atomic aria-braillelabel aria-brailleroledescription aria-busy aria-controls
    aria-current aria-describedby aria-description aria-details aria-dropeffect aria-flowto
    aria-grabbed aria-keyshortcuts aria-label aria-labelledby aria-live aria-owns aria-relevant
    aria-roledescription
    """
)

# Roles an agent acts on directly.
INTERACTIVE_ROLES: frozenset[str] = word_set(
    """
    button link textbox searchbox combobox listbox option checkbox radio switch slider
    spinbutton scrollbar menuitem menuitemcheckbox menuitemradio tab treeitem DisclosureTriangle
    ColorWell Date DateTime InputTime
    """
)

# The input types HTML knows, each with its role (None: not exposed). Other types are "text".
INPUT_ROLE_BY_TYPE: dict[str, str | None] = {
    "text": "textbox",
    "email": "textbox",
    "tel": "textbox",
    "url": "textbox",
    "password": "textbox",
    "search": "searchbox",
    "number": "spinbutton",
    "range": "slider",
    "checkbox": "checkbox",
    "radio": "radio",
    "button": "button",
    "submit": "button",
    "reset": "button",
    "image": "button",
    "file": "button",
    "color": "ColorWell",
    "date": "Date",
    "datetime-local": "DateTime",
    "month": "DateTime",
    "week": "DateTime",
    "time": "InputTime",
    "hidden": None,
}

# Input types whose `list` attribute turns them into a combobox (a text field with suggestions).
COMBOBOX_INPUT_TYPES: frozenset[str] = frozenset({"text", "search", "email", "tel", "url"})

# Tags that are never rendered / exposed.
UNEXPOSED_TAGS: frozenset[str] = frozenset(
    {"head", "script", "style", "template", "meta", "link", "base", "title", "noscript", "param"}
)

HEADING_TAGS: dict[str, int] = {f"h{level}": level for level in range(1, 7)}

# Plain HTML containers, the bulk of every page: never SVG internals, so no ancestor walk for them.
GENERIC_HTML_TAGS: frozenset[str] = word_set(
    """
    div span b i u s em strong small mark abbr cite q sub sup code kbd samp var pre bdi bdo font
    center label legend caption figcaption dd dt dl address time data ruby rt rp wbr br
    """
)

# header/footer are banner/contentinfo only outside these (HTML-AAM; Chrome's ancestor check).
SECTIONING_TAGS: frozenset[str] = frozenset({"article", "aside", "main", "nav", "section"})
SECTIONING_ROLES: frozenset[str] = frozenset({"article", "complementary", "main", "navigation"})
# ...and aside is complementary only outside these unless it has an author name.
ASIDE_SCOPING_TAGS: frozenset[str] = frozenset({"article", "aside", "nav", "section"})
ASIDE_SCOPING_ROLES: frozenset[str] = frozenset({"article", "complementary", "navigation"})

TABLE_PART_TAGS: frozenset[str] = frozenset({"tr", "td", "th", "thead", "tbody", "tfoot", "caption"})
# The table parts whose role does not depend on the cell's neighbours (td and th do).
TABLE_PART_ROLES: dict[str, str] = {
    "tr": "row",
    "thead": "rowgroup",
    "tbody": "rowgroup",
    "tfoot": "rowgroup",
    "caption": "caption",
}
LIST_TAGS: frozenset[str] = frozenset({"ul", "ol", "menu"})


# ---------------------------------------------------------------------------- names (accname.py)

# Roles named from their content when they are the node being named (Chrome's
# SupportsNameFromContents, non-recursive case). "row" only inside a grid (accname.py's _content_named).
NAME_FROM_CONTENT_ROLES: frozenset[str] = word_set(
    """
    button cell checkbox columnheader DisclosureTriangle gridcell heading LineBreak link math
    menuitem menuitemcheckbox menuitemradio option radio rowheader StaticText switch tab tooltip
    treeitem doc-backlink doc-biblioref doc-glossref doc-noteref
    """
)

# Roles whose content contributes to an ancestor's name but that are not named from it
# themselves. None (presentational) counts as such a role.
CONTRIBUTES_CONTENT_ROLES: frozenset[str] = word_set(
    """
    generic Abbr Canvas caption code definition deletion DescriptionList emphasis Figcaption
    insertion LabelText legend list listitem mark paragraph region strong subscript superscript
    time
    """
)

# Roles that cannot be named: their title attribute is no name when they are inside another's.
UNNAMEABLE_ROLES: frozenset[str | None] = frozenset({None, "generic", "none", "presentation"})

# Controls that contribute their value, not their name, when embedded in another's label.
TEXTBOX_ROLES: frozenset[str] = frozenset({"textbox", "searchbox"})
RANGE_ROLES: frozenset[str] = frozenset({"slider", "spinbutton", "progressbar", "scrollbar", "meter"})
EMBEDDED_CONTROL_ROLES: frozenset[str] = TEXTBOX_ROLES | RANGE_ROLES | {"combobox", "listbox"}
# Controls set apart from neighbouring text by a space in names from content.
SPACED_CONTROL_ROLES: frozenset[str] = INTERACTIVE_ROLES - {"link", "option"}

# Input types that are text fields (placeholder applies).
TEXT_FIELD_INPUT_TYPES: frozenset[str] = frozenset(
    {"text", "search", "email", "tel", "url", "password", "number"}
)
DEFAULT_BUTTON_LABELS: dict[str, str] = {"submit": "Submit", "reset": "Reset"}
# Elements named by their first child of a given tag (HTML-AAM).
NAME_CHILD_BY_TAG: dict[str, str] = {
    "fieldset": "legend",
    "figure": "figcaption",
    "table": "caption",
    "svg": "title",
}
