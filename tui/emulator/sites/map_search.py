"""Map's `search` over up to ~160,000 links: the BM25 of `core.text_search`, tokenized by parts.

A catalogue's links are a few hundred fixed texts with an item number in
between, so each link is given as text parts whose concatenation is its
`url title description`; every distinct part is tokenized once per request
and only the query's terms are counted. The scores are those of
`BM25Index` over the whole texts (same tokens, same constants), at a small
fraction of the cost: ranking the biggest site took 9 s the plain way.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from tui.emulator.core.text_search import K1, B, tokenize

_NO_TERMS: dict[str, int] = {}


def rank(docs: Sequence[Sequence[str]], query: str) -> list[int]:
    """Indices of `docs` (each a sequence of text parts), best BM25 first; non-matching ones follow in order.

    Parts must split the text at non-word characters (a part boundary is never inside a word).
    """
    query_terms = list(dict.fromkeys(tokenize(query)))
    if not docs or not query_terms:
        return list(range(len(docs)))
    wanted = frozenset(query_terms)
    cache: dict[str, tuple[int, dict[str, int]]] = {}

    def stats(part: str) -> tuple[int, dict[str, int]]:
        found = cache.get(part)
        if found is None:
            if part.isdigit():  # item numbers: one token each, not worth keeping
                return 1, ({part: 1} if part in wanted else _NO_TERMS)
            tokens = tokenize(part)
            counts = Counter(token for token in tokens if token in wanted)
            found = cache[part] = (len(tokens), dict(counts) if counts else _NO_TERMS)
        return found

    lengths: list[int] = []
    matches: list[dict[str, int]] = []
    document_frequency: Counter[str] = Counter()
    for parts in docs:
        length = 0
        doc_terms: dict[str, int] | None = None
        for part in parts:
            part_length, part_terms = stats(part)
            length += part_length
            if not part_terms:
                continue
            if doc_terms is None:
                doc_terms = dict(part_terms)
            else:
                for term, tf in part_terms.items():
                    doc_terms[term] = doc_terms.get(term, 0) + tf
        doc_terms = doc_terms or _NO_TERMS
        lengths.append(length)
        matches.append(doc_terms)
        document_frequency.update(doc_terms.keys())
    n = len(docs)
    average = sum(lengths) / n
    idf = {term: math.log(1 + (n - df + 0.5) / (df + 0.5)) for term, df in document_frequency.items()}
    scored = []
    for index, doc_terms in enumerate(matches):
        if not doc_terms:
            continue
        norm = 1 - B + B * (lengths[index] / average if average else 0)
        # Summed in query order, as `BM25Index` does, so equal scores tie the same way.
        score = sum(
            idf[term] * doc_terms[term] * (K1 + 1) / (doc_terms[term] + K1 * norm)
            for term in query_terms
            if term in doc_terms
        )
        if score > 0:
            scored.append((-score, index))
    scored.sort()  # best first; equal scores keep the links' order
    ranked = [index for _, index in scored]
    seen = set(ranked)
    return ranked + [index for index in range(n) if index not in seen]
