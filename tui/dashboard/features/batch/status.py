"""The status of one batch scrape (`GET /v2/batch/scrape/{id}`), followed live until it finishes.

Polled like the crawl status screen (`tui.dashboard.features.crawls.status`, whose page
table and support summary it reuses): every `interval` while the screen is
on top, and no more once the batch is completed, failed or cancelled (r asks
again). Each look follows the service's `next` pages, so every scraped URL
has its row (`tui.dashboard.features.batch.whole_status`): the page's HTTP status, scraped or
failed, the URL and the error (a cache-only miss of a lockdown batch is a
404 row with its code). The URLs the start refused as invalid are listed
above the rows. A failed look keeps what is shown, marked stale with the
reason. Enter opens a row's document; `a` asks support about the batch; `s`
exports the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal
from textual.screen import Screen
from textual.widgets import Label, ProgressBar, Static

from tui.api.client import WdsClient
from tui.contract.models.batch import BatchScrapeStatus
from tui.contract.models.common import Document
from tui.dashboard.features.batch.whole_status import fetch_whole_status
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.kit.export import ExportTable
from tui.dashboard.kit.formatting import local_time, short_id
from tui.dashboard.kit.job_copy import CopiesJobs, JobRef, job_copy_bindings
from tui.dashboard.kit.job_follow import DEFAULT_POLL_SECONDS, FollowsAJob, JobWidgets, PageTable, crawl_error
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.hyperlink import linked
from tui.dashboard.kit.widgets.live_table import Cell, LiveTable, Squeeze
from tui.dashboard.shell.intents import AskSupport, ExportRows, OpenDocument

COLUMNS = ("status", "result", "url", "error")


def failed(document: Document) -> bool:
    """Whether the page of `document` could not be scraped (an HTTP error, or an error the service names)."""
    code = document.metadata.status_code
    return bool(document.metadata.error) or (code is not None and code >= 400)


def url_rows(status: BatchScrapeStatus) -> list[tuple[str, tuple[str, str, Cell, str]]]:
    """Table rows (HTTP status, scraped or failed, url, error) of the batch's documents, keyed by position."""
    rows = []
    for index, document in enumerate(status.data):
        meta = document.metadata
        url = meta.url or meta.source_url or "?"
        code = str(meta.status_code) if meta.status_code is not None else "—"
        error = meta.error or ""
        if meta.code:
            error = f"{meta.code}: {error}" if error else meta.code
        rows.append((f"{index}:{url}", (code, "failed" if failed(document) else "scraped", linked(url, url), error)))
    return rows


EXPORT_COLUMNS = ("url", "http_status", "result", "code", "error")


def export_rows(batch_id: str, status: BatchScrapeStatus) -> ExportTable:
    """The batch's URLs as a list to export: whole URLs, the page's status, scraped or failed, code and error."""
    records = []
    for document in status.data:
        meta = document.metadata
        result = "failed" if failed(document) else "scraped"
        url = meta.url or meta.source_url
        records.append(
            {"url": url, "http_status": meta.status_code, "result": result, "code": meta.code, "error": meta.error}
        )
    return ExportTable(
        f"batch-{short_id(batch_id)}", f"Batch scrape {short_id(batch_id)}", EXPORT_COLUMNS, tuple(records)
    )


