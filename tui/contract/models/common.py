"""Building blocks shared by the response models.

Response models are deliberately tolerant, because the dashboard must also work
against the real service, which drifts from the contract: unknown fields are
kept (`extra="allow"`, see `model_extra`), fields are read by their wire name
(camelCase) or their Python name (snake_case, which also covers the service's
own snake_case fields such as `created_at`), and status strings outside the
known set are kept as plain strings instead of being rejected.

What is *not* tolerated: a field that is present but cannot be read as its
type (a timestamp that is not a date, a count that is not a number). The client
turns that into a `ResponseShapeError` ("the server sent ..."), since guessing
would show wrong data.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel


class WdsModel(BaseModel):
    """Base of every response model: camelCase on the wire, extra fields kept."""

    model_config = ConfigDict(
        extra="allow",
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        # Build validators on first use, not at import: the dashboard's start-up
        # should not pay for the hundred models it has not received yet.
        defer_build=True,
    )


def _assume_utc(value: datetime) -> datetime:
    # The service writes UTC; a timestamp without an offset is read as UTC so
    # that every datetime the UI compares is aware.
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


Timestamp = Annotated[datetime, AfterValidator(_assume_utc)]
"""An ISO 8601 (or epoch) timestamp, always returned timezone-aware."""


# Status fields are "open enums": `Annotated[SomeStrEnum | str, OPEN]` reads a
# known value as the enum member and keeps any other string as it is, so a state
# the service adds later shows instead of failing the whole response. Members of
# a StrEnum compare equal to their strings (`status == "active"` always works).
OPEN = Field(union_mode="left_to_right")


class JobState(StrEnum):
    """Known states of crawl, batch scrape and extract jobs."""

    SCRAPING = "scraping"
    PROCESSING = "processing"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


JobStateValue = Annotated[JobState | str, OPEN]
FINISHED_STATES = frozenset({JobState.COMPLETED, JobState.FAILED, JobState.CANCELLED})


class DocumentMetadata(WdsModel):
    """Metadata of a scraped page; `scrape_id` is the scrape job's id."""

    title: str | None = None
    description: str | None = None
    language: str | None = None
    source_url: str | None = Field(None, alias="sourceURL")
    url: str | None = None
    status_code: int | None = None
    content_type: str | None = None
    scrape_id: str | None = None
    error: str | None = None
    code: str | None = None
    """The error's code where the service gives one: `SCRAPE_LOCKDOWN_CACHE_MISS`, `SCRAPE_NO_CACHED_DATA`."""


class Document(WdsModel):
    """One scraped page, in whichever formats were asked for."""

    markdown: str | None = None
    html: str | None = None
    raw_html: str | None = None
    summary: str | None = None
    links: list[Any] | None = None
    images: list[Any] | None = None
    screenshot: str | None = None
    json_data: Any = Field(None, alias="json")
    warning: str | None = None
    metadata: DocumentMetadata = Field(default_factory=DocumentMetadata)


class JobStatus(WdsModel):
    """Status and one page of results of a crawl or batch scrape job.

    `next` is the URL of the next page of `data` when the results are split;
    pass `skip`/`limit` to the status call to page through them.
    """

    success: bool = True
    status: JobStateValue
    completed: int = 0
    total: int = 0
    credits_used: int | None = None
    expires_at: Timestamp | None = None
    next: str | None = None
    data: list[Document] = Field(default_factory=list)

    @property
    def is_finished(self) -> bool:
        """True once the job will not change any more."""
        return self.status in FINISHED_STATES

    @property
    def progress(self) -> float | None:
        """Share of pages done, 0.0 to 1.0; None while the total is unknown."""
        if self.total <= 0:
            return None
        return min(1.0, self.completed / self.total)
