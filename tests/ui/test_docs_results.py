"""Docs search, the parts without a screen: results made from the answer, the reader's Markdown, when links are links, what each failure says."""

from __future__ import annotations

import pytest

from tui.api.errors import (
    APITimeoutError,
    InsufficientCreditsError,
    NotFoundError,
    RateLimitError,
    ResponseNotJSONError,
    WdsError,
)
from tui.contract.models.support import DocsSearchAnswer, Evidence
from tui.dashboard.features.support.docs_problems import question_problem, search_problem
from tui.dashboard.features.support.docs_results import (
    clip_words,
    plain,
    reader_markdown,
    results_of,
    section_of,
    title_from_path,
    web_address,
)
from tui.dashboard.kit.widgets.hyperlink import hyperlinks_supported, link

EMULATOR_STYLE = DocsSearchAnswer(
    answer=(
        "From Caching › Caching (docs/caching.md):\n\n> Scrapes are cached per URL.\n\n"
        "From Caching › maxAge (default 2 days) (docs/caching.md#maxage):\n\n"
        "> `maxAge` (milliseconds) serves a cached copy.\n>\n> Set `maxAge: 0` to always scrape fresh."
    ),
    evidence=[
        Evidence(path_or_url="docs/caching.md", reason="BM25 score 9.1; matches: cache"),
        Evidence(path_or_url="docs/caching.md#maxage", reason="BM25 score 8.0; matches: cache"),
    ],
)


def test_each_source_gets_its_own_section_title_and_snippet() -> None:
    answer, page, section = results_of(EMULATOR_STYLE)
    assert (answer.title, answer.location) == ("Answer (2 sources)", None)
    # "docs/caching.md" is a prefix of the second location: it must not take the second section.
    assert page.title == "Caching"  # "Caching › Caching": a page's introduction
    assert page.snippet == "Scrapes are cached per URL."
    assert page.section == "> Scrapes are cached per URL."
    assert section.title == "Caching › maxAge (default 2 days)"
    assert section.snippet == "maxAge (milliseconds) serves a cached copy. Set maxAge: 0 to always scrape fresh."
    assert "`" not in section.snippet
    assert section.reason == "BM25 score 8.0; matches: cache"


def test_a_prose_answer_gives_titles_from_links_or_paths_and_snippets_from_reasons() -> None:
    prose = DocsSearchAnswer(
        answer="Use [the cache guide](https://docs.example.com/cache). Nothing else applies.",
        evidence=[
            Evidence(path_or_url="https://docs.example.com/cache", reason="Defines maxAge."),
            Evidence(path_or_url="https://docs.example.com/api/scrape_options.md#max-age", reason="The parameter."),
        ],
    )
    _, linked, unlinked = results_of(prose)
    assert linked.title == "the cache guide"
    assert linked.snippet == "Use the cache guide. Nothing else applies."
    assert unlinked.title == "scrape options › max age"
    assert unlinked.snippet == "The parameter." and unlinked.section == ""
    assert reader_markdown(unlinked, prose).endswith("**Why this source:** The parameter.")
    assert prose.answer in reader_markdown(unlinked, prose)  # nothing specific: the whole answer


def test_the_answer_entry_lists_the_sources_as_links_or_code() -> None:
    answer = DocsSearchAnswer(
        answer="Cached.",
        evidence=[Evidence(path_or_url="https://d.example/c", reason="why"), Evidence(path_or_url="docs/x.md")],
    )
    text = reader_markdown(results_of(answer)[0], answer)
    assert (
        text
        == "# Answer (2 sources)\n\nCached.\n\n## Sources\n\n- [https://d.example/c](https://d.example/c): why\n- `docs/x.md`"
    )


def test_no_evidence_leaves_the_answer_alone() -> None:
    results = results_of(DocsSearchAnswer(answer="No page matches.", evidence=[]))
    assert [(result.title, result.snippet) for result in results] == [("Answer (no sources cited)", "No page matches.")]


