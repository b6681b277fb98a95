"""The "Team activity" pane: the last 24 hours of API calls, a page at a time.

Paging follows the service's cursors. The pane keeps a stack of the cursors
that led to each page it visited, so "previous" is a pop and "page N" is the
stack's height; the automatic refresh re-fetches the page on top of the stack
and never moves the reader. Changing the filter or the page size starts again
at page 1 (a cursor belongs to one filter). Enter opens an entry's job through
the retrieval endpoint the contract maps its kind to.

The status column is filled for the rows a person can see, after each poll and
as rows scroll into view, by a `StatusChecker` (`tui.dashboard.features.activity.job_states`:
few requests at a time, finished states kept, 429 honoured). `e` looks through
the window for failed jobs with the same checker; `a` asks the support
agent about the highlighted job with what the row knows.

`t` cycles the time window (`tui.dashboard.features.activity.window`): 24 h
is the log paged as above; a shorter one lists the whole window at once. `c`
opens the triage of the window's failures, `s` exports what the list holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Select, Static

from tui.api.client import WdsClient
from tui.api.errors import BadRequestError
from tui.contract.limits import ACTIVITY_LIMIT_MAX, ACTIVITY_LIMIT_MIN
from tui.contract.models import ActivityEntry, ActivityPage
from tui.contract.requests import ACTIVITY_ENDPOINTS
from tui.dashboard.features.activity.job_states import StatusChecker
from tui.dashboard.features.activity.rows import ActivityTable, entry_row, export_table, keyed_entries, table_row
from tui.dashboard.features.activity.status_column import StatusColumn
from tui.dashboard.features.activity.window import MAX_ENTRIES, WHOLE_LOG, entries_since, next_window, window_text
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.kit.job_copy import CopiesJobs, JobRef, job_copy_bindings
from tui.dashboard.kit.monitor_feed import tell_monitor
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.pane import Pane
from tui.dashboard.shell.intents import AskSupport, ExportRows, OpenFailedJobs, OpenInteract, OpenJob, OpenTriage
from tui.dashboard.shell.sightings import ACTIVITY, JobSighting, JobsSeen

__all__ = ["ALL", "ActivityPane", "ActivityTable", "ShownPage", "entry_row", "keyed_entries"]

ALL = "all"
"""The filter value meaning "no endpoint filter"."""
PAGE_SIZES: tuple[int, ...] = (10, 25, 50, 100)
DEFAULT_PAGE_SIZE = 25


@dataclass(frozen=True)
class ShownPage:
    """A fetched page together with the query that produced it."""

    endpoint: str | None
    limit: int
    cursor: str | None
    number: int
    page: ActivityPage
    window: timedelta = WHOLE_LOG
    cut: bool = False  # a window of more than MAX_ENTRIES entries, cut there


class ActivityPane(Pane[ShownPage], StatusColumn, CopiesJobs):
    """Recent API calls of the team, filterable by kind, paged by cursor."""

    TITLE = "Team activity"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next_page", "Next page", id="activity.next_page"),
        Binding("b", "previous_page", "Prev page", id="activity.previous_page"),
        Binding("f", "focus_filter", "Filter", id="activity.focus_filter"),
        Binding("i", "interact", "Interact", id="activity.interact"),
        Binding("e", "failed_only", "Failed only", id="activity.failed_only"),
        Binding("a", "ask_support", "Ask support", id="activity.ask_support"),
        Binding("t", "cycle_window", "Window", id="activity.cycle_window"),
        Binding("c", "triage", "Triage", id="activity.triage"),
        Binding("s", "export", "Export", id="activity.export"),
        # Shadowed by the table's own Enter while it has focus; here for the command palette.
        Binding("enter", "open_selected", "Open job", show=False, id="activity.open_selected"),
        *job_copy_bindings("activity"),
    ]

    DEFAULT_CSS = """
    ActivityPane #activity-endpoint { width: 18; margin-right: 1; }
    ActivityPane #activity-size { width: 12; }
    """

    keys_state: reactive[tuple[object, ...]] = reactive((), bindings=True, init=False)
    """What `check_action` answers now (pages, interact, any entry, the window): a change redraws the keys."""

    def __init__(
        self,
        client: WdsClient,
        *,
        interval: float = 10.0,
        clock: Clock = system_clock,
        id: str | None = None,
        page_size: int = DEFAULT_PAGE_SIZE,
        statuses: StatusChecker | None = None,
        window: timedelta = WHOLE_LOG,
    ) -> None:
        super().__init__(client, interval=interval, clock=clock, id=id)
        self.border_subtitle = "page 1"
        self.window = window
        self.border_title = f"{self.TITLE} · last {window_text(window)}"
        if not ACTIVITY_LIMIT_MIN <= page_size <= ACTIVITY_LIMIT_MAX:
            raise ValueError(f"page_size must be {ACTIVITY_LIMIT_MIN} to {ACTIVITY_LIMIT_MAX}, not {page_size}")
        self.endpoint: str | None = None
        self.page_size = page_size
        # cursors[i] fetched page i + 1; page 1 has none. The top is the page on screen.
        self.cursors: list[str | None] = [None]
        self._entries: dict[str, ActivityEntry] = {}
        self.init_status_column(statuses or StatusChecker(client.jobs))

    # --- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        sizes = sorted({*PAGE_SIZES, self.page_size})
        with Horizontal(classes="pane-toolbar"):
            yield Select(
                [(ALL, ALL), *((kind, kind) for kind in ACTIVITY_ENDPOINTS)],
                value=ALL,
                allow_blank=False,
                compact=True,
                id="activity-endpoint",
                tooltip="Show one kind of call (f)",
            )
            yield Select(
                [(f"{size} rows", size) for size in sizes],
                value=self.page_size,
                allow_blank=False,
                compact=True,
                id="activity-size",
                tooltip="Entries per page",
            )
        yield ActivityTable(id="activity-table")
        empty = Static(self._empty_text(), id="activity-empty", classes="empty-state")
        empty.display = False
        yield empty
        yield from self.compose_status()

    def _empty_text(self) -> str:
        return (
            "No activity in the last 24 hours"
            if self.window == WHOLE_LOG
            else f"No activity in the last {window_text(self.window)}"
        )

    def focus_first(self) -> None:
        """Focus the entries (the filter is one key away: f)."""
        self.query_one(ActivityTable).focus()

    # --- fetching -------------------------------------------------------------------

    @property
    def page_number(self) -> int:
        """The page the reader is on (1 for the newest entries)."""
        return len(self.cursors)

    async def fetch(self) -> ShownPage:
        # `endpoint` is always one of ACTIVITY_ENDPOINTS (it comes from the Select), or None.
        endpoint: Any = self.endpoint
        limit, cursor = self.page_size, self.cursors[-1]
        if self.window != WHOLE_LOG:
            window = self.window
            found = await entries_since(self.client.team, endpoint, self.clock() - window)
            page = ActivityPage(data=list(found.entries))
            return ShownPage(endpoint, limit, None, 1, page, window, found.cut)
        try:
            page = await self.client.team.activity(endpoint=endpoint, limit=limit, cursor=cursor)
        except BadRequestError as exc:
            if cursor is None:
                raise
            # A cursor the service no longer takes (expired, or from another filter): start over.
            self.cursors = [None]
            self.notify(f"The service refused the page cursor ({exc.message}); back to page 1.", severity="warning")
            cursor = None
            page = await self.client.team.activity(endpoint=endpoint, limit=limit)
        return ShownPage(endpoint, limit, cursor, len(self.cursors), page)

    def show(self, data: ShownPage) -> bool:
        keyed = keyed_entries(data.page.entries)
        self._entries = dict(keyed)
        self.forget_statuses_of_gone_rows()
        table = self.query_one(ActivityTable)
        changed = self._draw_rows()
        changed |= self.show_empty(table, self.query_one("#activity-empty", Static), not keyed)
        changed |= self._update_page_label()
        self._refresh_keys()
        self._check_statuses(restart=True)
        self._tell_jobs_seen(data.page.entries)
        return changed

    def _tell_jobs_seen(self, entries: list[ActivityEntry]) -> None:
        """The jobs on this page, told to the app: `g` then knows their kinds, and the crawls pane
        hears of the crawls and batches, even those that ended between its polls."""
        seen = tuple(
            JobSighting(entry.endpoint, entry.id, ACTIVITY, url=entry.target, at=entry.created_at, started=True)
            for entry in entries
        )
        tell_monitor(self, lambda monitor: monitor.saw_activity(entries))  # the journal keeps every call
        if seen:
            self.post_message(JobsSeen(seen))

    def show_again(self, data: ShownPage) -> bool:
        # No rows to rebuild, but "…" goes when the page asked for is back,
        # and unfinished jobs are asked about again, once per poll.
        changed = self._update_page_label()
        self._refresh_keys()
        self._check_statuses(restart=False)
        return changed

    def _draw_rows(self) -> bool:
        now = self.clock()
        rows = [(key, table_row(entry, now, self.status_of(key))) for key, entry in self._entries.items()]
        return self.query_one(ActivityTable).sync(rows)

    def _refresh_keys(self) -> None:
        """Note what `check_action` answers now: the footer is redrawn only when that changed (it costs bytes)."""
        self.keys_state = (
            self._can_go_next(),
            self.page_number > 1,
            self.check_action("interact", ()),
            bool(self._entries),
            self.window,  # a window hides the page keys
        )

    def _is_current(self, shown: ShownPage | None) -> bool:
        """Whether `shown` answers the query the pane is now on (not a page still loading)."""
        return shown is not None and (shown.endpoint, shown.limit, shown.cursor, shown.number, shown.window) == (
            self.endpoint,
            self.page_size,
            self.cursors[-1],
            self.page_number,
            self.window,
        )

    def _update_page_label(self) -> bool:
        """Say which page this is, and whether more follow (or how many entries a window holds), in the bottom border."""
        text = f"page {self.page_number}"
        if not self._is_current(self.data):
            text = "…" if self.window != WHOLE_LOG else f"{text} …"
        elif self.data is not None and self.window != WHOLE_LOG:
            count = len(self.data.page.entries)
            text = f"{count:,} entr{'y' if count == 1 else 'ies'}" + (
                f" · cut at {MAX_ENTRIES:,}" if self.data.cut else ""
            )
        elif self.data is not None and self.data.page.next_cursor:
            text += " · more (n)"
        else:
            text += " · last"
        if self._status_paused:
            text += " · status paused: rate limited"
        if self.border_subtitle == text:
            return False
        self.border_subtitle = text
        return True

    def _go_to(self, cursors: list[str | None]) -> None:
        self.cursors = cursors
        self._update_page_label()
        self._refresh_keys()
        self.refresh_data()

    # --- controls ---------------------------------------------------------------------

    @on(Select.Changed, "#activity-endpoint")
    def _endpoint_changed(self, event: Select.Changed) -> None:
        event.stop()
        endpoint = None if event.value in (ALL, Select.BLANK) else str(event.value)
        if endpoint != self.endpoint:
            self.endpoint = endpoint
            self._go_to([None])

    @on(Select.Changed, "#activity-size")
    def _size_changed(self, event: Select.Changed) -> None:
        event.stop()
        if isinstance(event.value, int) and event.value != self.page_size:
            self.page_size = event.value
            self._go_to([None])

    def _can_go_next(self) -> bool:
        return self._is_current(self.data) and self.data is not None and self.data.page.next_cursor is not None

    def selected_entry(self) -> ActivityEntry | None:
        """The entry under the table's cursor."""
        if not self._entries:  # also: not composed yet, when the footer asks early
            return None
        key = self.query_one(ActivityTable).selected_key()
        return self._entries.get(str(key)) if key is not None else None

    @on(ActivityTable.RowHighlighted, "#activity-table")
    def _row_highlighted(self, event: ActivityTable.RowHighlighted) -> None:
        self._refresh_keys()  # "Interact" depends on the kind of the highlighted entry

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("next_page", "previous_page") and self.window != WHOLE_LOG:
            return False  # a window is listed whole: no pages, and their keys leave room in the footer
        if action == "next_page":
            return True if self._can_go_next() else None
        if action == "previous_page":
            return True if self.page_number > 1 else None
        if action == "interact":
            entry = self.selected_entry()
            return True if entry is not None and entry.endpoint == "scrape" else None
        if action in ("open_selected", "ask_support", "copy_job_id", "copy_job_url"):
            return True if self.selected_entry() is not None else None
        if action == "export":
            return True if self._entries else None
        return True

    def job_to_copy(self) -> JobRef | None:
        entry = self.selected_entry()
        return JobRef(entry.endpoint, entry.id) if entry is not None else None

    def action_next_page(self) -> None:
        if self._can_go_next():
            assert self.data is not None
            self._go_to([*self.cursors, self.data.page.next_cursor])

    def action_previous_page(self) -> None:
        if self.page_number > 1:
            self._go_to(self.cursors[:-1])

    def action_cycle_window(self) -> None:
        """Show the next time window: 15 min, 1 h, 6 h, 24 h."""
        self.window = next_window(self.window)
        self.border_title = f"{self.TITLE} · last {window_text(self.window)}"
        self.query_one("#activity-empty", Static).update(self._empty_text())
        self._go_to([None])

    def action_triage(self) -> None:
        """Group the window's failures by cause."""
        self.post_message(OpenTriage(self.endpoint, self.statuses, self.window))

    def action_export(self) -> None:
        """Export the entries the list holds (the window, or the page on screen), with what their rows know."""
        rows = [(entry, self.status_of(key)) for key, entry in self._entries.items()]
        where = f"page {self.page_number}" if self.window == WHOLE_LOG else f"last {window_text(self.window)}"
        name = f"activity-{window_text(self.window).replace(' ', '')}"
        self.post_message(ExportRows(export_table(name, f"{self.TITLE} · {where}", rows)))

    def action_focus_filter(self) -> None:
        self.query_one("#activity-endpoint", Select).focus()

    @mutates("interacting with a scrape's browser")
    def action_interact(self) -> None:
        entry = self.selected_entry()
        if entry is not None and entry.endpoint == "scrape":
            self.post_message(OpenInteract(entry.id))

    def action_failed_only(self) -> None:
        """Look through the window (of the kind filtered on) for failed jobs."""
        self.post_message(OpenFailedJobs(self.endpoint, self.statuses, self.window))

    @mutates("asking support")
    def action_ask_support(self) -> None:
        """Ask the support agent about the highlighted job, with what its row knows."""
        entry = self.selected_entry()
        key = self.query_one(ActivityTable).selected_key()
        if entry is None or key is None:
            return
        status = self.status_of(key)
        state = status.state if status is not None else None
        error = status.error if status is not None else None
        self.post_message(AskSupport(entry.id, entry.endpoint, state, error, entry.target))

    # --- opening an entry ------------------------------------------------------------------

    @on(ActivityTable.RowSelected, "#activity-table")
    def _row_selected(self, event: ActivityTable.RowSelected) -> None:
        event.stop()
        entry = self._entries.get(str(event.row_key))
        if entry is not None:
            self.open_entry(entry)

    def action_open_selected(self) -> None:
        entry = self.selected_entry()
        if entry is not None:
            self.open_entry(entry)

    def open_entry(self, entry: ActivityEntry) -> None:
        """Ask for the entry's job (the screen says so when its kind has none to retrieve)."""
        self.post_message(OpenJob(entry.endpoint, entry.id, entry.target))
