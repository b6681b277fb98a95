"""`client.jobs.get(kind, id)`: the contract's retrieval table, one path and model per kind; `summary`: the state alone."""

from __future__ import annotations

import pytest

from tests.api.mock_service import JOB_ID, Recorder, json_response
from tui.api.client import WdsClient
from tui.api.errors import NoRetrievalError, NotFoundError, RequestValidationError
from tui.api.resources.jobs import RETRIEVABLE_KINDS, STATUS_KINDS, retrieval_path
from tui.contract import models
from tui.contract.models.job_summary import JobSummary, summarize
from tui.contract.requests import ACTIVITY_ENDPOINTS

STATUS = {"success": True, "status": "completed", "completed": 1, "total": 1, "data": []}
DOCUMENT = {"success": True, "data": {"markdown": "# Hi", "metadata": {"scrapeId": JOB_ID}}}

CASES = [
    ("scrape", f"/v2/scrape/{JOB_ID}", DOCUMENT, models.ScrapeResult),
    ("crawl", f"/v2/crawl/{JOB_ID}", STATUS, models.CrawlStatus),
    ("batch_scrape", f"/v2/batch/scrape/{JOB_ID}", STATUS, models.BatchScrapeStatus),
    ("agent", f"/v2/extract/{JOB_ID}", {"success": True, "status": "completed", "data": {}}, models.ExtractStatus),
    (
        "extract",
        f"/v2/extract/{JOB_ID}",
        {"success": True, "status": "failed", "error": "no LLM"},
        models.ExtractStatus,
    ),
]


@pytest.mark.parametrize(("kind", "path", "body", "model"), CASES, ids=[case[0] for case in CASES])
async def test_each_kind_is_fetched_from_its_endpoint_as_its_model(
    client: WdsClient, recorder: Recorder, kind: str, path: str, body: dict, model: type
) -> None:
    recorder.queue.append(json_response(200, body))
    job = await client.jobs.get(kind, JOB_ID)
    assert (recorder.last.method, recorder.last.url.path) == ("GET", path)
    assert type(job) is model
    assert retrieval_path(kind) == f"GET {path.replace(JOB_ID, '{id}')}"


NO_RETRIEVAL = [kind for kind in ACTIVITY_ENDPOINTS if kind not in RETRIEVABLE_KINDS]


def test_the_table_is_the_contracts_plus_extract() -> None:
    # extract is not in the contract's table; its jobs are at agent's endpoint (see tui.api.resources.jobs).
    assert RETRIEVABLE_KINDS == ("scrape", "crawl", "batch_scrape", "agent", "extract")
    assert retrieval_path("extract") == retrieval_path("agent") == "GET /v2/extract/{id}"
    assert NO_RETRIEVAL == ["search", "llmstxt", "deep_research", "map", "browser", "interact"]


@pytest.mark.parametrize("kind", [*NO_RETRIEVAL, "a_kind_added_later"])
async def test_kinds_without_retrieval_are_refused_before_sending(
    client: WdsClient, recorder: Recorder, kind: str
) -> None:
    with pytest.raises(NoRetrievalError) as info:
        await client.jobs.get(kind, JOB_ID)
    assert recorder.requests == []
    assert info.value.kind == kind and info.value.fields == ["kind"]
    assert str(info.value).startswith(f"{kind} calls have no retrieval endpoint in the contract")
    assert "Only scrape, crawl, batch_scrape, agent and extract entries can." in str(info.value)
    assert retrieval_path(kind) is None


async def test_a_job_id_that_is_not_a_uuid_is_refused_before_sending(client: WdsClient, recorder: Recorder) -> None:
    with pytest.raises(RequestValidationError) as info:
        await client.jobs.get("crawl", "not-a-uuid")
    assert recorder.requests == [] and info.value.fields == ["jobId"]


# --- client.jobs.summary: a job's state, whatever its kind -------------------------------------

SCRAPED = {"success": True, "data": {"markdown": "# Hi", "metadata": {"scrapeId": JOB_ID, "statusCode": 200}}}
NOT_FOUND_PAGE = {"success": True, "data": {"metadata": {"statusCode": 404, "error": "Page not found"}}}
SUMMARY_CASES = [
    ("scrape", f"/v2/scrape/{JOB_ID}", "", SCRAPED, JobSummary("completed", 200, None, finished=True)),
    (
        "scrape",
        f"/v2/scrape/{JOB_ID}",
        "",
        NOT_FOUND_PAGE,
        JobSummary("failed", 404, "HTTP 404: Page not found", finished=True),
    ),
    ("crawl", f"/v2/crawl/{JOB_ID}", "limit=1", {**STATUS, "status": "scraping"}, JobSummary("scraping")),
    ("batch_scrape", f"/v2/batch/scrape/{JOB_ID}", "limit=1", STATUS, JobSummary("completed", finished=True)),
    (
        "agent",
        f"/v2/extract/{JOB_ID}",
        "",
        {"success": True, "status": "failed", "error": "No pricing found"},
        JobSummary("failed", None, "No pricing found", finished=True),
    ),
    ("extract", f"/v2/extract/{JOB_ID}", "", {"success": True, "status": "processing"}, JobSummary("processing")),
]


@pytest.mark.parametrize(
    ("kind", "path", "query", "body", "summary"),
    SUMMARY_CASES,
    ids=["scrape", "scrape-404-page", "crawl", "batch_scrape", "agent", "extract"],
)
async def test_summary_reads_each_kind_from_its_endpoint(
    client: WdsClient, recorder: Recorder, kind: str, path: str, query: str, body: dict, summary: JobSummary
) -> None:
    recorder.queue.append(json_response(200, body))
    assert await client.jobs.summary(kind, JOB_ID) == summary
    assert (recorder.last.method, recorder.last.url.path, recorder.last.url.query.decode()) == ("GET", path, query)
    assert summary.failed == (summary.state == "failed")


async def test_summary_of_a_kind_without_retrieval_sends_nothing(client: WdsClient, recorder: Recorder) -> None:
    assert "extract" in STATUS_KINDS and "map" not in STATUS_KINDS
    with pytest.raises(NoRetrievalError):
        await client.jobs.summary("map", JOB_ID)
    assert recorder.requests == []


async def test_summary_of_an_expired_job_is_a_not_found_error(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(404, {"success": False, "error": "Job expired", "code": "NOT_FOUND"}))
    with pytest.raises(NotFoundError):
        await client.jobs.summary("crawl", JOB_ID)


async def test_summary_keeps_a_crawl_error_the_service_adds() -> None:
    job = models.CrawlStatus.model_validate({**STATUS, "status": "failed", "error": "Robots.txt forbids"})
    assert summarize(job) == JobSummary("failed", None, "Robots.txt forbids", finished=True)
