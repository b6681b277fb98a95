"""The results of a docs search, as a person reads them: title, snippet, link.

The endpoint answers with one text (`answer`) and the passages it rests on
(`evidence`: a `pathOrUrl` and a `reason`), not with a list of hits. A result
is one piece of evidence, dressed from what the answer says about it:

* its *section*: the paragraphs of the answer that cite its `pathOrUrl`, up to
  the next paragraph citing another source (the emulator writes "From Page ›
  Heading (docs/page.md#heading):" and then quotes the passage);
* its *title*: the text of a Markdown link to it, or the citing line of its
  section ("Page › Heading"), or else its path made readable;
* its *snippet*: the section as plain text, or else the evidence's reason.

Nothing here knows the emulator: a service whose answer is prose with Markdown
links gets titles from those links and snippets from the reasons.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from tui.contract.models.support import DocsSearchAnswer, Evidence

SNIPPET_CHARS = 150
"""About two lines of an 80-column screen."""
TITLE_LINE_CHARS = 200
"""A citing line longer than this is prose, not a heading."""

_MARKDOWN_MARKS = re.compile(
    r"`|\*\*|__"  # code and strong
    r"|^\s*>\s?|^\s*#+\s+|^\s*(?:[-*+]|\d+\.)\s+"  # quote, heading and list marks at a line start
    r"|^\s*\|?(?:\s*:?-+:?\s*\|)+\s*:?-*:?\s*$",  # a table's separator row
    re.MULTILINE,
)
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")
_MARKDOWN_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


@dataclass(frozen=True)
class DocsResult:
    """One entry of the result list; `location` None is the whole answer."""

    title: str
    snippet: str
    location: str | None = None  # the evidence's pathOrUrl, as the service sent it
    reason: str = ""
    section: str = ""  # the answer's Markdown about this source ("" when it says nothing specific)

    @property
    def web_address(self) -> str | None:
        """The location when a browser can open it (an absolute http(s) URL), else None."""
        return web_address(self.location)


def web_address(location: str | None) -> str | None:
    """`location` when it is an absolute http(s) URL, else None.

    A relative path ("docs/caching.md#maxage") is not joined to the service's
    base URL: the contract serves no documentation pages there (neither does
    the emulator, whose docs are files bundled with it), so such a link would
    lead nowhere. It is shown as text instead.
    """
    if location is None:
        return None
    parts = urlsplit(location)
    return location if parts.scheme in ("http", "https") and parts.netloc else None


def plain(markdown: str) -> str:
    """Markdown flattened to one line of plain text (no backticks, quote marks or link syntax)."""
    text = _MARKDOWN_LINK.sub(r"\1", markdown)
    text = _MARKDOWN_MARKS.sub("", text)
    text = _EMPHASIS.sub(r"\1", text)
    lines = [_table_row(line) if line.lstrip().startswith("|") else line for line in text.splitlines()]
    return " ".join(" ".join(lines).split())


def _table_row(line: str) -> str:
    """A Markdown table row as its cells joined by " · "."""
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    return " · ".join(cell for cell in cells if cell)


def clip_words(text: str, limit: int = SNIPPET_CHARS) -> str:
    """`text` cut at a word boundary near `limit` characters, the cut marked with "…"."""
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > limit // 2 else limit].rstrip(" ,;:") + "…"


def _cites(paragraph: str, location: str) -> bool:
    # Whole locations only: "docs/caching.md" must not match inside "docs/caching.md#maxage".
    pattern = r"(?<![\w/#.-])" + re.escape(location) + r"(?![\w#/-]|\.\w)"
    return re.search(pattern, paragraph) is not None


def _paragraphs(answer: str) -> list[str]:
    return [part.strip() for part in re.split(r"\n\s*\n", answer) if part.strip()]


def section_of(answer: str, location: str, others: list[str]) -> str:
    """The paragraphs of `answer` about `location`: from the first citing it to the next citing another source."""
    paragraphs = _paragraphs(answer)
    start = next((index for index, part in enumerate(paragraphs) if _cites(part, location)), None)
    if start is None:
        return ""
    end = start + 1
    while end < len(paragraphs) and not any(_cites(paragraphs[end], other) for other in others):
        end += 1
    return "\n\n".join(paragraphs[start:end])


def _heading_line(section: str, location: str) -> str | None:
    """The citing line when it reads as a heading ("From Page › Heading (location):"), without the location."""
    first = section.split("\n", 1)[0].strip()
    if len(first) > TITLE_LINE_CHARS or "\n" not in section:
        return None
    suffix = re.compile(r"\s*\(\s*" + re.escape(location) + r"\s*\)\s*:?\s*$")
    if not suffix.search(first):
        return None
    title = suffix.sub("", first).removeprefix("From ").strip()
    # The introduction of a page is cited as "Page › Page".
    head, _, tail = title.partition(" › ")
    return head if tail == head else title or None


def title_from_path(location: str) -> str:
    """A readable title from a path or URL: "docs/caching.md#maxage" -> "caching › maxage"."""
    parts = urlsplit(location)
    path = unquote(parts.path).rstrip("/")
    page = path.rsplit("/", 1)[-1] or parts.netloc or location
    page = re.sub(r"\.(md|mdx|html?)$", "", page)
    words = page.replace("-", " ").replace("_", " ").strip() or location
    anchor = unquote(parts.fragment).replace("-", " ").strip()
    return f"{words} › {anchor}" if anchor else words


def _linked_title(answer: str, location: str) -> str | None:
    for text, target in _MARKDOWN_LINK.findall(answer):
        if target == location:
            return plain(text)
    return None


def _without_citations(answer: str, locations: list[str]) -> str:
    """`answer` without its "(location)" citations: the list shows those under each source."""
    for location in sorted(set(locations), key=len, reverse=True):
        answer = re.sub(r"\s*\(\s*" + re.escape(location) + r"\s*\)", "", answer)
    return answer


def result_for(evidence: Evidence, answer: str, others: list[str]) -> DocsResult:
    """One piece of evidence as a result (see the module docstring for where each part comes from)."""
    location = evidence.path_or_url
    reason = (evidence.reason or "").strip()
    section = section_of(answer, location, others)
    heading = _heading_line(section, location) if section else None
    body = section.split("\n", 1)[1].strip() if heading else section  # the heading becomes the title
    title = _linked_title(answer, location) or heading or title_from_path(location)
    snippet = clip_words(plain(body)) if body else clip_words(reason)
    return DocsResult(title=title, snippet=snippet, location=location, reason=reason, section=body)


def results_of(answer: DocsSearchAnswer) -> list[DocsResult]:
    """The whole answer first, then one result per piece of evidence, in the service's order."""
    locations = [item.path_or_url for item in answer.evidence]
    sources = len(answer.evidence)
    title = f"Answer ({sources} source{'' if sources == 1 else 's'})" if sources else "Answer (no sources cited)"
    snippet = clip_words(plain(_without_citations(answer.answer, locations)))
    whole = DocsResult(title=title, snippet=snippet, section=answer.answer)
    results = [whole]
    for index, item in enumerate(answer.evidence):
        others = [other for position, other in enumerate(locations) if position != index and other != item.path_or_url]
        results.append(result_for(item, answer.answer, others))
    return results


def reader_markdown(result: DocsResult, answer: DocsSearchAnswer) -> str:
    """The Markdown shown when a result is opened: its part of the answer and why it was cited.

    The whole answer when the answer says nothing about this source in
    particular (a prose answer), and for the "Answer" entry with its sources listed.
    """
    parts = [f"# {result.title}"]
    if result.location is None:
        parts.append(answer.answer)
        if answer.evidence:
            parts.append("## Sources")
            parts.append("\n".join(f"- {_source_line(item)}" for item in answer.evidence))
        return "\n\n".join(parts)
    parts.append(result.section or answer.answer)
    if result.reason:
        parts.append(f"**Why this source:** {result.reason}")
    return "\n\n".join(parts)


def _source_line(item: Evidence) -> str:
    address = web_address(item.path_or_url)
    where = f"[{address}]({address})" if address else f"`{item.path_or_url}`"
    return f"{where}: {item.reason}" if item.reason else where
