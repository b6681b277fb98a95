"""The jobs of one triage group: the failures that share a cause, host, path pattern and kind.

Opened with Enter on a group of the triage view. The rows are the activity
table's (time, kind, status, id, target); the highlighted job's error is
shown whole under them. Enter opens a job (the job screen, as from the
activity pane); y and Y copy its id and status URL; s exports the group's
jobs; Esc goes back to the groups.
"""

from __future__ import annotations

from datetime import timedelta
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Label, Static

from tui.api.client import WdsClient
from tui.dashboard.features.activity.failed_search import Found
from tui.dashboard.features.activity.rows import ActivityTable, export_table, table_row
from tui.dashboard.features.activity.triage_groups import FailureGroup
from tui.dashboard.features.activity.window import window_text
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.kit.job_copy import CopiesJobs, JobRef, job_copy_bindings
from tui.dashboard.kit.outside_text import shown, visible
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.shell.intents import ExportRows, OpenJob


class FailureGroupScreen(CopiesJobs, Screen[None]):
    """The failed jobs of one group, newest first."""

    TITLE = "Failure group"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="failure_group.close"),
        *job_copy_bindings("failure_group"),
        Binding("s", "export", "Export", id="failure_group.export"),
    ]

    DEFAULT_CSS = """
    FailureGroupScreen { layout: vertical; }
    FailureGroupScreen .group-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    FailureGroupScreen #group-table { height: 1fr; }
    FailureGroupScreen #group-detail { height: auto; max-height: 5; padding: 0 1; border-top: solid $panel; }
    """

    def __init__(
        self, client: WdsClient, group: FailureGroup, window: timedelta, *, clock: Clock = system_clock
    ) -> None:
        super().__init__()
        self.client = client  # for the status URL that Y copies
        self.group = group
        self.window = window
        self.clock = clock
        self.jobs: dict[str, Found] = {
            f"{found.entry.id}/{found.entry.endpoint}/{index}": found for index, found in enumerate(group.jobs)
        }

    def _title(self) -> str:
        count = self.group.count
        return f"{count:,} failure{'' if count == 1 else 's'} · {self.group.title()} · last {window_text(self.window)}"

    def compose(self) -> ComposeResult:
        yield Label(shown(visible(self._title())), classes="group-title")
        yield ActivityTable(id="group-table")
        yield Static("", id="group-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        now = self.clock()
        table = self.query_one(ActivityTable)
        table.sync([(key, table_row(found.entry, now, found.status)) for key, found in self.jobs.items()])
        table.focus()

    def job_to_copy(self) -> JobRef | None:
        key = self.query_one(ActivityTable).selected_key()
        found = self.jobs.get(key) if key is not None else None
        return JobRef(found.entry.endpoint, found.entry.id) if found is not None else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("copy_job_id", "copy_job_url"):
            return True if self.jobs else None
        return True

    @on(ActivityTable.RowSelected, "#group-table")
    def _open(self, event: ActivityTable.RowSelected) -> None:
        event.stop()
        found = self.jobs.get(str(event.row_key))
        if found is not None:
            self.post_message(OpenJob(found.entry.endpoint, found.entry.id, found.entry.target))

    @on(ActivityTable.RowHighlighted, "#group-table")
    def _highlighted(self, event: ActivityTable.RowHighlighted) -> None:
        found = self.jobs.get(str(event.row_key))
        detail = self.query_one("#group-detail", Static)
        detail.update(shown(found.detail(), lines=True) if found is not None else "")

    @on(ActivityTable.ViewportMoved)
    def _viewport_moved(self, event: ActivityTable.ViewportMoved) -> None:
        event.stop()  # every row here already has its state

    def action_close(self) -> None:
        self.dismiss(None)

    def action_export(self) -> None:
        """Export the group's jobs."""
        rows = [(found.entry, found.status) for found in self.jobs.values()]
        self.post_message(ExportRows(export_table("triage-group", self._title(), rows)))
