"""Query-focused views' BM25 (views/query.py): the scores are rank-bm25's BM25Okapi's, exactly,
without numpy in the host; chunks rank best first and only matching ones count."""

from __future__ import annotations

import random

import pytest
from rank_bm25 import BM25Okapi

from browserx.views.query import QueryIndex, tokenize

WORDS = ["buy", "tea", "green", "black", "1735-8", "email", "submit", "cart", "sale", "the", "a", "of"]


def corpora() -> list[list[list[str]]]:
    rng = random.Random(7)
    out = [
        [["buy", "green", "tea"], ["black", "tea"], ["the", "cart"], ["submit", "email"]],
        [["the"] * 5, ["the", "a"], ["of"]],  # words in most chunks: the idf floor
    ]
    for _ in range(20):
        out.append([[rng.choice(WORDS) for _ in range(rng.randint(0, 30)) ] or ["∅"]
                    for _ in range(rng.randint(1, 60))])  # fmt: skip
    return out


@pytest.mark.parametrize("corpus", corpora())
def test_scores_equal_rank_bm25s_okapi_to_the_last_bit(corpus: list[list[str]]) -> None:
    for query in (["tea"], ["buy", "1735-8", "tea"], ["the"], ["missing"], ["tea", "tea"]):
        ours = QueryIndex(corpus, set(query)).get_scores(query)
        theirs = BM25Okapi(corpus).get_scores(query).tolist()
        assert ours == theirs, (query, corpus)


def test_tokenize_keeps_compounds_and_their_parts() -> None:
    assert sorted(tokenize("Buy 1735-8 e-mail")) == sorted(
        ["1735-8", "e-mail", "buy", "1735", "8", "e", "mail"]
    )
