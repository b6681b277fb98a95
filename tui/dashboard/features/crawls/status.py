"""The status of one crawl (`GET /v2/crawl/{id}`), followed live until it finishes.

Where the service offers the crawl WebSocket, the screen follows the crawl
over it (`live_follow.follow_crawl`): each page as it is scraped, no polls,
"● live" on the "updates" line. Where it offers none, or after the
connection was lost more often than it is opened again, the screen polls, and
that line says "polling every 2 s" and why. Polled like a pane (`tui.dashboard.kit.widgets.live.LiveData`): the next fetch only after
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
from tui.dashboard.features.crawls.live_follow import RECONNECTS, Following, Reconnects, follow_crawl
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.kit.formatting import local_time, short_id
from tui.dashboard.kit.job_follow import DEFAULT_POLL_SECONDS, FollowsAJob, JobWidgets, PageTable, crawl_error
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.hyperlink import linked, links_on, titled_link
from tui.dashboard.kit.widgets.live import POLL_GROUP
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
    CrawlStatusScreen #crawl-follow { column-span: 3; }
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
        live: bool | None = None,
        reconnects: Reconnects = RECONNECTS,
    ) -> None:
        """`live`: follow over the WebSocket first (None: when the client opens sockets at all)."""
        super().__init__()
        self.client = client
        self.crawl_id = self.job_id = crawl_id
        self.url = url
        self.clock = clock
        self.interval = interval
        self.live = client.live_sockets if live is None else live
        self.reconnects = reconnects
        self.following = Following("connecting" if self.live else "polling")

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
            yield Label("updates", classes="fact-name")
            yield Label(self.following.describe(self.interval), id="crawl-follow")
        with Horizontal(classes="crawl-progress"):
            yield Label("progress", classes="fact-name")
            bar = ProgressBar(total=None, show_eta=False, id="crawl-progress")
            bar.display = False  # an indeterminate bar animates for ever; wait for the total
            yield bar
        yield PageTable("status", "url", "title", id="crawl-pages")
        yield Footer()

    def on_mount(self) -> None:
        if self.live:
            self.follow_live()
        else:
            self.refresh_data()

    @property
    def status(self) -> CrawlStatus | None:
        """The crawl as last fetched."""
        return self.data

    # --- live data ------------------------------------------------------------------

    async def fetch(self) -> CrawlStatus:
        return await self.client.crawl.get(self.crawl_id)

    def follow_live(self) -> None:
        """Follow over the WebSocket (a fresh catch-up), in place of polling: one of the two runs at a time."""
        work = self._follow_live()
        self.run_worker(work, name="live", group=POLL_GROUP, exclusive=True, exit_on_error=False)

    async def _follow_live(self) -> None:
        reconnects = self.reconnects
        outcome = await follow_crawl(
            self.client, self.crawl_id, deliver=self.take_pushed, note=self.show_following, reconnects=reconnects
        )
        self.show_following(outcome)
        if outcome.mode == "polling":
            self.refresh_data()  # this worker's group: it replaces this one

    def show_following(self, following: Following) -> None:
        """Say how the crawl is kept up to date (live, reconnecting, polling and why)."""
        self.following = following
        self.query_one("#crawl-follow", Label).update(shown(following.describe(self.interval)))

    def show_job(self, status: CrawlStatus) -> None:
        total = str(status.total) if status.total else "?"
        counts = f"{status.completed} / {total}"
        if status.next:
            counts += f" (first {len(status.data)} listed)"
        self.query_one("#crawl-counts", Label).update(counts)
        self.query_one("#crawl-expires", Label).update(local_time(status.expires_at))
        if self.following.mode == "live" and not status.is_finished and status.credits_used is not None:
            # A pushed page does not say what it cost: the catch-up's count is a floor until the final status.
            self.query_one("#crawl-credits", Label).update(f"≥ {status.credits_used:,}")
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
        if self.following.mode in ("connecting", "live", "reconnecting"):
            self.follow_live()  # a fresh catch-up; a poll beside the socket would be a second source
        else:
            self.refresh_data()
