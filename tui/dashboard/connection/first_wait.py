"""The line under the header while the dashboard waits for its very first answer: which call, for how long.

A service that accepts the connection and then says nothing (overloaded, a
proxy holding the request) used to leave 30 s of empty panes under
"◌ connecting". This line names the oldest call on its way and its wait
("◌ waiting for GET /v2/team/activity · 12 s · 3 other calls waiting too"),
from the moment a call has waited `SHOW_AFTER` seconds, so a quick start
never flashes it. The seconds are the app's clock: each call is stamped
when the line first sees it (the client's record, `tui.api.in_flight`, holds
no times). The first answer removes the line for good; after it, trouble is
the banner's (`tui.dashboard.connection.banner`).
"""

from __future__ import annotations

from datetime import datetime

from textual.timer import Timer
from textual.widgets import Static

from tui.api.in_flight import CallsInFlight
from tui.dashboard.connection.banner import plural
from tui.dashboard.kit.clock import Clock

SHOW_AFTER = 2.0
"""Seconds a call waits before the line names it."""


class FirstAnswerWait(Static):
    """Shown only before the first answer, while a call has waited `SHOW_AFTER` seconds or more."""

    DEFAULT_CSS = """
    FirstAnswerWait {
        height: 1; width: 1fr; padding: 0 1;
        background: $warning-muted; color: $text;
        display: none;
    }
    """

    def __init__(self, calls: CallsInFlight, *, clock: Clock, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.calls = calls
        self.clock = clock
        self._seen: dict[int, datetime] = {}  # each call's number -> when this line first saw it
        self._ticker: Timer | None = None
        self.answered = False

    def on_mount(self) -> None:
        if not self.answered:
            self._ticker = self.set_interval(1.0, self.tick)
            self.tick()

    def text(self) -> str:
        """What the line says now ("" when no call has waited long enough)."""
        calls = self.calls.now()
        now = self.clock()
        self._seen = {call.number: self._seen.get(call.number, now) for call in calls}
        if self.answered or not calls:
            return ""
        oldest = calls[0]
        waited = int((now - self._seen[oldest.number]).total_seconds())
        if waited < SHOW_AFTER:
            return ""
        others = f" · {plural(len(calls) - 1, 'other call')} waiting too" if len(calls) > 1 else ""
        return f"◌ waiting for {oldest} · {waited} s{others}"

    def tick(self) -> None:
        """Say what is waited for now (the app's timer calls this each second)."""
        text = self.text()
        self.update(text)
        self.display = bool(text)

    def first_answer(self) -> None:
        """The service answered: nothing is waited for any more, now or later."""
        self.answered = True
        self._seen.clear()
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        self.display = False
