"""Query-focused views (docs/DESIGN.md, "Views"): the outline cut into chunks by container (forms, lists,
table sections, landmarks, dialogs, frames, heading sections), the chunks ranked against the query
with BM25 (rank-bm25's BM25Okapi, without numpy: see QueryIndex), and the best ones kept — each with its heading path — in document order."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

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


class QueryIndex:
    """BM25 over the chunks: rank-bm25's BM25Okapi (Trotman et al.'s ATIRE variant: k1 = 1.5,
    b = 0.75, an idf floor of 0.25 × the mean idf for words in more than half the chunks), with
    the same arithmetic in the same order, so the same scores — written out here because the
    library computes with numpy, and importing numpy costs the host 16 MB, which put it over its
    150 MB budget on a 50k-element page. Indexed lean: per chunk only the counts of the query's
    words are kept (scoring reads no others); each chunk's words exist only while it is indexed."""

    K1 = 1.5
    B = 0.75
    EPSILON = 0.25

    def __init__(self, corpus: Iterable[list[str]], terms: set[str]) -> None:
        self.doc_len: list[int] = []
        self.doc_freqs: list[dict[str, int]] = []
        documents_with: dict[str, int] = {}  # word → how many chunks have it (the idf's n)
        words = 0
        for document in corpus:
            self.doc_len.append(len(document))
            words += len(document)
            distinct = dict.fromkeys(document)  # first-seen order, as the library's: the same sums
            for word in distinct:
                documents_with[word] = documents_with.get(word, 0) + 1
            self.doc_freqs.append({t: document.count(t) for t in terms if t in distinct})
        self.corpus_size = len(self.doc_len)
        self.avgdl = words / self.corpus_size
        self.idf: dict[str, float] = {}
        idf_sum = 0.0
        negative: list[str] = []
        for word, freq in documents_with.items():
            idf = math.log(self.corpus_size - freq + 0.5) - math.log(freq + 0.5)
            self.idf[word] = idf
            idf_sum += idf
            if idf < 0:
                negative.append(word)
        eps = self.EPSILON * (idf_sum / len(self.idf))
        for word in negative:
            self.idf[word] = eps

    def get_scores(self, query: list[str]) -> list[float]:
        k1, b, avgdl = self.K1, self.B, self.avgdl
        scores = [0.0] * self.corpus_size
        for q in query:
            idf = self.idf.get(q) or 0
            for i, (freqs, length) in enumerate(zip(self.doc_freqs, self.doc_len, strict=True)):
                f = freqs.get(q) or 0
                scores[i] += idf * (f * (k1 + 1) / (f + k1 * (1 - b + b * length / avgdl)))
        return scores


def _query_index(corpus: Iterable[list[str]], terms: set[str]) -> QueryIndex:
    return QueryIndex(corpus, terms)


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
