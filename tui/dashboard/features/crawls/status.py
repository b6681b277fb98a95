"""The status of one crawl (`GET /v2/crawl/{id}`), followed live until it finishes.

Polled like a pane (`tui.dashboard.kit.widgets.live.LiveData`): the next fetch only after
the previous one has finished, none while another screen covers this one, and
none once the crawl is completed, failed or cancelled (r asks again). A
failed fetch keeps what is on screen, marked stale with the reason under the
title. Enter on a page opens that page's document; `a` asks the support agent
about the crawl, with what this screen knows of it.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal
from textual.screen import Screen
from textual.widgets import Label, ProgressBar, Static

from tui.api.client import WdsClient
from tui.contract.models import CrawlStatus
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.kit.formatting import local_time, short_id
from tui.dashboard.kit.job_follow import DEFAULT_POLL_SECONDS, FollowsAJob, JobWidgets, PageTable, crawl_error
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.hyperlink import linked, links_on, titled_link
from tui.dashboard.kit.widgets.live_table import Cell, LiveTable
from tui.dashboard.shell.intents import AskSupport, OpenDocument


def page_rows(status: CrawlStatus) -> list[tuple[str, tuple[str, Cell, str]]]:
    """Table rows (status code, url, title) of the crawl's pages, keyed by position.

    The narrow status code goes first so it stays in view on an 80-column screen.
    """
    rows = []
    for index, document in enumerate(status.data):
        meta = document.metadata
        url = meta.url or meta.source_url or "?"
        code = str(meta.status_code) if meta.status_code is not None else "—"
        rows.append((f"{index}:{url}", (code, linked(url, url), meta.title or "")))
    return rows


class CrawlStatusScreen(FollowsAJob[CrawlStatus], Screen[None]):
    """Progress, status, credits and pages of one crawl."""

    WIDGETS: ClassVar[JobWidgets] = JobWidgets(
        "Crawl", "#crawl-status", "#crawl-credits", "#crawl-error", "It may have expired; r tries again."
    )

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="crawl_status.close"),
        Binding("r", "reload", "Reload", id="crawl_status.reload"),
        Binding("a", "ask_support", "Ask support", id="crawl_status.ask_support"),
    ]

    DEFAULT_CSS = """
    CrawlStatusScreen { layout: vertical; }
    CrawlStatusScreen .crawl-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    CrawlStatusScreen .crawl-error { color: $error; padding: 0 1; height: auto; }
    CrawlStatusScreen .crawl-facts {
        grid-size: 4; grid-columns: auto 1fr auto 1fr; grid-gutter: 0 2;
        height: auto; padding: 0 1; margin-bottom: 1;
    }
    CrawlStatusScreen .fact-name { color: $text-muted; text-style: bold; }
    CrawlStatusScreen #crawl-status.-failed { color: $error; text-style: bold; }
    CrawlStatusScreen #crawl-status.-completed { color: $success; text-style: bold; }
    CrawlStatusScreen .crawl-progress { height: 1; padding: 0 1; margin-bottom: 1; }
    /* Direct children only: the bar's own percentage is a Label too, and `width: auto`
       would freeze it at its first width ("67%"), cutting "100%" to "100". */
    CrawlStatusScreen .crawl-progress > Label { width: auto; margin-right: 2; }
    CrawlStatusScreen #crawl-pages { height: 1fr; margin: 0 1; }
    """

    def __init__(
        self,
        client: WdsClient,
        crawl_id: str,
        *,
        url: str | None = None,
        clock: Clock = system_clock,
        interval: float = DEFAULT_POLL_SECONDS,
    ) -> None:
        super().__init__()
        self.client = client
        self.crawl_id = self.job_id = crawl_id
        self.url = url
        self.clock = clock
        self.interval = interval

    def compose(self) -> ComposeResult:
        title = titled_link(f"Crawl {short_id(self.crawl_id)}", self.url, enabled=links_on(self.app))
        yield Label(title, classes="crawl-title")
        error = Static("", id="crawl-error", classes="crawl-error", markup=False)
        error.display = False
        yield error
        with Grid(classes="crawl-facts"):
            yield Label("status", classes="fact-name")
            yield Label("loading…", id="crawl-status")
            yield Label("credits used", classes="fact-name")
            yield Label("—", id="crawl-credits")
            yield Label("pages", classes="fact-name")
            yield Label("—", id="crawl-counts")
            yield Label("expires at", classes="fact-name")
            yield Label("—", id="crawl-expires")
        with Horizontal(classes="crawl-progress"):
            yield Label("progress", classes="fact-name")
            bar = ProgressBar(total=None, show_eta=False, id="crawl-progress")
            bar.display = False  # an indeterminate bar animates for ever; wait for the total
            yield bar
        yield PageTable("status", "url", "title", id="crawl-pages")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_data()

    @property
    def status(self) -> CrawlStatus | None:
        """The crawl as last fetched."""
        return self.data

    # --- live data ------------------------------------------------------------------

    async def fetch(self) -> CrawlStatus:
        return await self.client.crawl.get(self.crawl_id)

    def show_job(self, status: CrawlStatus) -> None:
        total = str(status.total) if status.total else "?"
        counts = f"{status.completed} / {total}"
        if status.next:
            counts += f" (first {len(status.data)} listed)"
        self.query_one("#crawl-counts", Label).update(counts)
        self.query_one("#crawl-expires", Label).update(local_time(status.expires_at))
        bar = self.query_one("#crawl-progress", ProgressBar)
        if status.total > 0:
            bar.display = True
            bar.update(total=status.total, progress=status.completed)
        self.query_one("#crawl-pages", LiveTable).sync(page_rows(status))

    # --- actions ---------------------------------------------------------------------

    def action_close(self) -> None:
        self.dismiss(None)

    @mutates("asking support")
    def action_ask_support(self) -> None:
        """Ask the app for the support screen, prefilled with this crawl's state and trouble."""
        # Also before any answer came, or when none can come (a crawl the service no
        # longer knows is a fair question for support): then the failure is the error.
        status = self.data
        state = str(status.status) if status is not None else None
        error = crawl_error(status) if status is not None else self.failure
        self.post_message(AskSupport(self.crawl_id, "crawl", status=state, error=error, target=self.url))

    @on(LiveTable.RowSelected, "#crawl-pages")
    def _page_selected(self, event: LiveTable.RowSelected) -> None:
        event.stop()
        self.open_page(int(str(event.row_key).split(":", 1)[0]))

    def open_page(self, index: int) -> None:
        """Ask for the `index`-th listed page's document, full screen."""
        status = self.data
        if status is None or not 0 <= index < len(status.data):
            return
        title = f"Crawl {short_id(self.crawl_id)} · page {index + 1} of {len(status.data)}"
        self.post_message(OpenDocument(status.data[index], title))

    def action_reload(self) -> None:
        self.refresh_data()
