"""The failed-only view: a time window searched for failed jobs, a screenful at a time.

Opened from the activity pane (e), on the kind it is filtered on. The search
(`tui.dashboard.features.activity.failed_search.FailedJobsWalk`) shares the pane's status checker,
so what it learns fills the pane's status column too, and what the pane knew
costs nothing here. Esc stops a search in progress and keeps what it found; Esc
again goes back to the pane as it was. Enter opens a found job; a asks the
support agent about it; m looks further for the next screenful. t changes
the window (15 min, 1 h, 6 h, 24 h: the search starts again), c opens the
triage of the window's failures, s exports the jobs found.
"""

from __future__ import annotations

from datetime import timedelta
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Label, Static
from textual.worker import Worker

from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.dashboard.features.activity.failed_search import FailedJobsWalk, Found, WalkState
from tui.dashboard.features.activity.job_states import StatusChecker
from tui.dashboard.features.activity.rows import ActivityTable, export_table, table_row
from tui.dashboard.features.activity.window import WHOLE_LOG, next_window, window_text
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.kit.job_copy import CopiesJobs, JobRef, job_copy_bindings
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures
from tui.dashboard.shell.intents import AskSupport, ExportRows, OpenJob, OpenTriage

MIN_SCREENFUL = 5


class FailedJobsScreen(ForwardsWorkerFailures, CopiesJobs, Screen[None]):
    """Failed jobs of a time window (of one kind, or all), found by checking each entry's state."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "stop_search", "Stop search", id="failed_jobs.stop_search"),
        Binding("escape", "close", "Back", id="failed_jobs.close"),
        Binding("m", "more", "Find more", id="failed_jobs.more"),
        Binding("a", "ask_support", "Ask support", id="failed_jobs.ask_support"),
        *job_copy_bindings("failed_jobs"),
        Binding("t", "cycle_window", "Window", id="failed_jobs.cycle_window"),
        Binding("c", "triage", "Triage", id="failed_jobs.triage"),
        Binding("s", "export", "Export", id="failed_jobs.export"),
    ]

    DEFAULT_CSS = """
    FailedJobsScreen { layout: vertical; }
    FailedJobsScreen .failed-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    FailedJobsScreen #failed-progress { height: auto; padding: 0 1; color: $text-muted; }
    FailedJobsScreen #failed-progress.-error { color: $error; }
    FailedJobsScreen #failed-table { height: 1fr; }
    FailedJobsScreen #failed-empty { padding: 1 1; color: $text-muted; }
    FailedJobsScreen #failed-detail { height: auto; max-height: 5; padding: 0 1; border-top: solid $panel; }
    """

    walking: reactive[bool] = reactive(False, bindings=True, init=False)
    """Whether the search is going on (Esc stops it, else closes; m finds more once it is done)."""

    def __init__(
        self,
        client: WdsClient,
        statuses: StatusChecker,
        *,
        endpoint: str | None = None,
        clock: Clock = system_clock,
        window: timedelta = WHOLE_LOG,
    ) -> None:
        super().__init__()
        self.client = client
        self.clock = clock
        self.endpoint = endpoint
        self.client, self.statuses = client, statuses
        self.window = window
        self.walk = self._new_walk()
        self._worker: Worker[None] | None = None
        self._found: dict[str, Found] = {}

    def _new_walk(self) -> FailedJobsWalk:
        since = None if self.window == WHOLE_LOG else self.clock() - self.window
        return FailedJobsWalk(self.client.team, self.statuses, endpoint=self.endpoint, since=since, span=self.window)

    def _title(self) -> str:
        kinds = f"{self.endpoint} only" if self.endpoint else "all kinds"
        return f"Failed jobs · last {self.walk.state.span_words} · {kinds}"

    def compose(self) -> ComposeResult:
        yield Label(self._title(), id="failed-title", classes="failed-title", markup=False)
        yield Static("starting…", id="failed-progress", markup=False)
        yield ActivityTable(id="failed-table")
        empty = Static("No failed job found.", id="failed-empty")
        empty.display = False
        yield empty
        yield Static("", id="failed-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(ActivityTable).focus()
        self.call_after_refresh(self.action_more)  # once laid out: a screenful is the table's height

    # --- the search -------------------------------------------------------------------

    def _screenful(self) -> int:
        table = self.query_one(ActivityTable)
        return max(MIN_SCREENFUL, table.scrollable_content_region.height - table.header_height)

    def action_more(self) -> None:
        """Look further back for the next screenful of failed jobs."""
        if self.walking or self.walk.state.finished:
            return
        self._worker = self.run_worker(
            self._search(), name="failed-search", group="failed-search", exclusive=True, exit_on_error=False
        )
        self.walking = True

    @on(Worker.StateChanged)
    def _search_ended(self, event: Worker.StateChanged) -> None:
        if event.worker is self._worker:
            self.walking = not event.worker.is_finished

    async def _search(self) -> None:
        progress = self.query_one("#failed-progress", Static)
        progress.remove_class("-error")
        try:
            await self.walk.run(self._screenful(), self._show)
        except WdsError as exc:
            progress.add_class("-error")
            self._show(self.walk.state, f"stopped: {exc.title}: {exc.message}", searching=False)
            return
        self._show(self.walk.state, searching=False)

    def action_stop_search(self) -> None:
        """Stop the search; what it found stays."""
        if self._worker is not None and self.walking:
            self._worker.cancel()
            self._show(self.walk.state, "stopped (m to go on)", searching=False)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_cycle_window(self) -> None:
        """Search the next time window (15 min, 1 h, 6 h, 24 h) from the start."""
        if self._worker is not None:
            self._worker.cancel()
        self.window = next_window(self.window)
        self.walk = self._new_walk()
        self.walking = False
        self.query_one("#failed-title", Label).update(self._title())
        self._show(self.walk.state, searching=False)
        self.call_after_refresh(self.action_more)

    def action_triage(self) -> None:
        """Group the window's failures by cause."""
        self.post_message(OpenTriage(self.endpoint, self.statuses, self.window))

    def action_export(self) -> None:
        """Export the failed jobs found so far."""
        rows = [(found.entry, found.status) for found in self._found.values()]
        name = f"failed-{window_text(self.window).replace(' ', '')}"
        self.post_message(ExportRows(export_table(name, self._title(), rows)))

    # --- what is shown --------------------------------------------------------------------

    def _show(self, state: WalkState, note: str | None = None, *, searching: bool = True) -> None:
        now = self.clock()
        text = state.progress_text(now)
        if note:
            text += f" · {note}"
        elif not state.finished and not searching:
            text += " · m: find more"
        self.query_one("#failed-progress", Static).update(shown(text))  # a note may quote the service
        self._found = {
            f"{found.entry.id}/{found.entry.endpoint}/{index}": found for index, found in enumerate(state.found)
        }
        rows = [(key, table_row(found.entry, now, found.status)) for key, found in self._found.items()]
        table = self.query_one(ActivityTable)
        table.sync(rows)
        self.query_one("#failed-empty", Static).display = state.finished and not rows

    def selected(self) -> Found | None:
        """The found job under the cursor."""
        key = self.query_one(ActivityTable).selected_key()
        return self._found.get(key) if key is not None else None

    def job_to_copy(self) -> JobRef | None:
        found = self.selected()
        return JobRef(found.entry.endpoint, found.entry.id) if found is not None else None

    @on(ActivityTable.RowSelected, "#failed-table")
    def _open(self, event: ActivityTable.RowSelected) -> None:
        event.stop()
        found = self._found.get(str(event.row_key))
        if found is not None:
            self.post_message(OpenJob(found.entry.endpoint, found.entry.id, found.entry.target))

    @on(ActivityTable.RowHighlighted, "#failed-table")
    def _highlighted(self, event: ActivityTable.RowHighlighted) -> None:
        # The cause, under the table: the row has room for the state only.
        found = self._found.get(str(event.row_key))
        detail = self.query_one("#failed-detail", Static)
        detail.update(shown(found.detail(), lines=True) if found is not None else "")

    @on(ActivityTable.ViewportMoved)
    def _viewport_moved(self, event: ActivityTable.ViewportMoved) -> None:
        event.stop()  # every row here already has its state

    @mutates("asking support")
    def action_ask_support(self) -> None:
        """Ask the support agent about the highlighted failed job."""
        found = self.selected()
        if found is not None:
            entry, status = found.entry, found.status
            self.post_message(AskSupport(entry.id, entry.endpoint, status.state, status.error, entry.target))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop_search":
            return self.walking
        if action == "close":
            return not self.walking
        if action == "more":
            return not self.walking and not self.walk.state.finished
        if action in ("ask_support", "copy_job_id", "copy_job_url", "export"):
            return True if self._found else None
        return True
