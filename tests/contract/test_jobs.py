"""`client.jobs.get(kind, id)` against the emulator: every seeded activity entry opens by its kind."""

from __future__ import annotations

from typing import Any

import pytest

from tests.contract.service import UNKNOWN_ID
from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY
from tui.api.errors import NoRetrievalError, NotFoundError, PermissionDeniedError
from tui.api.resources.jobs import RETRIEVABLE_KINDS
from tui.contract import models

MODEL_OF = {
    "scrape": models.ScrapeResult,
    "crawl": models.CrawlStatus,
    "batch_scrape": models.BatchScrapeStatus,
    "agent": models.ExtractStatus,
    "extract": models.ExtractStatus,  # at agent's endpoint (tui.api.resources.jobs)
}


async def test_every_listed_job_opens_by_its_kind(make_service: Any) -> None:
    service = await make_service(history=True)
    alpha = service.client(ALPHA_KEY)
    entries = await alpha.team.iter_activity().to_list()
    retrievable = [entry for entry in entries if entry.endpoint in RETRIEVABLE_KINDS]
    assert {entry.endpoint for entry in retrievable} == set(MODEL_OF), "the seeded history has every retrievable kind"
    for entry in retrievable:
        job = await alpha.jobs.get(entry.endpoint, entry.id)
        assert type(job) is MODEL_OF[entry.endpoint] and job.success is True, entry
    others = [entry for entry in entries if entry.endpoint not in RETRIEVABLE_KINDS]
    assert others, "the seeded history also has kinds without retrieval"
    sent = service.sent
    for entry in others:
        with pytest.raises(NoRetrievalError):
            await alpha.jobs.get(entry.endpoint, entry.id)
    assert service.sent == sent, "a kind without retrieval sends nothing"


@pytest.mark.parametrize("kind", sorted(MODEL_OF))
async def test_an_unknown_job_is_not_found(make_service: Any, kind: str) -> None:
    service = await make_service()
    with pytest.raises(NotFoundError):
        await service.client(ALPHA_KEY).jobs.get(kind, UNKNOWN_ID)


async def test_another_teams_job_is_forbidden(make_service: Any) -> None:
    """A team can only query its own jobs: 403, as the crawl and batch endpoints answer."""
    service = await make_service(history=True)
    entry = next(e for e in await service.client(ALPHA_KEY).team.iter_activity().to_list() if e.endpoint == "crawl")
    with pytest.raises(PermissionDeniedError):
        await service.client(BETA_KEY).jobs.get("crawl", entry.id)
