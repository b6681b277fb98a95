"""The triage view: a time window's failures grouped by cause, the groups that count most on top.

Opened from the activity pane or the failed view (c), on their kind filter
and window. It walks the whole window for failed jobs
(`tui.dashboard.features.activity.failed_search.FailedJobsWalk`, sharing the pane's status
checker, so states already known cost nothing) and regroups as it goes
(`tui.dashboard.features.activity.triage_groups`): cause, kind, host, path pattern, with
count, first and last seen and a sparkline over the window. Enter lists a
group's jobs; t changes the window (the walk starts again); s exports the
groups; Esc stops a walk in progress, then goes back.
"""

from __future__ import annotations

from datetime import datetime, timedelta
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
from tui.dashboard.features.activity.failed_search import FailedJobsWalk, WalkState
from tui.dashboard.features.activity.job_states import StatusChecker
from tui.dashboard.features.activity.triage_groups import FailureGroup, group_failures, groups_table, sparkline
from tui.dashboard.features.activity.window import WHOLE_LOG, next_window, window_text
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.kit.formatting import clock_time
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.live_table import Drop, LiveTable, Squeeze
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures
from tui.dashboard.shell.intents import ExportRows, OpenFailureGroup

COLUMNS = ("count", "cause", "kind", "host", "path", "first", "last", "when")
SQUEEZE = (
    Squeeze("cause", 16),
    Squeeze("host", 16),
    Drop("first"),
    Squeeze("kind", 6),
    Squeeze("cause", 10),
    Squeeze("host", 12),
    Squeeze("cause", 8),
    Squeeze("path", 12),
    Squeeze("host", 8),
    Squeeze("path", 8),
)
"""How the columns give way: cause and host are cut, the first time goes, and the path, which tells
groups of one host apart, is cut last; the count, the last time and the sparkline stay whole."""
ALL_OF_IT = 10**9
"""Failures to look for: all of the window's."""


