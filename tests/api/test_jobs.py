"""`client.jobs.get(kind, id)`: the contract's retrieval table, one path and model per kind."""

from __future__ import annotations

import pytest

from tui.api import models
from tui.api.client import WdsClient
from tui.api.errors import NoRetrievalError, RequestValidationError
from tui.api.requests import ACTIVITY_ENDPOINTS
from tui.api.resources.jobs import RETRIEVABLE_KINDS, retrieval_path

from .conftest import JOB_ID, Recorder, json_response

STATUS = {"success": True, "status": "completed", "completed": 1, "total": 1, "data": []}
DOCUMENT = {"success": True, "data": {"markdown": "# Hi", "metadata": {"scrapeId": JOB_ID}}}

CASES = [
    ("scrape", f"/v2/scrape/{JOB_ID}", DOCUMENT, models.ScrapeResult),
    ("crawl", f"/v2/crawl/{JOB_ID}", STATUS, models.CrawlStatus),
    ("batch_scrape", f"/v2/batch/scrape/{JOB_ID}", STATUS, models.BatchScrapeStatus),
    ("agent", f"/v2/extract/{JOB_ID}", {"success": True, "status": "completed", "data": {}}, models.ExtractStatus),
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


def test_the_table_is_the_contracts() -> None:
    assert RETRIEVABLE_KINDS == ("scrape", "crawl", "batch_scrape", "agent")
    assert NO_RETRIEVAL == ["search", "extract", "llmstxt", "deep_research", "map", "browser", "interact"]


@pytest.mark.parametrize("kind", [*NO_RETRIEVAL, "a_kind_added_later"])
async def test_kinds_without_retrieval_are_refused_before_sending(
    client: WdsClient, recorder: Recorder, kind: str
) -> None:
    with pytest.raises(NoRetrievalError) as info:
        await client.jobs.get(kind, JOB_ID)
    assert recorder.requests == []
    assert info.value.kind == kind and info.value.fields == ["kind"]
    assert str(info.value).startswith(f"{kind} calls have no retrieval endpoint in the contract")
    assert "Only scrape, crawl, batch_scrape and agent entries can." in str(info.value)
    assert retrieval_path(kind) is None


async def test_a_job_id_that_is_not_a_uuid_is_refused_before_sending(client: WdsClient, recorder: Recorder) -> None:
    with pytest.raises(RequestValidationError) as info:
        await client.jobs.get("crawl", "not-a-uuid")
    assert recorder.requests == [] and info.value.fields == ["jobId"]
