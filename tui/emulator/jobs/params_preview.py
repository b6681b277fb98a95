"""Crawl parameters from a plain-English prompt, by keyword rules (there is no LLM here).

`POST /v2/crawl/params-preview` (and `POST /v2/crawl` with a `prompt`) read the
prompt with the rules below, each a regular expression over the lower-cased
prompt. What no rule understands is left at the service's defaults; the
result is deterministic and explainable, never invented.

Examples of what is understood:
- "only blog posts", "just the docs", "only /pricing" -> includePaths
- "exclude the careers pages", "skip docs", "not legal" -> excludePaths
- "depth 2", "3 levels deep" -> maxDepth; "2 clicks from the home page" -> maxDiscoveryDepth
- "up to 50 pages", "at most twenty pages", "limit 100" -> limit
- "include subdomains", "external links", "the entire domain"
- "ignore robots.txt", "skip the sitemap", "sitemap only", "ignore query parameters"
- "wait 2 seconds between requests" -> delay; "as Googlebot" -> robotsUserAgent
- "keep duplicates" -> deduplicateSimilarURLs false
"""

from __future__ import annotations

import re
from typing import Any

from tui.contract.limits import CRAWL_DELAY_MAX, JSON_INT_MAX
from tui.emulator.core.safe_regex import linear

_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "hundred": 100,
    "a hundred": 100,
    "one hundred": 100,
    "thousand": 1000,
    "a thousand": 1000,
}
_NUM = r"(\d[\d,]*|" + "|".join(sorted(map(re.escape, _NUMBER_WORDS), key=len, reverse=True)) + r")"

# Words people use for a section, and the path it lives under on most sites.
_SECTIONS = {
    "blog": "blog",
    "blogs": "blog",
    "blog posts": "blog",
    "posts": "blog",
    "articles": "blog",
    "news": "news",
    "docs": "docs",
    "documentation": "docs",
    "doc": "docs",
    "guides": "guides",
    "api reference": "api",
    "products": "products",
    "product": "products",
    "product pages": "products",
    "shop": "products",
    "careers": "careers",
    "jobs": "careers",
    "legal": "legal",
    "pricing": "pricing",
    "reports": "reports",
    "changelog": "changelog",
    "tags": "tags",
    "admin": "admin",
}
_SECTION = r"(?:the\s+)?(" + "|".join(sorted(map(re.escape, _SECTIONS), key=len, reverse=True)) + r"|/[\w\-/]+)"

DEFAULTS: dict[str, Any] = {
    "includePaths": [],
    "excludePaths": [],
    "maxDepth": 10,
    "maxDiscoveryDepth": 10,
    "crawlEntireDomain": False,
    "allowExternalLinks": False,
    "allowSubdomains": False,
    "sitemap": "include",
    "ignoreQueryParameters": False,
    "ignoreRobotsTxt": False,
    "deduplicateSimilarURLs": True,
    # The contract lists these in every preview, so they are always present.
    "limit": 10000,
    "delay": 0,
    "robotsUserAgent": "WdsBot",
}


def _number(text: str) -> int:
    """A count read from the prompt, at most what a request may carry ("depth 10**5000" is not a 500)."""
    text = text.strip().replace(",", "")
    if not text[0].isdigit():
        return _NUMBER_WORDS[text]
    digits = text.lstrip("0") or "0"
    # Checked by length first: int() refuses more than 4300 digits, and JSON_INT_MAX has 16.
    return JSON_INT_MAX if len(digits) > 16 else min(int(digits), JSON_INT_MAX)


def _path_pattern(section: str) -> str:
    if section.startswith("/"):
        return "^" + re.escape(section.rstrip("/")) + "(/.*)?$"
    return f"^/{_SECTIONS[section]}(/.*)?$"


_MORE_SECTION = r"\s*(?:,|and|or|&)\s*" + _SECTION


# The rules run on RE2 (linear time: `re` took 13 s over a prompt of 10,000
# digits, see safe_regex), but were written for `re`, whose \w, \d, \s and \b
# know Unicode; RE2's know ASCII only. So RE2 reads a same-length ASCII shadow
# of the text (a non-ASCII digit as "0", letter as "_", space as " ", anything
# else, a lone surrogate too, as DEL), and what a match captured is taken from
# the text itself.
def _shadow(text: str) -> str:
    if text.isascii():
        return text
    return "".join(
        c if c.isascii() else "0" if c.isdecimal() else "_" if c.isalnum() else " " if c.isspace() else "\x7f"
        for c in text
    )


class _Found:
    """A match found in the shadow, read from the text."""

    def __init__(self, match: Any, text: str) -> None:
        self._match, self._text = match, text

    def group(self, index: int = 0) -> str:
        return self._text[self._match.start(index) : self._match.end(index)]

    def start(self, index: int = 0) -> int:
        return int(self._match.start(index))

    def end(self, index: int = 0) -> int:
        return int(self._match.end(index))


def _search(pattern: str, text: str) -> _Found | None:
    match = linear(pattern).search(_shadow(text))
    return None if match is None else _Found(match, text)


