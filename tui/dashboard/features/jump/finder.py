"""Which kind of job an id is: from what the dashboard has seen, else by asking each retrieval endpoint in turn.

The service has no "any job by id" call: a job lives at its kind's endpoint
(`tui.api.resources.jobs`: crawl, batch scrape, scrape, extract) and a browser
session in the session list. So an id not seen in the activity pane is asked
of each, the kind its URL named first, and the first that knows it wins; a
404 means "not this kind", any other failure (a refused key, no network)
stops the search, since every other endpoint would fail the same way. Only
reads are sent: `g` works in read-only mode.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tui.api.client import WdsClient
from tui.api.errors import NotFoundError
from tui.contract.models.browser import BrowserSession
from tui.dashboard.features.jump.reference import JobReference
from tui.dashboard.features.jump.seen_jobs import SeenJobs

ASKED_IN_TURN: tuple[str, ...] = ("crawl", "batch_scrape", "scrape", "extract", "browser")
"""The kinds asked about an unseen id, in this order (agent jobs answer at the extract endpoint)."""

SAME_ENDPOINT = {"agent": "extract"}
"""A kind whose jobs are asked for at another kind's endpoint (`GET /v2/extract/{id}`)."""


@dataclass(frozen=True)
class FoundJob:
    """The kind a job was found as, and what was asked to find it (nothing, when it had been seen)."""

    kind: str
    job_id: str
    asked: tuple[str, ...] = ()
    session: BrowserSession | None = None  # the session, when the id is a browser session's


class NoSuchJob(Exception):
    """No endpoint asked knows the id."""

    def __init__(self, job_id: str, asked: tuple[str, ...]) -> None:
        super().__init__(f"no job with id {job_id} (asked: {', '.join(asked)})")
        self.job_id = job_id
        self.asked = asked


def asking_order(reference: JobReference) -> tuple[str, ...]:
    """The kinds to ask about `reference`, the one its URL named first."""
    named = SAME_ENDPOINT.get(reference.kind or "", reference.kind)
    first = (named,) if named in ASKED_IN_TURN else ()
    return (*first, *(kind for kind in ASKED_IN_TURN if kind != named))


async def find_job(
    client: WdsClient, reference: JobReference, seen: SeenJobs, asking: Callable[[str], None] | None = None
) -> FoundJob:
    """The kind of the job `reference` names (`asking(kind)` is told before each request).

    Raises `NoSuchJob` when every endpoint answers 404, and the client's own
    error (`tui.api.errors`) for any other failure.
    """
    job_id = reference.job_id
    known = seen.kind_of(job_id)
    if known is not None:
        return FoundJob(known, job_id)
    asked: list[str] = []
    for kind in asking_order(reference):
        if asking is not None:
            asking(kind)
        asked.append(kind)
        if kind == "browser":
            session = await _session(client, job_id)
            if session is not None:
                return FoundJob(kind, job_id, tuple(asked), session)
            continue
        try:
            await client.jobs.summary(kind, job_id)
        except NotFoundError:
            continue
        return FoundJob(reference.kind if reference.kind in SAME_ENDPOINT else kind, job_id, tuple(asked))
    raise NoSuchJob(job_id, tuple(asked))


async def _session(client: WdsClient, session_id: str) -> BrowserSession | None:
    """The browser session with this id, active or ended, if the service still lists it."""
    listing = await client.browser.list()
    return next((session for session in listing.sessions if session.id.lower() == session_id), None)
