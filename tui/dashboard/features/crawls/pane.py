"""The "Active crawls" pane: the team's running crawls (`GET /v2/crawl/active`), how far they are, how they ended.

One row per crawl: its progress (pages done of the total, and a small bar
drawn with characters, readable without colour), its start and its main
options. A crawl that ended stays a few minutes marked completed, failed or
cancelled (`tui.dashboard.features.crawls.tracker` keeps that memory across polls). Enter
opens the crawl's live status screen; x cancels the highlighted crawl after
a confirmation.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.widgets import Static

from tui.api.errors import APIStatusError, NotFoundError, WdsError
from tui.contract.models import ActiveCrawlOptions
from tui.contract.models.crawl import CrawlStatus
from tui.dashboard.features.crawls.live_crawls import LiveCrawls
from tui.dashboard.features.crawls.tracker import CrawlTracker, Progress, TrackedCrawl
from tui.dashboard.kit.formatting import bare_url, clip, clock_time, middle_clip, short_id
from tui.dashboard.kit.job_copy import CopiesJobs, JobRef, job_copy_bindings
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import visible
from tui.dashboard.kit.pane import Pane
from tui.dashboard.kit.status_look import UNKNOWN, look_of, state_text
from tui.dashboard.kit.widgets.hyperlink import linked
from tui.dashboard.kit.widgets.live_table import Drop, LiveTable, Shorten, Squeeze
from tui.dashboard.kit.widgets.table_fit import without_seconds
from tui.dashboard.shell.intents import Confirm, OpenCrawl

BAR_CELLS = 6
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
ERROR_CELL_WIDTH = 48
"""A progress cell that carries an error reason is cut here; the status screen (Enter) says it all."""
WARNING = "yellow"  # an ANSI colour, as in tui.dashboard.kit.status_look
NO_CANCEL = 'this service does not support cancelling crawls (it answered 405 "method not allowed")'


def _format_name(fmt: Any) -> str:
    if isinstance(fmt, dict):
        return str(fmt.get("type", "?"))
    return str(fmt)


def options_summary(options: ActiveCrawlOptions) -> str:
    """The options that shape a crawl, compactly: `limit 50 · depth 2 · +/blog · -/tag · markdown`."""
    parts: list[str] = []
    if options.limit is not None:
        parts.append(f"limit {options.limit}")
    if options.max_depth is not None:
        parts.append(f"depth {options.max_depth}")
    if options.include_paths:
        parts.append("+" + ",".join(options.include_paths))
    if options.exclude_paths:
        parts.append("-" + ",".join(options.exclude_paths))
    formats = options.scrape_options.formats if options.scrape_options is not None else None
    if formats:
        parts.append(",".join(_format_name(fmt) for fmt in formats))
    return " · ".join(parts) if parts else "defaults"


def progress_bar(completed: int, total: int, cells: int = BAR_CELLS) -> str:
    """`▰▰▱▱▱▱`: the share of pages done in `cells` characters.

    A crawl under way never shows an empty or a full bar: one page done
    fills a cell, one page missing leaves one.
    """
    if total <= 0:
        return "▱" * cells
    filled = round(cells * min(completed, total) / total)
    if 0 < completed < total:
        filled = min(max(filled, 1), cells - 1)
    return "▰" * filled + "▱" * (cells - filled)


def counts(progress: Progress) -> str:
    """`12/50`; `12/?` while the service does not know the total."""
    return f"{progress.completed}/{progress.total if progress.total > 0 else '?'}"


def progress_cell(tracked: TrackedCrawl) -> Text:
    """The pages column: `◌ 12/50 ▰▱▱▱▱▱` while running, `✓ completed 50/50` once ended.

    A failed status call is marked `⚠` with its reason and the last progress
    known; a crawl whose end could not be learned says so.
    """
    progress = tracked.progress
    if progress is not None and progress.finished:
        return state_text(progress.state) + f" {counts(progress)}"
    if tracked.gone:
        return Text(f"{UNKNOWN.symbol} ended · no longer on the service", style="dim")
    if tracked.left_at is not None and (progress is None or tracked.error is not None):
        reason = f": {visible(tracked.error)}" if tracked.error else ""
        return Text(clip(f"⚠ ended · state unknown{reason}", ERROR_CELL_WIDTH), style=WARNING)
    done = f"{counts(progress)} {progress_bar(progress.completed, progress.total)}" if progress else None
    if tracked.error is not None:
        said = f"{done} · {visible(tracked.error)}" if done else visible(tracked.error)
        return Text(clip(f"⚠ {said}", ERROR_CELL_WIDTH), style=WARNING)
    look = look_of(progress.state if progress else "scraping")
    return Text(f"{look.symbol} {done or '…'}", style=look.style)  # "…": listed, not asked about yet


def crawl_row(tracked: TrackedCrawl, now: datetime) -> tuple[str, tuple[str, Text, str | Text, str, str]]:
    """One table row for a crawl, keyed by its full id."""
    crawl = tracked.crawl
    cells = (
        short_id(crawl.id),
        progress_cell(tracked),
        linked(bare_url(crawl.url), crawl.url),
        clock_time(crawl.created_at, now),
        options_summary(crawl.options),
    )
    return crawl.id, cells


class CrawlTable(LiveTable):
    """The crawls table; Enter opens the highlighted crawl (and says so in the footer)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Status", id="crawl_table.select_cursor")
    ]


