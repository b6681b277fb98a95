"""The "Active crawls" pane: the team's running crawls (`GET /v2/crawl/active`).

One row per crawl with its main options in a compact form; Enter opens the
crawl's live status screen.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from tui.api.models import ActiveCrawl, ActiveCrawlOptions
from tui.formatting import bare_url, local_time, short_id
from tui.intents import OpenCrawl
from tui.panes.base import Pane
from tui.widgets.live_table import LiveTable


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


def crawl_row(crawl: ActiveCrawl) -> tuple[str, tuple[str, str, str, str]]:
    """One table row for a crawl, keyed by its full id."""
    started = local_time(crawl.created_at, "%H:%M:%S")
    return crawl.id, (short_id(crawl.id), bare_url(crawl.url), started, options_summary(crawl.options))


class CrawlTable(LiveTable):
    """The crawls table; Enter opens the highlighted crawl (and says so in the footer)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "select_cursor", "Status")]


class CrawlsPane(Pane[list[ActiveCrawl]]):
    """Crawls running now, with their options; Enter follows one live."""

    TITLE = "Active crawls"
    BINDINGS: ClassVar[list[BindingType]] = [
        # Shadowed by the table's own Enter while it has focus; here for the command palette.
        Binding("enter", "open_selected", "Crawl status", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield CrawlTable("id", "url", "started", "options", id="crawls-table")
        empty = Static("No crawls running", id="crawls-empty", classes="empty-state")
        empty.display = False  # until a fetch says so: "no data yet" is not "no crawls"
        yield empty
        yield from self.compose_status()

    async def fetch(self) -> list[ActiveCrawl]:
        return (await self.client.crawl.active()).crawls

    def show(self, data: list[ActiveCrawl]) -> bool:
        table = self.query_one(CrawlTable)
        changed = table.sync([crawl_row(crawl) for crawl in data])
        return self.show_empty(table, self.query_one("#crawls-empty", Static), not data) or changed

    def crawl_by_id(self, crawl_id: str) -> ActiveCrawl | None:
        """The crawl of the last good fetch with this id."""
        return next((crawl for crawl in self.data or [] if crawl.id == crawl_id), None)

    # --- opening a crawl ------------------------------------------------------------

    @on(DataTable.RowSelected, "#crawls-table")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.open_crawl(str(event.row_key.value))

    def action_open_selected(self) -> None:
        key = self.query_one(CrawlTable).selected_key()
        if key is not None:
            self.open_crawl(str(key))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open_selected":
            return True if self.data else None
        return True

    def open_crawl(self, crawl_id: str) -> None:
        """Ask for the live status screen of one crawl."""
        crawl = self.crawl_by_id(crawl_id)
        self.post_message(OpenCrawl(crawl_id, crawl.url if crawl is not None else None))