def test_a_location_is_cited_only_whole() -> None:
    answer = "See docs/a.md#b.\n\nMore.\n\nThen docs/a.md, and (docs/a.md).\n\nLast."
    assert section_of(answer, "docs/a.md#b", ["docs/a.md"]) == "See docs/a.md#b.\n\nMore."
    assert section_of(answer, "docs/a.md", ["docs/a.md#b"]) == "Then docs/a.md, and (docs/a.md).\n\nLast."
    assert section_of(answer, "docs/zzz.md", []) == ""


@pytest.mark.parametrize(
    ("location", "address"),
    [
        ("https://docs.example.com/x#y", "https://docs.example.com/x#y"),
        ("http://docs.example.com", "http://docs.example.com"),
        ("docs/caching.md#maxage", None),
        ("/docs/caching.md", None),
        ("ftp://example.com/file", None),
        ("javascript:alert(1)", None),
    ],
)
def test_only_absolute_web_addresses_are_links(location: str, address: str | None) -> None:
    assert web_address(location) == address


def test_titles_from_paths_and_plain_snippets() -> None:
    assert title_from_path("docs/caching.md#maxage-default-2-days") == "caching › maxage default 2 days"
    assert title_from_path("https://docs.example.com/") == "docs.example.com"
    assert (
        plain("> **Bold** and `code` in a [link](https://x.example)\n> next line")
        == "Bold and code in a link next line"
    )
    assert clip_words("one two three four", 12) == "one two…"
    listed = "- the *path*, e.g. ^/blog/\n1. maxDepth\n| Type | When |\n|---|---|\n| crawl.page | a page | \n2 * 3 * 4"
    assert plain(listed) == "the path, e.g. ^/blog/ maxDepth Type · When crawl.page · a page 2 * 3 * 4"


@pytest.mark.parametrize(
    ("environ", "supported"),
    [
        ({"TERM": "xterm-256color"}, True),
        ({"TERM": "tmux-256color"}, True),
        ({"TERM": "dumb"}, False),
        ({"TERM": "linux"}, False),
        ({"TERM": "vt100"}, False),
        ({}, False),
        ({"WT_SESSION": "1"}, True),
        ({"TERM": "xterm", "WDS_HYPERLINKS": "0"}, False),
        ({"TERM": "linux", "WDS_HYPERLINKS": "1"}, True),
    ],
)
def test_hyperlinks_follow_the_terminal_unless_told(environ: dict[str, str], supported: bool) -> None:
    assert hyperlinks_supported(environ) is supported


def test_a_link_is_plain_text_when_links_are_off_or_there_is_no_address() -> None:
    on = link("docs", "https://d.example", enabled=True)
    assert on.plain == "docs" and [span.style.link for span in on.spans] == ["https://d.example"]  # type: ignore[union-attr]
    assert link("docs", "https://d.example", enabled=False).spans == []
    assert link("docs", None, enabled=True).spans == []


def test_question_limits() -> None:
    assert question_problem("x" * 8000) is None
    assert question_problem("x" * 8001) == (
        "The question is 8,001 characters long; the service takes at most 8,000. Shorten it to search."
    )


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (NotFoundError("Not Found", status=404), "This service has no docs search endpoint (404): Not Found."),
        (APITimeoutError("read timeout"), "The service did not answer in time. Enter tries again."),
        (
            ResponseNotJSONError("an HTML page", status=200, content_type="text/html", excerpt="<html>"),
            "The service answered something unreadable (an HTML page). Enter tries again.",
        ),
        (
            InsufficientCreditsError("No credits", status=402),
            "The service refused the search (402 Insufficient credits): No credits.",
        ),
        (RateLimitError("Slow down", status=429), "the service asks to wait a little before the next search."),
    ],
)
def test_the_other_failures_each_say_what_happened(error: WdsError, expected: str) -> None:
    assert expected in search_problem(error)
    assert "`" not in search_problem(error)
