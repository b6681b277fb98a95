"""`client.jobs`: the job behind an activity entry, fetched by the entry's kind.

The contract's table "Retrieval endpoints for an entry's job ID" lives here,
in the API layer, so a screen asks `client.jobs.get(entry.endpoint, entry.id)`
and never needs to know which endpoint serves which kind:

| Entry endpoint | Retrieval                 |
|----------------|---------------------------|
| scrape         | GET /v2/scrape/{id}       |
| crawl          | GET /v2/crawl/{id}        |
| batch_scrape   | GET /v2/batch/scrape/{id} |
| agent          | GET /v2/extract/{id}      |
| extract        | GET /v2/extract/{id}      |

The last row is not in the contract's table: extract jobs live at the same
endpoint as agent ones, and an operator who sees a failed extract in the
activity list wants to open it. Every other kind (`map`, `search`,
`browser`, ... or a kind the service adds later) has none: `get` raises
`NoRetrievalError` before sending.

`summary(kind, id)` asks for a job's state only (`JobSummary`), as cheaply as
the endpoint allows: one document of a crawl or batch, not all of them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias, overload

from tui.api.errors import NoRetrievalError
from tui.api.resources._base import Resource
from tui.api.resources.batch import BatchResource
from tui.api.resources.crawl import CrawlResource
from tui.api.resources.extract import ExtractResource
from tui.api.resources.scrape import ScrapeResource
from tui.contract.models.batch import BatchScrapeStatus
from tui.contract.models.crawl import CrawlStatus
from tui.contract.models.extract import ExtractStatus
from tui.contract.models.job_summary import JobSummary, summarize
from tui.contract.models.scrape import ScrapeResult

if TYPE_CHECKING:
    from tui.api.base_client import BaseClient

RetrievableKind: TypeAlias = Literal["scrape", "crawl", "batch_scrape", "agent", "extract"]
Job: TypeAlias = ScrapeResult | CrawlStatus | BatchScrapeStatus | ExtractStatus
"""What `client.jobs.get` returns: the model of the kind's retrieval endpoint."""


@dataclass(frozen=True)
class Retrieval:
    """One row of the table: the contract's method and path, and the resource call that makes it."""

    path: str
    fetch: Callable[[BaseClient, str], Awaitable[Job]]


RETRIEVALS: dict[str, Retrieval] = {
    "scrape": Retrieval("GET /v2/scrape/{id}", lambda client, job_id: ScrapeResource(client).get(job_id)),
    "crawl": Retrieval("GET /v2/crawl/{id}", lambda client, job_id: CrawlResource(client).get(job_id)),
    "batch_scrape": Retrieval("GET /v2/batch/scrape/{id}", lambda client, job_id: BatchResource(client).get(job_id)),
    "agent": Retrieval("GET /v2/extract/{id}", lambda client, job_id: ExtractResource(client).get(job_id)),
    "extract": Retrieval("GET /v2/extract/{id}", lambda client, job_id: ExtractResource(client).get(job_id)),
}
"""The contract's retrieval table (plus `extract`, see the module doc): entry kind -> how its job is fetched."""

RETRIEVABLE_KINDS: tuple[str, ...] = tuple(RETRIEVALS)

SUMMARIES: dict[str, Callable[[BaseClient, str], Awaitable[Job]]] = {
    "scrape": lambda client, job_id: ScrapeResource(client).get(job_id),
    # limit=1: the state and counts come with every page; the documents are not wanted here.
    "crawl": lambda client, job_id: CrawlResource(client).get(job_id, limit=1),
    "batch_scrape": lambda client, job_id: BatchResource(client).get(job_id, limit=1),
    "agent": lambda client, job_id: ExtractResource(client).get(job_id),
    "extract": lambda client, job_id: ExtractResource(client).get(job_id),
}
"""How each kind's state is read: the retrieval table, plus `extract` entries."""

STATUS_KINDS: tuple[str, ...] = tuple(SUMMARIES)
"""The activity kinds whose job state can be asked for."""


def retrieval_path(kind: str) -> str | None:
    """`"GET /v2/crawl/{id}"` for a kind with a retrieval endpoint, None for any other."""
    retrieval = RETRIEVALS.get(kind)
    return retrieval.path if retrieval is not None else None


def no_retrieval(kind: str) -> NoRetrievalError:
    """The error (and its message, to show in place) for a kind without retrieval."""
    return NoRetrievalError(kind, RETRIEVABLE_KINDS)


class JobsResource(Resource):
    """Fetch any activity entry's job by its kind, with the kind's own typed model."""

    @overload
    async def get(self, kind: Literal["scrape"], job_id: str) -> ScrapeResult: ...
    @overload
    async def get(self, kind: Literal["crawl"], job_id: str) -> CrawlStatus: ...
    @overload
    async def get(self, kind: Literal["batch_scrape"], job_id: str) -> BatchScrapeStatus: ...
    @overload
    async def get(self, kind: Literal["agent", "extract"], job_id: str) -> ExtractStatus: ...
    @overload
    async def get(self, kind: str, job_id: str) -> Job: ...

    async def get(self, kind: str, job_id: str) -> Job:
        """The job `job_id` of an activity entry of kind `kind` (its `endpoint` field).

        Returns `ScrapeResult` (scrape), `CrawlStatus` (crawl), `BatchScrapeStatus`
        (batch_scrape) or `ExtractStatus` (agent). Raises `NoRetrievalError` for
        any other kind and `RequestValidationError` for a job id that is not a
        UUID, both before sending; `NotFoundError` when the job is unknown or expired.
        """
        retrieval = RETRIEVALS.get(kind)
        if retrieval is None:
            raise no_retrieval(kind)
        return await retrieval.fetch(self._client, job_id)

    async def summary(self, kind: str, job_id: str) -> JobSummary:
        """The state of the job behind an activity entry (`STATUS_KINDS`), reading as little as the endpoint allows.

        Raises `NoRetrievalError` for a kind without one (before sending),
        `NotFoundError` for an unknown or expired job, and the other errors of
        the kind's endpoint as they come.
        """
        fetch = SUMMARIES.get(kind)
        if fetch is None:
            raise no_retrieval(kind)
        return summarize(await fetch(self._client, job_id))


__all__ = [
    "RETRIEVABLE_KINDS",
    "RETRIEVALS",
    "STATUS_KINDS",
    "SUMMARIES",
    "Job",
    "JobsResource",
    "RetrievableKind",
    "Retrieval",
    "no_retrieval",
    "retrieval_path",
]
