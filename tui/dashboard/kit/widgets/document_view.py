"""A job result as a person reads it: key fields on top, then pages or content.

`job_fields` picks what matters from any job model (a scrape, a crawl or batch
status, an extract/agent status) and `DocumentView` lays it out: a two-column
grid of fields, a list of pages for multi-page jobs, and the markdown content
of a scraped page. The raw model is left to the JSON tree beside it.

A scrape has two statuses that must not be confused: the job's (the service
fetched the page: "scraped") and the page's HTTP status (it may have answered
404). `job_outcome` keeps them apart, and `verdict` says in one line whether
the job worked for the reader, a page's HTTP error counting as a failure.
A cache-only miss (lockdown, minAge) carries a 404 too, though no page was
contacted: its code says so, and it is worded as what it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from http import HTTPStatus

from pydantic import BaseModel
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid, Vertical
from textual.widgets import Label, Static

from tui.contract.models import Document, ExtractStatus, JobStatus, ScrapeResult
from tui.dashboard.kit.formatting import clip, local_time
from tui.dashboard.kit.outside_text import shown, visible
from tui.dashboard.kit.status_look import FAILURE, is_failure, state_text
from tui.dashboard.kit.widgets.hyperlink import link, links_on, web_address
from tui.dashboard.kit.widgets.outside_markdown import OutsideMarkdown

MARKDOWN_LIMIT = 200_000
"""Longer content is shown as plain text: Markdown layout of huge pages is slow."""
PAGE_LIST_LIMIT = 200
TITLE_WIDTH = 40
CACHE_ONLY_MISSES = {
    "SCRAPE_LOCKDOWN_CACHE_MISS": "no cached copy (SCRAPE_LOCKDOWN_CACHE_MISS); lockdown contacts no page",
    "SCRAPE_NO_CACHED_DATA": "no cached copy old enough (SCRAPE_NO_CACHED_DATA); minAge contacts no page",
}
"""Codes of a scrape that only read the cache and found nothing: its 404 is the service's, not a page's."""


@dataclass(frozen=True)
class Field:
    """One labelled value; `alert` marks values a person must not miss (errors)."""

    name: str
    value: str
    alert: bool = False


def http_status_text(code: int) -> str:
    """`404 Not Found`; the bare number for a status without a standard phrase."""
    try:
        return f"{code} {HTTPStatus(code).phrase}"
    except ValueError:
        return str(code)


@dataclass(frozen=True)
class JobOutcome:
    """How a job ended, its parts kept apart: the job's state, its page's HTTP status, its error."""

    state: str | None
    http_status: int | None = None
    error: str | None = None
    failed_pages: int = 0  # crawl, batch: pages whose HTTP status is an error
    code: str | None = None  # the error's code, when the service gives one

    @property
    def failed(self) -> bool:
        """Whether the reader should see a failure (the page's HTTP error counts)."""
        return is_failure(self.state, self.http_status)

    @property
    def ask_error(self) -> str | None:
        """What to tell support went wrong: the page's HTTP status when it is an error, else the error."""
        if self.http_status is not None and self.http_status >= 400:
            return f"HTTP {self.http_status}"
        return self.error


def job_outcome(job: BaseModel) -> JobOutcome:
    """The outcome of any job model (scrape result, crawl/batch status, extract/agent status)."""
    if isinstance(job, ScrapeResult):
        if job.data is None:
            return JobOutcome("failed" if not job.success else None, error="no document in the answer")
        meta = job.data.metadata
        return JobOutcome("scraped" if job.success else "failed", meta.status_code, meta.error, code=meta.code)
    status = getattr(job, "status", None)
    error = getattr(job, "error", None)
    failed_pages = 0
    if isinstance(job, JobStatus):
        failed_pages = sum(1 for page in job.data if (page.metadata.status_code or 0) >= 400)
    return JobOutcome(str(status) if status is not None else None, None, str(error) if error else None, failed_pages)


def verdict(job: BaseModel) -> Text:
    """One line on top of a job: its state with symbol and colour, and in words what that means."""
    outcome = job_outcome(job)
    line = state_text(outcome.state, outcome.http_status)
    code = outcome.http_status
    miss = CACHE_ONLY_MISSES.get(outcome.code or "")
    if miss is not None:
        line.append(f" · {miss}; the job itself ended with status {outcome.state or 'unknown'}")
    elif code is not None and code >= 400:
        line.append(
            f" · the page answered {http_status_text(code)}; the job itself ended with status "
            f"{outcome.state or 'unknown'}"
        )
    elif code is not None:
        line.append(f" · the page answered {http_status_text(code)}")
    if isinstance(job, JobStatus):
        total = str(job.total) if job.total else "?"
        line.append(f" · {job.completed} of {total} pages")
        if outcome.failed_pages:
            line.append(f" · {outcome.failed_pages} answered an HTTP error", style=FAILURE.style)
    if outcome.error and not (code is not None and code >= 400):
        line.append(f" · {visible(outcome.error)}", style=FAILURE.style if outcome.failed else "")
    return line


def _document_fields(document: Document) -> list[Field]:
    meta = document.metadata
    fields: list[Field] = []
    # What went wrong first, under the job's status: a person must not miss it.
    if meta.status_code is not None:
        miss = CACHE_ONLY_MISSES.get(meta.code or "")
        status = f"{meta.status_code}: {miss}" if miss is not None else http_status_text(meta.status_code)
        fields.append(Field("HTTP status", status, alert=meta.status_code >= 400))
    if meta.error:
        fields.append(Field("error", meta.error, alert=True))
    if document.warning:
        fields.append(Field("warning", document.warning, alert=True))
    if meta.title:
        fields.append(Field("title", meta.title))
    url = meta.url or meta.source_url
    if url:
        fields.append(Field("url", url))
    if meta.source_url and meta.source_url != url:
        fields.append(Field("sourceURL", meta.source_url))
    if meta.content_type:
        fields.append(Field("contentType", meta.content_type))
    if meta.language:
        fields.append(Field("language", meta.language))
    formats = [
        f"{name} ({len(value):,} chars)"
        for name, value in (("markdown", document.markdown), ("html", document.html), ("rawHtml", document.raw_html))
        if value
    ]
    for name, items in (("links", document.links), ("images", document.images)):
        if items:
            formats.append(f"{name} ({len(items)})")
    if document.screenshot:
        formats.append("screenshot")
    if formats:
        fields.append(Field("formats", ", ".join(formats)))
    return fields


def job_fields(job: BaseModel) -> list[Field]:
    """The fields worth reading first, in reading order, for any job model."""
    if isinstance(job, Document):  # one page of a crawl or a batch, on its own
        return _document_fields(job)
    if isinstance(job, ScrapeResult):
        if job.data is None:
            return [Field("job status", "no document in the answer", alert=True)]
        # The job's status alone: the page's own status is the "HTTP status" field.
        outcome = Field("job status", "scraped" if job.success else "failed", alert=not job.success)
        return [outcome, *_document_fields(job.data)]
    fields: list[Field] = []
    status = getattr(job, "status", None)
    if status is not None:
        fields.append(Field("job status", str(status), alert=is_failure(str(status))))
    if isinstance(job, JobStatus):
        total = str(job.total) if job.total else "?"
        fields.append(Field("progress", f"{job.completed} / {total} pages"))
        if job.next:
            fields.append(Field("pages shown", f"{len(job.data)} (more on the service)"))
    credits = getattr(job, "credits_used", None)
    if credits is not None:
        fields.append(Field("credits used", f"{credits:,}"))
    if isinstance(job, ExtractStatus) and job.tokens_used is not None:
        fields.append(Field("tokens used", f"{job.tokens_used:,}"))
    expires = getattr(job, "expires_at", None)
    if expires is not None:
        fields.append(Field("expires at", local_time(expires)))
    error = getattr(job, "error", None)
    if error:
        fields.append(Field("error", str(error), alert=True))
    return fields


def page_lines(documents: Iterable[Document], limit: int = PAGE_LIST_LIMIT) -> list[str]:
    """One line per page of a multi-page job: status code, title, url."""
    rows = []
    for document in documents:
        meta = document.metadata
        code = str(meta.status_code) if meta.status_code is not None else "—"
        title = clip(visible(meta.title or "(no title)"), TITLE_WIDTH)  # one line each, whatever a title holds
        rows.append((code, title, visible(meta.url or meta.source_url or "?")))
    width = max((len(title) for _, title, _ in rows[:limit]), default=0)
    lines = [f"{code:>3}  {title:<{width}}  {url}" for code, title, url in rows[:limit]]
    if len(rows) > limit:
        lines.append(f"… and {len(rows) - limit} more")
    return lines


def job_content(job: BaseModel) -> str | None:
    """The markdown (or text) a job produced, when it has one to read."""
    if isinstance(job, Document):
        return job.markdown or job.summary
    if isinstance(job, ScrapeResult) and job.data is not None:
        return job.data.markdown or job.data.summary
    if isinstance(job, ExtractStatus) and isinstance(job.data, str):
        return job.data
    return None


class DocumentView(Vertical):
    """Key fields of a job, its pages (crawl, batch) and its markdown content."""

    DEFAULT_CSS = """
    DocumentView { height: auto; }
    DocumentView .document-fields {
        grid-size: 2;
        grid-columns: auto 1fr;
        grid-gutter: 0 2;
        height: auto;
    }
    DocumentView .field-name { color: $text-muted; text-style: bold; }
    DocumentView .field-value.-alert { color: $text-error; text-style: bold; }
    DocumentView .document-heading { margin-top: 1; text-style: bold; color: $text-muted; }
    DocumentView .document-pages { height: auto; }
    DocumentView Markdown { height: auto; padding: 0; margin: 0; }
    """

    def __init__(self, job: BaseModel, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.job = job

    def compose(self) -> ComposeResult:
        with Grid(classes="document-fields"):
            links = links_on(self.app)
            for field in job_fields(self.job):
                yield Label(field.name, classes="field-name", markup=False)
                # A web address (url, sourceURL) is a link where the app has links on.
                value = link(field.value, field.value, enabled=links) if web_address(field.value) else None
                yield Label(
                    value or shown(field.value, lines=True),
                    classes="field-value -alert" if field.alert else "field-value",
                )
        if isinstance(self.job, JobStatus):
            yield Label(f"Pages ({len(self.job.data)})", classes="document-heading", markup=False)
            lines = page_lines(self.job.data)
            yield Static(shown("\n".join(lines) if lines else "No pages yet.", lines=True), classes="document-pages")
        content = job_content(self.job)
        if content:
            yield Label("Content", classes="document-heading")
            if len(content) <= MARKDOWN_LIMIT:
                yield OutsideMarkdown(content)
            else:
                yield Static(shown(content, lines=True))