def _finditer(pattern: str, text: str) -> list[_Found]:
    return [_Found(match, text) for match in linear(pattern).finditer(_shadow(text))]


def _remove(pattern: str, text: str) -> str:
    """`text` with each match of `pattern` replaced by a space."""
    kept, position = [], 0
    for found in _finditer(pattern, text):
        kept.append(text[position : found.start()])
        position = found.end()
    return " ".join([*kept, text[position:]])


def _sections(pattern: str, prompt: str) -> list[str]:
    found = []
    # "only blog and docs": the sections listed after "and"/"or" belong to the same list. The
    # whole list is matched at once (group 2), so each part of the prompt is read once.
    for match in _finditer(pattern + "((?:" + _MORE_SECTION + ")*)", prompt):
        found.append(_path_pattern(match.group(1)))
        for more in _finditer(_MORE_SECTION, match.group(2)):
            found.append(_path_pattern(more.group(1)))
    return list(dict.fromkeys(found))


def read_prompt(url: str, prompt: str) -> dict[str, Any]:
    """Crawl parameters for `url` as the rules read `prompt` (all fields present, defaults filled)."""
    text = " ".join(prompt.lower().split())
    params: dict[str, Any] = {"url": url, **{k: (list(v) if isinstance(v, list) else v) for k, v in DEFAULTS.items()}}

    # Switches first, and removed from the text, so "ignore robots" is not read as "exclude robots".
    switches = (
        (r"\b(?:ignore|ignoring|disregard|bypass)\w*\s+(?:the\s+)?robots(?:\.txt)?", "ignoreRobotsTxt", True),
        (r"\b(?:respect|obey|follow)\w*\s+(?:the\s+)?robots(?:\.txt)?", "ignoreRobotsTxt", False),
        (
            r"\b(?:ignore|strip|drop|without)\s+(?:the\s+)?query\s*(?:parameters|params|strings?)",
            "ignoreQueryParameters",
            True,
        ),
        (r"\b(?:skip|ignore|without|no)\s+(?:the\s+)?sitemap", "sitemap", "skip"),
        (r"\b(?:sitemap\s+only|only\s+(?:the\s+|use\s+the\s+)?sitemap)", "sitemap", "only"),
        (r"\b(?:no|without|exclude|skip)\s+(?:the\s+)?subdomains?", "allowSubdomains", False),
        (r"\bsubdomains?\b", "allowSubdomains", True),
        (r"\b(?:external|other\s+(?:sites|domains))\b", "allowExternalLinks", True),
        (r"\b(?:entire|whole|full)\s+(?:site|domain|website)\b|\beverything\b", "crawlEntireDomain", True),
        (r"\b(?:keep|allow)\s+duplicates?\b|\bno\s+dedup\w*", "deduplicateSimilarURLs", False),
    )
    for pattern, key, value in switches:
        if _search(pattern, text):
            params[key] = value
            text = _remove(pattern, text)

    if (m := _search(r"\b(?:discovery\s+depth|link\s+depth)\s*(?:of\s+)?" + _NUM, text)) or (
        m := _search(_NUM + r"\s+(?:clicks?|hops?|links?)\s+(?:away\s+)?from", text)
    ):
        params["maxDiscoveryDepth"] = _number(m.group(1))
        text = text[: m.start()] + " " + text[m.end() :]
    if (m := _search(r"\b(?:max(?:imum)?\s+)?depth\s*(?:of\s+|=\s*|:\s*)?" + _NUM, text)) or (
        m := _search(_NUM + r"\s+levels?(?:\s+deep)?", text)
    ):
        params["maxDepth"] = _number(m.group(1))
        text = text[: m.start()] + " " + text[m.end() :]
    at_most = r"\b(?:up\s+to|at\s+most|max(?:imum)?(?:\s+of)?|no\s+more\s+than|limit(?:\s+(?:of|to))?|first)\s+"
    if (m := _search(at_most + _NUM + r"(?:\s+(?:pages?|urls?|results?))?", text)) or (
        m := _search(_NUM + r"\s+(?:pages?|urls?)\b", text)
    ):
        params["limit"] = _number(m.group(1))
    if m := _search(r"\b(?:delay|wait|pause)\w*\s+(?:of\s+)?(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|sec\w*)\b", text):
        amount = float(m.group(1))  # "1" and 400 zeros reads as inf: capped below
        seconds = amount / 1000 if m.group(2).startswith("m") else amount
        params["delay"] = min(seconds, CRAWL_DELAY_MAX)
    if m := _search(r"\b(?:as|user[\s-]?agent)\s+([a-z][\w\-./]*bot[\w\-./]*)", prompt.lower()):
        params["robotsUserAgent"] = prompt[m.start(1) : m.end(1)]

    excluded = _sections(
        r"\b(?:exclude|excluding|skip|skipping|ignore|ignoring|avoid|without|except|not)\s+" + _SECTION, text
    )
    for pattern in excluded:
        params["excludePaths"].append(pattern)
    included = _sections(r"\b(?:only|just|solely|limited\s+to|restrict(?:ed)?\s+to)\s+" + _SECTION, text)
    params["includePaths"] = [p for p in included if p not in excluded]
    return params
