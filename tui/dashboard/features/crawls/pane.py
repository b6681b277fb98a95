"""The "Active crawls" pane: crawls running now, and the crawls and batches that finished lately.

Running crawls come from `GET /v2/crawl/active`; the pane also hears of every
crawl and batch the rest of the dashboard sees (`JobsSeen`: the activity list,
the forms, the webhook inbox), so one that started and ended between two polls
still shows. `tui.dashboard.features.crawls.tracker` keeps that memory across
polls and asks each job's state; `tui.dashboard.features.crawls.rows` says how
it reads. Finished jobs stay in a "recent" section under the running ones, the
newest first, for the operator's `recent_window` (default 1 h). Enter opens a
crawl's (or batch's) live status screen; x cancels the highlighted running
crawl after a confirmation.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from functools import partial
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.widgets import Static

from tui.api.client import WdsClient
from tui.api.errors import APIStatusError, NotFoundError, WdsError
from tui.contract.models.common import JobStatus
from tui.dashboard.features.crawls.live_crawls import LiveCrawls
from tui.dashboard.features.crawls.monitor_told import ended_status, tell_crawl
from tui.dashboard.features.crawls.rows import RECENT_KEY, border_count, counts, table_rows
from tui.dashboard.features.crawls.tracker import JobTracker, TrackedJob
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.kit.formatting import bare_url, middle_clip, short_id
from tui.dashboard.kit.job_copy import CopiesJobs, JobRef, job_copy_bindings
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.pane import Pane
from tui.dashboard.kit.widgets.live_table import Drop, LiveTable, Shorten, Squeeze
from tui.dashboard.kit.widgets.table_fit import without_seconds
from tui.dashboard.shell.intents import Confirm, OpenBatch, OpenCrawl
from tui.dashboard.shell.sightings import BATCH, CRAWL, RECENT_WINDOW, JobSighting

SQUEEZE = (
    Squeeze("options", 12),
    Squeeze("url", 16),
    Shorten("started", without_seconds),
    Drop("options"),
    Drop("started"),
    Drop("id"),
    Squeeze("url", 8),
    Squeeze("pages", 16),
)
"""How the columns give way in a narrow pane, in order: the progress and the URL stay (zoom shows all)."""
NO_CANCEL = 'this service does not support cancelling crawls (it answered 405 "method not allowed")'


class CrawlTable(LiveTable):
    """The crawls table; Enter opens the highlighted crawl or batch (and says so in the footer)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Status", id="crawl_table.select_cursor")
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select_cursor" and self.selected_key() == RECENT_KEY:
            return False  # the recent section's heading opens nothing: Enter leaves the footer
        return super().check_action(action, parameters)


