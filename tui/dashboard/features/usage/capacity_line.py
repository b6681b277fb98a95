"""The capacity line of the usage pane: the team's queue, credits left and last success, polled with the pane.

It polls on its own loop (`LiveData`) at the pane's interval, but at least every
`QUEUE_SECONDS` (a queue moves in seconds; the month's usage does not), and only while
the pane is seen and not paused, so a failure of these calls marks this line
stale and leaves the pane's usage as it is. The calls are the real service's,
not the contract's: a service that answers one of them 404, 405 or 501 does
not offer it. That call's part is left out and asked again only every
`ASK_AGAIN_SECONDS`; with neither offered the line hides. A timeout or a 5xx
is trouble, not absence: the last figures stay, marked "⚠ stale".
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TypeVar

from textual.widgets import Static

from tui.api.client import WdsClient
from tui.api.errors import APIStatusError
from tui.dashboard.features.usage.capacity import Capacity, Part, capacity_rows, fit_rows
from tui.dashboard.kit.clock import Clock
from tui.dashboard.kit.monitor_feed import tell_monitor
from tui.dashboard.kit.outside_text import shown, visible
from tui.dashboard.kit.widgets.live import LiveData

ModelT = TypeVar("ModelT")

QUEUE_SECONDS = 15.0
"""The line's longest wait between polls: the usage pane's minute is too long for a queue."""
NOT_OFFERED = frozenset({404, 405, 501})
"""Statuses that say the service has no such call (rather than trouble with it)."""
ASK_AGAIN_SECONDS = 600.0
"""How long a call the service does not offer is left alone before it is asked again (an upgrade may add it)."""


class OfferedCalls:
    """Which calls the service does not offer, and when each may be asked again."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._missing_until: dict[str, datetime] = {}

    def worth_asking(self, name: str) -> bool:
        until = self._missing_until.get(name)
        return until is None or self.clock() >= until

    def missing(self, name: str) -> None:
        self._missing_until[name] = self.clock() + timedelta(seconds=ASK_AGAIN_SECONDS)

    def found(self, name: str) -> None:
        self._missing_until.pop(name, None)


class CapacityLine(Static, LiveData[Capacity]):
    """One or two plain rows under the usage summary; marked `-alarm` when saturated or low, `-stale` on failure."""

    DEFAULT_CSS = """
    CapacityLine { height: auto; max-height: 2; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
    CapacityLine.-alarm { color: $text-warning; }
    CapacityLine.-stale { color: $text-error; }
    """

    def __init__(
        self,
        client: WdsClient,
        *,
        interval: Callable[[], float],
        clock: Clock,
        watched: Callable[[], bool],
        id: str | None = None,
    ) -> None:
        super().__init__("", markup=False, id=id)
        self.client = client
        self._interval = interval
        self.clock = clock
        self._watched = watched
        self.offered = OfferedCalls(clock)
        self._text: str | None = None
        self.display = False  # nothing to say until an answer says what the service offers

    @property
    def interval(self) -> float:  # type: ignore[override]  # LiveData's plain attribute: here from the pane's, live
        return min(self._interval(), QUEUE_SECONDS)

    @property
    def can_be_seen(self) -> bool:
        # Its pane's sight and pause, not its own display: a hidden line (nothing
        # offered) must still ask again, now and then.
        return self._watched()

    async def fetch(self) -> Capacity:
        queue = await self._ask("queue", self.client.team.queue_status)
        credits = await self._ask("credits", self.client.team.credit_usage)
        if queue is not None:
            tell_monitor(self, lambda monitor: monitor.saw_queue(queue))
        if credits is not None:
            tell_monitor(self, lambda monitor: monitor.saw_credits(credits))
        return Capacity(queue, credits)

    async def _ask(self, name: str, call: Callable[[], Awaitable[ModelT]]) -> ModelT | None:
        """The call's answer; None when the service does not offer it (then left alone for a while)."""
        if not self.offered.worth_asking(name):
            return None
        try:
            answer = await call()
        except APIStatusError as error:
            if error.status not in NOT_OFFERED:
                raise
            self.offered.missing(name)
            return None
        self.offered.found(name)
        return answer

    def show(self, data: Capacity) -> bool:
        return self._draw()

    def show_again(self, data: Capacity) -> bool:
        return self._draw()  # the same figures, but "last success 2 min ago" ages

    def show_status(self) -> None:
        self._draw()

    def on_resize(self) -> None:
        # Once this layout pass is over: a new height asked for during it is not applied (a row too few).
        self.call_later(self._draw)

    def _draw(self) -> bool:
        """Fit the line to the width and show it; True when the text changed."""
        rows = self._rows()
        self.display = bool(rows)
        self.set_class(self.data is not None and self.data.alarming, "-alarm")
        self.set_class(self.stale_since is not None, "-stale")
        width = self.content_region.width or 10_000  # not laid out yet: the full line
        text = "\n".join(fit_rows(rows, width))
        if text == self._text:
            return False  # Static.update would repaint even for the same text
        self._text = text
        self.update(shown(text, lines=True))  # the failure's words are the service's
        return True

    def _rows(self) -> tuple[tuple[Part, ...], ...]:
        stale = self._stale_part()
        if self.data is not None and not self.data.offered:
            return ()  # a service without these calls: nothing to say, even when asking again failed
        if self.data is None:  # no answer yet: quiet, unless asking failed
            return ((tuple(f"Capacity {wording}" for wording in stale),),) if stale else ()
        rows = capacity_rows(self.data, self.clock())
        if stale:
            rows = ((stale, *rows[0]), *rows[1:])
        return rows

    def _stale_part(self) -> Part:
        """`⚠ stale since 12:00:05` down to `⚠ stale`, while the last fetch failed; else nothing."""
        if self.stale_since is None:
            return ()
        if self.last_success is None:
            return (f"⚠ no data yet: {visible(self.failure)}", "⚠ no data yet")
        since = f"⚠ stale since {self.stale_since.astimezone():%H:%M:%S}"
        return (f"{since}: {visible(self.failure)}", since, "⚠ stale")