class BatchStatusScreen(FollowsAJob[BatchScrapeStatus], CopiesJobs, Screen[None]):
    """Progress, state, credits and per-URL results of one batch scrape.

    `invalid_urls`: the URLs the start refused (listed, never scraped);
    `page_size`: documents asked per page (None: the service's default).
    """

    WIDGETS: ClassVar[JobWidgets] = JobWidgets(
        "Batch",
        "#batch-state",
        "#batch-credits",
        "#batch-error",
        "It may have expired (a batch is kept 24 hours); what was shown stays. r tries again.",
    )

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="batch_status.close"),
        Binding("r", "reload", "Reload", id="batch_status.reload"),
        Binding("a", "ask_support", "Ask support", id="batch_status.ask_support"),
        *job_copy_bindings("batch_status"),
        Binding("s", "export", "Export", id="batch_status.export"),
    ]

    DEFAULT_CSS = """
    BatchStatusScreen { layout: vertical; }
    BatchStatusScreen .batch-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    BatchStatusScreen .batch-error { color: $error; padding: 0 1; height: auto; }
    BatchStatusScreen .batch-facts {
        grid-size: 4; grid-columns: auto 1fr auto 1fr; grid-gutter: 0 2;
        height: auto; padding: 0 1; margin-bottom: 1;
    }
    BatchStatusScreen .fact-name { color: $text-muted; text-style: bold; }
    BatchStatusScreen #batch-state.-failed { color: $error; text-style: bold; }
    BatchStatusScreen #batch-state.-completed { color: $success; text-style: bold; }
    BatchStatusScreen .batch-progress { height: 1; padding: 0 1; margin-bottom: 1; }
    /* Direct children only: the bar's percentage is a Label too (see crawl_status). */
    BatchStatusScreen .batch-progress > Label { width: auto; margin-right: 2; }
    BatchStatusScreen #batch-invalid { color: $warning; padding: 0 1; height: auto; max-height: 4; margin-bottom: 1; }
    BatchStatusScreen #batch-urls { height: 1fr; margin: 0 1; }
    """

    def __init__(
        self,
        client: WdsClient,
        batch_id: str,
        *,
        invalid_urls: Sequence[str] = (),
        clock: Clock = system_clock,
        interval: float = DEFAULT_POLL_SECONDS,
        page_size: int | None = None,
    ) -> None:
        super().__init__()
        self.client = client
        self.batch_id = self.job_id = batch_id
        self.invalid_urls = tuple(invalid_urls)
        self.clock = clock
        self.interval = interval
        self.page_size = page_size
        self.pages = 0  # pages of documents the last look took

    def compose(self) -> ComposeResult:
        yield Label(f"Batch scrape {short_id(self.batch_id)}", classes="batch-title", markup=False)
        error = Static("", id="batch-error", classes="batch-error", markup=False)
        error.display = False
        yield error
        with Grid(classes="batch-facts"):
            yield Label("status", classes="fact-name")
            yield Label("loading…", id="batch-state")
            yield Label("credits used", classes="fact-name")
            yield Label("—", id="batch-credits")
            yield Label("URLs", classes="fact-name")
            yield Label("—", id="batch-counts")
            yield Label("expires at", classes="fact-name")
            yield Label("—", id="batch-expires")
        with Horizontal(classes="batch-progress"):
            yield Label("progress", classes="fact-name")
            bar = ProgressBar(total=None, show_eta=False, id="batch-progress")
            bar.display = False  # an indeterminate bar animates for ever; wait for the total
            yield bar
        invalid = Static(shown(self._invalid_text()), id="batch-invalid")  # the URLs as the service refused them
        invalid.display = bool(self.invalid_urls)
        yield invalid
        yield PageTable(*COLUMNS, id="batch-urls", squeeze=(Squeeze("url", 28), Squeeze("error", 16)))
        yield Footer()

    def _invalid_text(self, accepted: int | None = None) -> str:
        count = len(self.invalid_urls)
        if not count:
            return ""
        head = f"{accepted:,} accepted · " if accepted is not None else ""
        return f"{head}{count:,} URL{'' if count == 1 else 's'} refused as invalid, not scraped: " + " · ".join(
            self.invalid_urls
        )

    def on_mount(self) -> None:
        self.refresh_data()

    @property
    def status(self) -> BatchScrapeStatus | None:
        """The batch as last fetched, with the documents of every page."""
        return self.data

    # --- live data ------------------------------------------------------------------

    async def fetch(self) -> BatchScrapeStatus:
        status, self.pages = await fetch_whole_status(self.client, self.batch_id, page_size=self.page_size)
        return status

    def show_job(self, status: BatchScrapeStatus) -> None:
        total = f"{status.total:,}" if status.total else "?"
        counts = f"{status.completed:,} / {total} done"
        failures = sum(1 for document in status.data if failed(document))
        if failures:
            counts += f" · {failures:,} failed"
        if self.pages > 1:
            counts += f" · {self.pages} pages"
        self.query_one("#batch-counts", Label).update(counts)
        self.query_one("#batch-expires", Label).update(local_time(status.expires_at))
        bar = self.query_one("#batch-progress", ProgressBar)
        if status.total > 0:
            bar.display = True
            bar.update(total=status.total, progress=status.completed)
        if self.invalid_urls:
            self.query_one("#batch-invalid", Static).update(shown(self._invalid_text(status.total)))
        self.query_one("#batch-urls", PageTable).sync(url_rows(status))
        self.refresh_bindings()  # Export is offered once there are rows

    # --- actions ---------------------------------------------------------------------

    def job_to_copy(self) -> JobRef:
        return JobRef("batch_scrape", self.batch_id)  # the rows are the batch's pages: the job is the batch

    def action_close(self) -> None:
        self.dismiss(None)

    def action_reload(self) -> None:
        self.refresh_data()

    @mutates("asking support")
    def action_ask_support(self) -> None:
        """Ask the app for the support screen, prefilled with this batch's state and trouble."""
        status = self.data
        state = str(status.status) if status is not None else None
        error = crawl_error(status) if status is not None else self.failure
        target = None
        if status is not None and status.data:
            target = status.data[0].metadata.source_url or status.data[0].metadata.url
        self.post_message(AskSupport(self.batch_id, "batch_scrape", status=state, error=error, target=target))

    def action_export(self) -> None:
        """Export the batch's rows (every URL the last look read)."""
        if self.data is not None:
            self.post_message(ExportRows(export_rows(self.batch_id, self.data)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "export":
            return True if self.data is not None and self.data.data else None
        return super().check_action(action, parameters)

    @on(LiveTable.RowSelected, "#batch-urls")
    def _row_selected(self, event: LiveTable.RowSelected) -> None:
        event.stop()
        self.open_document(int(str(event.row_key).split(":", 1)[0]))

    def open_document(self, index: int) -> None:
        """Ask for the `index`-th URL's document, full screen."""
        status = self.data
        if status is None or not 0 <= index < len(status.data):
            return
        title = f"Batch {short_id(self.batch_id)} · URL {index + 1} of {len(status.data)}"
        self.post_message(OpenDocument(status.data[index], title))
