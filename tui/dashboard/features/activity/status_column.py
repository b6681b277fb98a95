"""The activity pane's status column: which rows' states are asked for, and when.

A base of `ActivityPane` (kept apart so each module does one job): after
each poll, and once rows scrolled or resized into view have settled, one round
asks the `StatusChecker` for the states of the visible rows that have no final
one. A round is never cancelled (an answer in flight is worth keeping); rows
that come into view meanwhile are looked at before it ends. A 429 pause is
waited out, and said in the pane's bottom border.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual.widget import Widget

from tui.contract.models import ActivityEntry
from tui.dashboard.features.activity.job_states import RowStatus, StatusChecker
from tui.dashboard.features.activity.rows import ActivityTable
from tui.dashboard.kit.monitor_feed import tell_monitor

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.worker import Worker

SCROLL_SETTLE = 0.15
"""Seconds of stillness after a scroll before the newly shown rows' states are asked for."""


class StatusColumn(Widget):
    """The status column's part of `ActivityPane`: the rows' states, asked for as they are seen.

    A widget (query_one, run_worker, set_timer are Textual's); the pane lists it after
    `Pane`, so the pane's CSS, which Textual follows through the first base only, stays `Pane`'s.
    """

    # Provided by the pane: _entries, can_be_seen, _draw_rows, _update_page_label, _refresh_keys.
    statuses: StatusChecker
    _entries: dict[str, ActivityEntry]

    if TYPE_CHECKING:  # declared for the type checker only: at run time the pane's own are found

        @property
        def can_be_seen(self) -> bool: ...
        def _draw_rows(self) -> bool: ...
        def _update_page_label(self) -> bool: ...
        def _refresh_keys(self) -> None: ...

    def init_status_column(self, statuses: StatusChecker) -> None:
        """Set up with the checker the pane (and its failed-only view) asks through."""
        self.statuses = statuses
        self._status: dict[str, RowStatus] = {}  # row key -> the last status read, for the rows shown
        self._status_worker: Worker[None] | None = None
        self._look_again = False  # other rows came into view while a round was going on
        self._scroll_timer: Timer | None = None
        self._status_paused = False

    def forget_statuses_of_gone_rows(self) -> None:
        """Keep the statuses of the rows still shown only."""
        self._status = {key: status for key, status in self._status.items() if key in self._entries}

    def status_of(self, key: str) -> RowStatus | None:
        """What is known of the state of the row `key`'s job (None: not asked yet)."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        return self._status.get(key) or self.statuses.known(entry.endpoint, entry.id)

    def _check_statuses(self, *, restart: bool) -> None:
        """Ask for the states of the visible rows that need it.

        `restart`: other rows are on screen (a new page, a scroll), so a round in
        progress looks again once its requests are answered. Requests in flight are
        never cancelled: their answers are kept, and re-asking would cost the same.
        """
        if self._status_worker is not None and not self._status_worker.is_finished:
            self._look_again |= restart
            return
        self._look_again = False
        self._status_worker = self.run_worker(
            self._check_visible(), name="statuses", group="activity-status", exit_on_error=False
        )

    def _needing_status(self, done: set[str]) -> list[tuple[str, ActivityEntry]]:
        table = self.query_one(ActivityTable)
        wanted = []
        for key in table.visible_keys():
            entry = self._entries.get(key)
            status = self.status_of(key)
            if entry is not None and key not in done and (status is None or not status.final):
                wanted.append((key, entry))
        return wanted

    async def _check_visible(self) -> None:
        done: set[str] = set()  # asked in this round: an unfinished job waits for the next poll
        if self.can_be_seen:
            self._draw_rows()  # states learnt elsewhere meanwhile (the failed-only view): only changed rows repaint
        while self.can_be_seen:
            pause = self.statuses.paused_for()
            if pause > 0:
                self._show_status_pause(True)
                await asyncio.sleep(pause)
                continue
            self._show_status_pause(False)
            wanted = self._needing_status(done)
            if not wanted:
                if not self._look_again:
                    return
                self._look_again = False
                continue
            await asyncio.gather(*(self._check_one(key, entry, done) for key, entry in wanted))

    async def _check_one(self, key: str, entry: ActivityEntry, done: set[str]) -> None:
        table = self.query_one(ActivityTable)
        status = await self.statuses.check(entry.endpoint, entry.id, lambda: key in table.visible_keys())
        if status is None or key not in self._entries:
            return
        summary = status.summary
        if summary is not None:  # to the journal and the alert rules (a finished job counts once: the hub keeps ids)
            tell_monitor(
                self,
                lambda monitor: monitor.saw_job(
                    entry.endpoint, entry.id, summary, target=entry.target, created_at=entry.created_at
                ),
            )
        done.add(key)
        if self._status.get(key) != status:
            self._status[key] = status
            self._draw_rows()
            if table.selected_key() == key:
                self._refresh_keys()

    def _show_status_pause(self, paused: bool) -> None:
        if paused != self._status_paused:
            self._status_paused = paused
            self._update_page_label()

    def on_activity_table_viewport_moved(self, event: ActivityTable.ViewportMoved) -> None:
        event.stop()
        # Scrolling sends many of these: ask once the rows on screen have settled.
        if self._scroll_timer is not None:
            self._scroll_timer.stop()
        self._scroll_timer = self.set_timer(SCROLL_SETTLE, self._viewport_settled)

    def _viewport_settled(self) -> None:
        self._scroll_timer = None
        self._check_statuses(restart=True)

    @property
    def checking_statuses(self) -> bool:
        """Whether states are being asked for, or soon will be (rows just came into view)."""
        running = self._status_worker is not None and not self._status_worker.is_finished
        return running or self._scroll_timer is not None
