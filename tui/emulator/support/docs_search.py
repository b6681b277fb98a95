"""Docs search over the bundled documentation (`tui/emulator/docs/*.md`), by BM25.

Each page is cut into passages at its `## ` headings; a question is ranked
against every passage and the answer quotes the best ones word for word, with
their page and heading as evidence. Nothing is generated: no model is
involved, so the answer is only ever what the documentation says.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from tui.emulator.core.text_search import BM25Index, Hit, tokenize

DOCS_PACKAGE = "tui.emulator"
DOCS_DIR = "docs"
MAX_PASSAGES = 3
QUOTE_CHARS = 900
# Passages scoring below this share of the best one add noise, not evidence.
RELATIVE_CUTOFF = 0.35


@dataclass(frozen=True)
class Passage:
    """A section of one documentation page."""

    path: str  # "docs/caching.md"
    page_title: str
    heading: str
    anchor: str
    text: str

    @property
    def location(self) -> str:
        return f"{self.path}#{self.anchor}" if self.anchor else self.path


def anchor_of(heading: str) -> str:
    """The GitHub-style anchor of a heading ("lockdown: never contact" -> "lockdown-never-contact")."""
    slug = re.sub(r"[^\w\- ]", "", heading.lower()).strip()
    return re.sub(r"\s+", "-", slug)


def split_page(path: str, markdown: str) -> list[Passage]:
    """Passages of one page: the introduction, then one per `## ` section."""
    lines = markdown.splitlines()
    title = next((line[2:].strip() for line in lines if line.startswith("# ")), path)
    passages: list[Passage] = []
    heading, anchor = title, ""
    body: list[str] = []

    def flush() -> None:
        text = "\n".join(body).strip()
        if text:
            passages.append(Passage(path, title, heading, anchor, text))

    for line in lines:
        if line.startswith("# ") and not passages and not body:
            continue
        if line.startswith("## "):
            flush()
            heading = line[3:].strip()
            anchor, body = anchor_of(heading), []
        else:
            body.append(line)
    flush()
    return passages


@cache
def corpus() -> tuple[Passage, ...]:
    """Every passage of the bundled documentation, in file-name order."""
    folder = resources.files(DOCS_PACKAGE).joinpath(DOCS_DIR)
    passages: list[Passage] = []
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.name.endswith(".md"):
            passages.extend(split_page(f"{DOCS_DIR}/{entry.name}", entry.read_text(encoding="utf-8")))
    return tuple(passages)


@cache
def _index() -> BM25Index:
    return BM25Index([f"{p.page_title}\n{p.heading}\n{p.heading}\n{p.text}" for p in corpus()])


def estimate_tokens(text: str) -> int:
    """A model-free token estimate (about four characters per token)."""
    return math.ceil(len(text) / 4) if text else 0


@dataclass(frozen=True)
class SearchAnswer:
    """What docs-search returns before the envelope is added."""

    answer: str
    evidence: list[dict[str, str]]
    input_tokens: int
    output_tokens: int
    passages: list[Passage]


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """`text` as a markdown quote, cut at a line end near `limit` characters."""
    if len(text) > limit:
        cut = text.rfind("\n", 0, limit)
        text = text[: cut if cut > limit // 2 else limit].rstrip() + "\n…"
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines())


def best_passages(question: str, limit: int = MAX_PASSAGES) -> list[tuple[Passage, Hit]]:
    """The passages that answer `question` best, with their scores."""
    hits = _index().search(question, limit)
    if not hits:
        return []
    floor = hits[0].score * RELATIVE_CUTOFF
    return [(corpus()[hit.index], hit) for hit in hits if hit.score >= floor]


@lru_cache(maxsize=4096)
def _terms_of_word(word: str) -> frozenset[str]:
    # Cached: every hit of an 8000-character question re-tokenized each of its words (100 ms on the loop).
    return frozenset(tokenize(word))


def _words_for(question: str, hit: Hit) -> list[str]:
    """The question's own words behind the stems a passage matched (for a readable reason)."""
    matched = set(hit.matched)
    words: dict[str, str] = {}  # lower-cased -> as written, first spelling wins
    for word in re.findall(r"[A-Za-z0-9]+", question):
        if word.lower() not in words and _terms_of_word(word) & matched:
            words[word.lower()] = word
    return list(words.values()) or list(hit.matched)


def search_docs(question: str) -> SearchAnswer:
    """Answer `question` by quoting the best-matching documentation passages."""
    found = best_passages(question)
    if not found:
        answer = (
            "No page of the documentation matches this question. Try the words the API uses, "
            "such as an endpoint (`/v2/crawl`), an option (`maxAge`) or an error code."
        )
        return SearchAnswer(answer, [], estimate_tokens(question), estimate_tokens(answer), [])
    parts = []
    evidence = []
    for passage, hit in found:
        parts.append(f"From {passage.page_title} › {passage.heading} ({passage.location}):\n\n{quote(passage.text)}")
        evidence.append(
            {
                "pathOrUrl": passage.location,
                "reason": f"BM25 score {hit.score:.2f}; matches: {', '.join(_words_for(question, hit))}",
            }
        )
    answer = "\n\n".join(parts)
    read = question + "".join(passage.text for passage, _ in found)
    return SearchAnswer(answer, evidence, estimate_tokens(read), estimate_tokens(answer), [p for p, _ in found])