class CrawlsPane(Pane[tuple[TrackedCrawl, ...]], CopiesJobs):
    """Crawls running now with their progress, and those that just ended; Enter follows one live, x cancels."""

    TITLE = "Active crawls"
    BINDINGS: ClassVar[list[BindingType]] = [
        # Shadowed by the table's own Enter while it has focus; here for the command palette.
        Binding("enter", "open_selected", "Crawl status", show=False, id="crawls.open_selected"),
        Binding("x", "cancel_crawl", "Cancel crawl", id="crawls.cancel_crawl"),
        *job_copy_bindings("crawls"),
    ]

    keys_state: reactive[tuple[bool | None, ...]] = reactive((), bindings=True, init=False)
    """What `check_action` answers now (open, cancel): a change redraws the keys."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tracker = CrawlTracker()
        self.live = LiveCrawls(self.client, self.tracker, self)  # the first running crawls, over the WebSocket

    def compose(self) -> ComposeResult:
        # "pages", not "progress": the headers alone must fit a quarter of an 80-column screen.
        yield CrawlTable("id", "pages", "url", "started", "options", id="crawls-table", squeeze=SQUEEZE)
        empty = Static("No crawls running", id="crawls-empty", classes="empty-state")
        empty.display = False  # until a fetch says so: "no data yet" is not "no crawls"
        yield empty
        yield from self.compose_status()

    async def fetch(self) -> tuple[TrackedCrawl, ...]:
        active = (await self.client.crawl.active()).crawls
        rows = await self.tracker.update(active, self.clock(), self._status)
        self.live.follow([tracked.crawl.id for tracked in rows if tracked.running])
        return rows

    async def _status(self, crawl_id: str) -> CrawlStatus:
        if (pushed := self.live.latest(crawl_id)) is not None:
            return pushed  # followed live: the socket has the news already
        # One document, not the default hundred: the pane reads the counts only.
        return await self.client.crawl.get(crawl_id, limit=1)

    def show(self, data: tuple[TrackedCrawl, ...]) -> bool:
        table = self.query_one(CrawlTable)
        now = self.clock()
        changed = table.sync([crawl_row(tracked, now) for tracked in data])
        changed = self.show_empty(table, self.query_one("#crawls-empty", Static), not data) or changed
        self._note_keys()  # the highlighted crawl may have ended: x comes or goes
        return changed

    def crawl_by_id(self, crawl_id: str) -> TrackedCrawl | None:
        """The crawl of the last good fetch with this id (running, or ended a moment ago)."""
        return next((tracked for tracked in self.data or () if tracked.crawl.id == crawl_id), None)

    def selected_crawl(self) -> TrackedCrawl | None:
        """The crawl under the table's cursor."""
        key = self.query_one(CrawlTable).selected_key()
        return self.crawl_by_id(str(key)) if key is not None else None

    def job_to_copy(self) -> JobRef | None:
        tracked = self.selected_crawl()
        return JobRef("crawl", tracked.crawl.id) if tracked is not None else None

    # --- opening a crawl ------------------------------------------------------------

    @on(CrawlTable.RowSelected, "#crawls-table")
    def _row_selected(self, event: CrawlTable.RowSelected) -> None:
        event.stop()
        self.open_crawl(str(event.row_key))

    def action_open_selected(self) -> None:
        key = self.query_one(CrawlTable).selected_key()
        if key is not None:
            self.open_crawl(str(key))

    @on(CrawlTable.RowHighlighted, "#crawls-table")
    def _row_highlighted(self) -> None:
        self._note_keys()  # x only on a crawl that runs

    def _note_keys(self) -> None:
        self.keys_state = (self.check_action("open_selected", ()), self.check_action("cancel_crawl", ()))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("open_selected", "copy_job_id", "copy_job_url"):
            return True if self.data else None
        if action == "cancel_crawl":
            selected = self.selected_crawl()
            return selected is not None and selected.running
        return True

    def open_crawl(self, crawl_id: str) -> None:
        """Ask for the live status screen of one crawl."""
        tracked = self.crawl_by_id(crawl_id)
        self.post_message(OpenCrawl(crawl_id, tracked.crawl.url if tracked is not None else None))

    # --- cancelling a crawl -------------------------------------------------------------

    @mutates("cancelling a crawl")
    def action_cancel_crawl(self) -> None:
        """Ask, then cancel the highlighted crawl."""
        tracked = self.selected_crawl()
        if tracked is None or not tracked.running:
            return
        crawl = tracked.crawl
        done = f"{counts(tracked.progress)} pages done. " if tracked.progress is not None else ""
        # Short lines: the dialog does not wrap, and must read whole on an 80-column screen.
        question = (
            f"Stop crawl {short_id(crawl.id)} of {middle_clip(bare_url(crawl.url), 30)}?\n"
            f"{done}The pages scraped so far stay;\n"
            "the rest are not scraped. This cannot be undone."
        )
        self.post_message(Confirm(question, "Stop crawl", partial(self.cancel_crawl, crawl.id)))

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
        said = "cancelled" if state == "cancelled" else f"had already ended ({state})"
        self.notify(f"{name} {said}", title="Cancel crawl")
        self.data = self.tracker.rows
        self.show(self.data)  # at once: the next poll may be a while
        self.refresh_data()
