"""Query-focused views (seed 002 §2.6.2): the outline cut into chunks by container (forms, lists,
table sections, landmarks, dialogs, frames, heading sections), the chunks ranked against the query
with BM25 (rank-bm25), and the best ones kept — each with its heading path — in document order."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from browserx.views.units import Unit

CHUNK_ROLES = frozenset(
    {"form", "dialog", "alertdialog", "table", "grid", "list", "listbox", "menu", "tablist", "tree", "navigation",
     "main", "banner", "contentinfo", "complementary", "region", "search", "group", "tabpanel"}
)  # fmt: skip
MAX_CHUNK_CHARS = 1200  # long sections split into pieces (table sections, long lists)
WORD = re.compile(r"\w+(?:[-./:]\w+)*")


def tokenize(text: str) -> list[str]:
    """Words, lowercased; compound words ("500-3", "e-mail") also as their parts."""
    out: list[str] = []
    for match in WORD.finditer(text.lower()):
        word = match.group(0)
        out.append(word)
        if not word.isalnum():
            out.extend(re.findall(r"\w+", word))
    return out


@dataclass
class Chunk:
    units: list[Unit] = field(default_factory=list)
    headings: list[Unit] = field(default_factory=list)  # the heading path above it
    chars: int = 0
    words: list[str] = field(default_factory=list)


def _container(unit: Unit) -> int | None:
    for parent in reversed(unit.parents):
        node = parent.node
        if parent.kind in ("group", "frame") or (node is not None and node.role in CHUNK_ROLES):
            return id(parent)
    return None


def _level(unit: Unit) -> int:
    node = unit.item.node
    if node is None:
        return 2
    level = node.attrs.get("aria-level") or (node.tag[1:] if node.tag[1:].isdigit() else "2")
    return int(level) if str(level).isdigit() else 2


def chunks_of(units: list[Unit]) -> list[Chunk]:
    chunks: list[Chunk] = []
    path: list[Unit] = []  # current heading path, outermost first
    current: Chunk | None = None
    key: tuple[int | None, int] | None = None
    for unit in units:
        if unit.item.kind == "heading":
            level = _level(unit)
            path = [h for h in path if _level(h) < level] + [unit]
        unit_key = (_container(unit), id(path[-1]) if path else 0)
        if current is None or unit_key != key or current.chars > MAX_CHUNK_CHARS:
            current = Chunk(headings=[h for h in path if h is not unit])
            chunks.append(current)
            key = unit_key
        current.units.append(unit)
        current.chars += unit.chars
    for chunk in chunks:
        context = [h.item.text for h in chunk.headings]
        for unit in chunk.units[:1]:
            context += [p.node.name for p in unit.parents if p.node is not None and p.node.name]
        chunk.words = tokenize(" ".join(context + [u.text for u in chunk.units]))
    return chunks


def rank(chunks: list[Chunk], query: str) -> list[tuple[float, Chunk]]:
    """Chunks by BM25 score against the query, best first (only those that match at all)."""
    from rank_bm25 import BM25Okapi

    terms = tokenize(query)
    if not terms or not chunks:
        return []
    bm25 = BM25Okapi([c.words or ["∅"] for c in chunks])
    scores = bm25.get_scores(terms)
    ranked = sorted(
        ((float(s), c) for s, c in zip(scores, chunks, strict=True) if s > 0), key=lambda sc: -sc[0]
    )
    return ranked