class GroupTable(LiveTable):
    """The groups, one row each; Enter lists the highlighted group's jobs."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "List jobs", id="group_table.select_cursor")
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(*COLUMNS, squeeze=SQUEEZE, **kwargs)


class TriageScreen(ForwardsWorkerFailures, Screen[None]):
    """The failures of a time window (of one kind, or all) grouped by cause, host, path pattern and kind."""

    TITLE = "Triage"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "stop_search", "Stop search", id="triage.stop_search"),
        Binding("escape", "close", "Back", id="triage.close"),
        Binding("t", "cycle_window", "Window", id="triage.cycle_window"),
        Binding("s", "export", "Export", id="triage.export"),
    ]

    DEFAULT_CSS = """
    TriageScreen { layout: vertical; }
    TriageScreen .triage-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    TriageScreen #triage-progress { height: auto; padding: 0 1; color: $text-muted; }
    TriageScreen #triage-progress.-error { color: $error; }
    TriageScreen #triage-table { height: 1fr; }
    TriageScreen #triage-empty { padding: 1 1; color: $text-muted; }
    """

    walking: reactive[bool] = reactive(False, bindings=True, init=False)
    """Whether the walk is going on (Esc stops it, else closes)."""

    def __init__(
        self,
        client: WdsClient,
        statuses: StatusChecker,
        *,
        endpoint: str | None = None,
        window: timedelta = WHOLE_LOG,
        clock: Clock = system_clock,
    ) -> None:
        super().__init__()
        self.client, self.statuses, self.clock = client, statuses, clock
        self.endpoint = endpoint
        self.window = window
        self.since = self.clock() - window
        self.walk = self._new_walk()
        self.groups: dict[str, FailureGroup] = {}
        self._worker: Worker[None] | None = None

    def _new_walk(self) -> FailedJobsWalk:
        self.since = self.clock() - self.window
        return FailedJobsWalk(
            self.client.team, self.statuses, endpoint=self.endpoint, since=self.since, span=self.window
        )

    def _title(self) -> str:
        kinds = f"{self.endpoint} only" if self.endpoint else "all kinds"
        return f"Failures by cause · last {window_text(self.window)} · {kinds}"

    def compose(self) -> ComposeResult:
        yield Label(self._title(), id="triage-title", classes="triage-title", markup=False)
        yield Static("starting…", id="triage-progress", markup=False)
        yield GroupTable(id="triage-table")
        empty = Static("No failure in this window.", id="triage-empty")
        empty.display = False
        yield empty
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(GroupTable).focus()
        self._start()

    # --- the walk ---------------------------------------------------------------------

    def _start(self) -> None:
        self._worker = self.run_worker(
            self._search(), name="triage-search", group="triage-search", exclusive=True, exit_on_error=False
        )
        self.walking = True

    @on(Worker.StateChanged)
    def _search_ended(self, event: Worker.StateChanged) -> None:
        if event.worker is self._worker:
            self.walking = not event.worker.is_finished

    async def _search(self) -> None:
        progress = self.query_one("#triage-progress", Static)
        progress.remove_class("-error")
        walk = self.walk
        try:
            await walk.run(ALL_OF_IT, self._show)
        except WdsError as exc:
            progress.add_class("-error")
            self._show(walk.state, f"stopped: {exc.title}: {exc.message}")
            return
        self._show(walk.state)

    def action_stop_search(self) -> None:
        """Stop the walk; the groups found so far stay."""
        if self._worker is not None and self.walking:
            self._worker.cancel()
            self._show(self.walk.state, "stopped: groups of the entries checked so far")

    def action_close(self) -> None:
        self.dismiss(None)

    def action_cycle_window(self) -> None:
        """Group the next time window (15 min, 1 h, 6 h, 24 h), walked from the start."""
        if self._worker is not None:
            self._worker.cancel()
        self.window = next_window(self.window)
        self.walk = self._new_walk()
        self.query_one("#triage-title", Label).update(self._title())
        self._show(self.walk.state)
        self._start()

    # --- what is shown --------------------------------------------------------------------

    def _show(self, state: WalkState, note: str | None = None) -> None:
        if state is not self.walk.state:
            return  # a walk of the window shown before
        now = self.clock()
        text = state.progress_text(now)
        if note:
            text += f" · {note}"
        self.query_one("#triage-progress", Static).update(shown(text))  # a note may quote the service
        groups = group_failures(state.found)
        self.groups = {group.key: group for group in groups}
        self.query_one(GroupTable).sync([(group.key, self._row(group, now)) for group in groups])
        self.query_one("#triage-empty", Static).display = state.finished and not groups

    def _row(self, group: FailureGroup, now: datetime) -> tuple[str, ...]:
        times = [found.entry.created_at for found in group.jobs]
        return (
            f"{group.count:,}",
            group.cause,
            group.kind,
            group.host,
            group.path,
            clock_time(group.first_seen, now),
            clock_time(group.last_seen, now),
            sparkline(times, self.since, self.window),
        )

    def selected(self) -> FailureGroup | None:
        """The group under the cursor."""
        key = self.query_one(GroupTable).selected_key()
        return self.groups.get(key) if key is not None else None

    @on(GroupTable.RowSelected, "#triage-table")
    def _open(self, event: GroupTable.RowSelected) -> None:
        event.stop()
        group = self.groups.get(str(event.row_key))
        if group is not None:
            self.post_message(OpenFailureGroup(group, self.window))

    def action_export(self) -> None:
        """Export the groups (their parts, counts and first and last seen)."""
        name = f"triage-{window_text(self.window).replace(' ', '')}"
        self.post_message(ExportRows(groups_table(name, self._title(), list(self.groups.values()))))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop_search":
            return self.walking
        if action == "close":
            return not self.walking
        if action == "export":
            return True if self.groups else None
        return True