class CrawlsPane(Pane[tuple[TrackedJob, ...]], CopiesJobs):
    """Crawls running now with their progress, and the crawls and batches that ended lately; Enter follows one live, x cancels."""

    TITLE = "Active crawls"
    BINDINGS: ClassVar[list[BindingType]] = [
        # Shadowed by the table's own Enter while it has focus; here for the command palette.
        Binding("enter", "open_selected", "Crawl status", show=False, id="crawls.open_selected"),
        Binding("x", "cancel_crawl", "Cancel crawl", id="crawls.cancel_crawl"),
        *job_copy_bindings("crawls"),
    ]

    keys_state: reactive[tuple[bool | None, ...]] = reactive((), bindings=True, init=False)
    """What `check_action` answers now (open, cancel): a change redraws the keys."""

    def __init__(
        self,
        client: WdsClient,
        *,
        interval: float = 5.0,
        clock: Clock = system_clock,
        id: str | None = None,
        recent_window: timedelta = RECENT_WINDOW,
    ) -> None:
        super().__init__(client, interval=interval, clock=clock, id=id)
        self.tracker = JobTracker(window=recent_window)
        self.live = LiveCrawls(self.client, self.tracker, self)  # the first running crawls, over the WebSocket

    def compose(self) -> ComposeResult:
        # "pages", not "progress": the headers alone must fit a quarter of an 80-column screen.
        yield CrawlTable("id", "pages", "url", "started", "options", id="crawls-table", squeeze=SQUEEZE)
        empty = Static("No crawls running", id="crawls-empty", classes="empty-state")
        empty.display = False  # until a fetch says so: "no data yet" is not "no crawls"
        yield empty
        yield from self.compose_status()

    async def fetch(self) -> tuple[TrackedJob, ...]:
        active = (await self.client.crawl.active()).crawls
        rows = await self.tracker.update(active, self.clock(), self._status)
        self.live.follow([tracked.id for tracked in rows if tracked.kind == CRAWL and tracked.running])
        return rows

    async def _status(self, kind: str, job_id: str) -> JobStatus:
        tracked = self.tracker.get(job_id)
        # Only for a crawl still listed: a status pushed before it left the list says it runs.
        pushed = self.live.latest(job_id) if kind == CRAWL and tracked is not None and tracked.listed else None
        if pushed is not None:
            return pushed  # followed live: the socket has the news already (told to the monitor as it came)
        # One document, not the default hundred: the pane reads the counts only.
        status: JobStatus
        if kind == BATCH:
            status = await self.client.batch.get(job_id, limit=1)
        else:
            status = await self.client.crawl.get(job_id, limit=1)
        tell_crawl(self, kind, job_id, status)
        return status

    def show(self, data: tuple[TrackedJob, ...]) -> bool:
        table = self.query_one(CrawlTable)
        changed = table.sync(table_rows(data, self.clock(), self.tracker.window))
        changed = self.show_empty(table, self.query_one("#crawls-empty", Static), not data) or changed
        changed = self._count_in_border() or changed
        self._note_keys()  # the highlighted crawl may have ended: x comes or goes
        return changed

    def _count_in_border(self) -> bool:
        # The border's corners and a blank either side take four cells.
        count = border_count(self.data or (), self.tracker.window, self.size.width - 4)
        if count == self.border_subtitle:
            return False
        self.border_subtitle = count
        return True

    def on_resize(self) -> None:
        self._count_in_border()  # long or short, as the new width allows

    def take_sightings(self, sightings: Iterable[JobSighting]) -> None:
        """Jobs the rest of the dashboard saw (`tui.dashboard.shell.sightings`): a new one is asked about soon.

        After the fetch in flight, which is not cancelled (a stream of webhook
        events would otherwise starve the pane); not while paused (the news is
        kept, and asked about on resuming).
        """
        if self.tracker.saw(sightings, self.clock()):
            self.fetch_soon()

    def job_by_id(self, job_id: str) -> TrackedJob | None:
        """The crawl or batch of the last good fetch with this id (running, or finished lately)."""
        return next((tracked for tracked in self.data or () if tracked.id == job_id), None)

    def selected_job(self) -> TrackedJob | None:
        """The job under the table's cursor (None on the recent section's heading)."""
        key = self.query_one(CrawlTable).selected_key()
        return self.job_by_id(str(key)) if key is not None else None

    def job_to_copy(self) -> JobRef | None:
        tracked = self.selected_job()
        return JobRef(tracked.kind, tracked.id) if tracked is not None else None

    # --- opening a job ------------------------------------------------------------

    @on(CrawlTable.RowSelected, "#crawls-table")
    def _row_selected(self, event: CrawlTable.RowSelected) -> None:
        event.stop()
        self.open_job(str(event.row_key))

    def action_open_selected(self) -> None:
        key = self.query_one(CrawlTable).selected_key()
        if key is not None:
            self.open_job(str(key))

    @on(CrawlTable.RowHighlighted, "#crawls-table")
    def _row_highlighted(self) -> None:
        self._note_keys()  # x only on a crawl that runs

    def _note_keys(self) -> None:
        self.keys_state = (self.check_action("open_selected", ()), self.check_action("cancel_crawl", ()))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("open_selected", "copy_job_id", "copy_job_url"):
            return True if self.selected_job() is not None else None
        if action == "cancel_crawl":
            selected = self.selected_job()
            return selected is not None and selected.kind == CRAWL and selected.running
        return True

    def open_job(self, job_id: str) -> None:
        """Ask for the live status screen of one crawl or batch (the heading row opens nothing)."""
        tracked = self.job_by_id(job_id)
        if tracked is None:
            return
        if tracked.kind == BATCH:
            self.post_message(OpenBatch(job_id))
        else:
            self.post_message(OpenCrawl(job_id, tracked.url))

    # --- cancelling a crawl -------------------------------------------------------------

    @mutates("cancelling a crawl")
    def action_cancel_crawl(self) -> None:
        """Ask, then cancel the highlighted crawl."""
        tracked = self.selected_job()
        if tracked is None or tracked.kind != CRAWL or not tracked.running:
            return
        done = f"{counts(tracked.progress)} pages done. " if tracked.progress is not None else ""
        where = f" of {middle_clip(bare_url(tracked.url), 30)}" if tracked.url else ""
        # Short lines: the dialog does not wrap, and must read whole on an 80-column screen.
        question = (
            f"Stop crawl {short_id(tracked.id)}{where}?\n"
            f"{done}The pages scraped so far stay;\n"
            "the rest are not scraped. This cannot be undone."
        )
        self.post_message(Confirm(question, "Stop crawl", partial(self.cancel_crawl, tracked.id)))

    @work(group="crawl-cancel", exit_on_error=False)
    async def cancel_crawl(self, crawl_id: str) -> None:
        """`DELETE /v2/crawl/{id}`; each way it can fail gets its own message."""
        name = f"crawl {short_id(crawl_id)}"
        try:
            answer = await self.client.crawl.cancel(crawl_id)
        except NotFoundError:
            gone = f"{name} not found: it is already gone from the service"
            self.notify(gone, title="Cancel crawl", severity="warning")
            self.refresh_data()
            return
        except APIStatusError as exc:
            message = NO_CANCEL if exc.status == 405 else f"{name} was not cancelled: {exc}"
            self.notify(message, title="Cancel crawl", severity="error", timeout=10)
            return
        except WdsError as exc:
            self.notify(f"{name} was not cancelled: {exc.message}", title=exc.title, severity="error", timeout=10)
            self.refresh_data()  # a timeout may still have cancelled it: the next answer tells
            return
        state = str(answer.status) if answer.status is not None else "cancelled"
        self.tracker.ended(crawl_id, state, self.clock())
        tell_crawl(self, CRAWL, crawl_id, ended_status(self.tracker.get(crawl_id), state))  # no poll asks again
        said = "cancelled" if state == "cancelled" else f"had already ended ({state})"
        self.notify(f"{name} {said}", title="Cancel crawl")
        self.data = self.tracker.rows
        self.show(self.data)  # at once: the next poll may be a while
        self.refresh_data()
