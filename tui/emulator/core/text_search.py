"""BM25 ranking, small and exact, for docs-search and map's `search`.

Okapi BM25 with the usual constants (k1 = 1.5, b = 0.75) and the
non-negative idf variant `ln(1 + (N - n + 0.5) / (n + 0.5))`, so a term found
in every document still counts a little instead of pushing scores below zero.
Tokens are lower-cased words; camelCase names (`maxAge`) also yield their parts
(`max`, `age`), a light suffix strip folds plurals and -ing/-ed forms, and
common English words are ignored.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

K1 = 1.5
B = 0.75

_STOPWORDS = frozenset(
    "a about an and are as at be but by can do does for from how i if in into is it its me my no not of on or "
    "our so that the their then there these this to too was what when where which who why will with you your "
    "we us get got have has had should would could were was been being any all".split()
)
_WORD = re.compile(r"[A-Za-z0-9]+")
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def stem(word: str) -> str:
    """A deliberately light suffix strip: "crawls", "crawling", "crawled" -> "crawl".

    A final "e" goes too, so "time"/"timed" and "cache"/"cached" meet.
    """
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)] + keep
            break
    if word.endswith("e") and len(word) >= 4:
        word = word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Search terms of `text`, in order, duplicates kept (BM25 counts them)."""
    terms: list[str] = []
    for raw in _WORD.findall(text):
        lower = raw.lower()
        if lower not in _STOPWORDS:
            terms.append(stem(lower))
        parts = _CAMEL.findall(raw)
        if len(parts) > 1:
            terms.extend(stem(p.lower()) for p in parts if p.lower() not in _STOPWORDS)
    return terms


@dataclass(frozen=True)
class Hit:
    """One ranked document: its index in the corpus, its score and the query terms it contains."""

    index: int
    score: float
    matched: tuple[str, ...]


class BM25Index:
    """An index over a fixed list of texts."""

    def __init__(self, texts: Sequence[str]) -> None:
        self._docs = [Counter(tokenize(text)) for text in texts]
        self._lengths = [sum(doc.values()) for doc in self._docs]
        self._avg_length = (sum(self._lengths) / len(self._lengths)) if self._lengths else 0.0
        document_frequency: Counter[str] = Counter()
        for doc in self._docs:
            document_frequency.update(doc.keys())
        n = len(self._docs)
        self._idf = {term: math.log(1 + (n - df + 0.5) / (df + 0.5)) for term, df in document_frequency.items()}

    def __len__(self) -> int:
        return len(self._docs)

    def score(self, query: str, index: int) -> tuple[float, tuple[str, ...]]:
        """BM25 of document `index` for `query`, and which query terms it contains."""
        return self._score(self._query_terms(query), index)

    def search(self, query: str, limit: int | None = None) -> list[Hit]:
        """Documents with a positive score, best first (ties keep corpus order)."""
        # Tokenized once, and only terms some document has: a long query used to be
        # tokenized again for every document (a 20 KB map search held the loop 1.3 s).
        terms = self._query_terms(query)
        hits = []
        for index in range(len(self._docs)) if terms else ():
            score, matched = self._score(terms, index)
            if score > 0:
                hits.append(Hit(index, score, matched))
        hits.sort(key=lambda hit: (-hit.score, hit.index))
        return hits[:limit] if limit is not None else hits

    def _query_terms(self, query: str) -> list[str]:
        """The distinct terms of `query` that occur in the corpus, in query order."""
        return [term for term in dict.fromkeys(tokenize(query)) if term in self._idf]

    def _score(self, terms: list[str], index: int) -> tuple[float, tuple[str, ...]]:
        doc = self._docs[index]
        length_norm = 1 - B + B * (self._lengths[index] / self._avg_length if self._avg_length else 0)
        total = 0.0
        matched: list[str] = []
        for term in terms:
            tf = doc.get(term, 0)
            if not tf:
                continue
            matched.append(term)
            total += self._idf[term] * tf * (K1 + 1) / (tf + K1 * length_norm)
        return total, tuple(matched)
