"""BM25 and docs-search: ranking sanity, the bundled corpus, and the endpoint's envelope and limits."""

from __future__ import annotations

import math

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, auth
from tui.emulator.core.text_search import BM25Index, stem, tokenize
from tui.emulator.support.docs_search import corpus, search_docs, split_page

# -- BM25 ------------------------------------------------------------------------------------


def test_tokenize_folds_case_plurals_and_camel_case() -> None:
    assert tokenize("The Crawls were crawling") == ["crawl", "crawl"]
    assert set(tokenize("maxAge")) == {"maxag", "max", "age"}
    assert stem("timed") == stem("time") and stem("cached") == stem("cache")
    assert tokenize("what is it") == []


def test_more_occurrences_rank_higher() -> None:
    index = BM25Index(["webhook retry", "webhook webhook retry", "unrelated text about pricing"])
    hits = index.search("webhook")
    assert [hit.index for hit in hits] == [1, 0]
    assert hits[0].score > hits[1].score > 0


def test_rare_terms_weigh_more_than_common_ones() -> None:
    index = BM25Index(["crawl limit", "crawl depth", "crawl sitemap", "crawl robots"])
    common = index.score("crawl", 0)[0]
    rare = index.score("limit", 0)[0]
    assert rare > common > 0


def test_longer_documents_are_normalised() -> None:
    index = BM25Index(["proxy", "proxy " + "filler words here " * 20])
    assert index.search("proxy")[0].index == 0


def test_no_match_gives_no_hits_and_scores_match_the_formula() -> None:
    index = BM25Index(["alpha beta", "gamma"])
    assert index.search("delta") == []
    # One matching document of two, equal lengths at the average: idf * (k1 + 1) / (1 + k1).
    idf = math.log(1 + (2 - 1 + 0.5) / (1 + 0.5))
    score, matched = BM25Index(["alpha", "gamma"]).score("alpha", 0)
    assert matched == ("alpha",) and score == pytest.approx(idf)


# -- the corpus --------------------------------------------------------------------------------


def test_corpus_covers_the_service() -> None:
    pages = {p.path for p in corpus()}
    assert len(pages) >= 15
    for expected in (
        "authentication",
        "errors",
        "rate-limits",
        "scrape-options",
        "crawl",
        "map",
        "batch-scrape",
        "browser-sessions",
        "interact",
        "webhooks",
        "webhook-signatures",
        "activity",
        "token-usage",
        "credits-and-billing",
    ):
        assert f"docs/{expected}.md" in pages


def test_split_page_cuts_at_second_level_headings() -> None:
    passages = split_page("docs/x.md", "# Title\n\nIntro text.\n\n## First part\n\nOne.\n\n## Second: part\n\nTwo.\n")
    assert [(p.heading, p.anchor, p.text) for p in passages] == [
        ("Title", "", "Intro text."),
        ("First part", "first-part", "One."),
        ("Second: part", "second-part", "Two."),
    ]
    assert passages[1].location == "docs/x.md#first-part"


@pytest.mark.parametrize(
    ("question", "expected_page"),
    [
        ("How do I verify the webhook signature?", "docs/webhook-signatures.md"),
        ("lockdown never contacts the target", "docs/caching.md"),
        ("How many tokens is one credit?", "docs/credits-and-billing.md"),
        ("profile saveChanges second saver 409", "docs/browser-sessions.md"),
        ("ignoreInvalidURLs invalid URLs", "docs/batch-scrape.md"),
    ],
)
def test_search_finds_the_right_page(question: str, expected_page: str) -> None:
    result = search_docs(question)
    assert result.evidence[0]["pathOrUrl"].startswith(expected_page)


def test_answer_quotes_the_documentation_verbatim() -> None:
    result = search_docs("verify webhook signature")
    passage = result.passages[0]
    first_line = passage.text.splitlines()[0]
    assert f"> {first_line}" in result.answer
    assert passage.location in result.answer


# -- the endpoint ----------------------------------------------------------------------------------


async def ask_docs(client: httpx.AsyncClient, body: object) -> httpx.Response:
    return await client.post("/v2/support/docs-search", json=body, headers=auth(ALPHA_KEY))


async def test_docs_search_envelope(client: httpx.AsyncClient) -> None:
    response = await ask_docs(client, {"question": "What does SCRAPE_LOCKDOWN_CACHE_MISS mean?"})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"requestId", "answer", "evidence", "usage", "durationMs"}
    assert "lockdown" in body["answer"].lower()
    assert body["evidence"] and all(set(e) == {"pathOrUrl", "reason"} for e in body["evidence"])
    usage = body["usage"]
    assert usage["totalTokens"] == usage["inputTokens"] + usage["outputTokens"] and usage["outputTokens"] > 0
    assert isinstance(body["durationMs"], int) and body["durationMs"] >= 0


async def test_docs_search_without_a_match_says_so(client: httpx.AsyncClient) -> None:
    body = (await ask_docs(client, {"question": "zyzzyva quux"})).json()
    assert body["evidence"] == [] and "No page of the documentation" in body["answer"]


@pytest.mark.parametrize(("length", "status"), [(0, 400), (1, 200), (8000, 200), (8001, 400)])
async def test_question_length_boundaries(client: httpx.AsyncClient, length: int, status: int) -> None:
    response = await ask_docs(client, {"question": "a" * length})
    assert response.status_code == status
    if status == 400:
        assert set(response.json()) == {"error"}  # support endpoints answer {"error": ...} only


async def test_docs_search_errors_are_support_shaped(client: httpx.AsyncClient) -> None:
    bad_json = await client.post("/v2/support/docs-search", content=b"not json", headers=auth(ALPHA_KEY))
    assert bad_json.status_code == 400 and set(bad_json.json()) == {"error"}
    missing = await ask_docs(client, {})
    assert missing.status_code == 400 and "question" in missing.json()["error"]
    unauthorized = await client.post("/v2/support/docs-search", json={"question": "x"})
    assert unauthorized.status_code == 401
