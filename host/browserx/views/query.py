"""Query-focused views (seed 002 §2.6.2): the outline cut into chunks by container (forms, lists,
table sections, landmarks, dialogs, frames, heading sections), the chunks ranked against the query
with BM25 (rank-bm25), and the best ones kept — each with its heading path — in document order."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from browserx.views.units import Unit

CHUNK_ROLES = frozenset(
    {"form", "dialog", "alertdialog", "table", "grid", "list", "listbox", "menu", "tablist", "tree", "navigation",
     "main", "banner", "contentinfo", "complementary", "region", "search", "group", "tabpanel"}
)  # fmt: skip
MAX_CHUNK_CHARS = 1200  # long sections split into pieces (table sections, long lists)
WORD = re.compile(r"\w+(?:[-./:]\w+)*")
PART = re.compile(r"\w+")


def tokenize(text: str) -> list[str]:
    """Words, lowercased; compound words ("500-3", "e-mail") also as their parts. (In no
    particular order: BM25 counts them. Every part is a maximal run of word characters, so the
    parts are the text's runs, found in one pass.)"""
    text = text.lower()
    return [w for w in WORD.findall(text) if not w.isalnum()] + PART.findall(text)


@dataclass
class Chunk:
    units: list[Unit] = field(default_factory=list)
    headings: list[Unit] = field(default_factory=list)  # the heading path above it
    chars: int = 0
    text: str = ""  # what BM25 reads: the heading path, the container's name, the lines


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
        chunk.text = " ".join(context + [u.text for u in chunk.units])
    return chunks


@lru_cache(maxsize=1)
def _query_index_class() -> Any:
    """rank-bm25's BM25Okapi (its idf, its floor for common words, its scoring), indexed lean:
    per chunk it keeps the counts of the query's words only — ``get_scores`` reads no others —
    where the library keeps every word's, ~7 MB for a 50k-element page. Each chunk's words
    exist only while it is indexed. (Made on first use: rank-bm25 brings numpy, ~9 MB.)"""
    from rank_bm25 import BM25Okapi

    class QueryIndex(BM25Okapi):  # type: ignore[misc]
        def __init__(self, corpus: Iterable[list[str]], terms: set[str]) -> None:
            self.terms = terms
            super().__init__(corpus)

        def _initialize(self, corpus: Iterable[list[str]]) -> dict[str, int]:
            documents_with: dict[str, int] = {}  # word → how many chunks have it (the idf's n)
            words = 0
            for document in corpus:
                self.doc_len.append(len(document))
                words += len(document)
                distinct = dict.fromkeys(document)  # first-seen order, as the library's: the same sums
                for word in distinct:
                    documents_with[word] = documents_with.get(word, 0) + 1
                self.doc_freqs.append({t: document.count(t) for t in self.terms if t in distinct})
                self.corpus_size += 1
            self.avgdl = words / self.corpus_size
            return documents_with

    return QueryIndex


def _query_index(corpus: Iterable[list[str]], terms: set[str]) -> Any:
    return _query_index_class()(corpus, terms)


def rank(chunks: list[Chunk], query: str) -> list[tuple[float, Chunk]]:
    """Chunks by BM25 score against the query, best first (only those that match at all)."""
    terms = tokenize(query)
    if not terms or not chunks:
        return []
    scores = _query_index((tokenize(c.text) or ["∅"] for c in chunks), set(terms)).get_scores(terms)
    ranked = sorted(
        ((float(s), c) for s, c in zip(scores, chunks, strict=True) if s > 0), key=lambda sc: -sc[0]
    )
    return ranked
