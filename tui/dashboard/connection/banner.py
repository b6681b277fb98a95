"""A one-line banner over the dashboard while the service cannot be reached, the last data kept under it.

Once the dashboard has had an answer, losing the link is not worth a full
screen that hides everything: the panes keep what they showed (marked stale)
and stop asking, and this banner alone tries again, waiting longer after
each failure (2, 4, 8, 16, then every 30 s). It says since when, when the next
try is and how many failed ("cannot reach api.example.com since 20:31:05,
retrying in 4 s (3 attempts)"), from the first second. `retry_now()` (the app's
`r` while it shows) tries at once. The first answer hides it and the app sends
the panes back to work.

A key refused (401, or 403 for a team's own calls) after the dashboard had
answers is said here too, never by a screen that would take the focus from a
form: "⚠ api.example.com refused the key at 20:31:05 (3× since 20:30) · K:
what to do", `K` opening the problem screen
(`tui.dashboard.connection.problem_screen`). The panes go on asking at their
pace and keep their data. One refusal among good answers (a load balancer with
one bad node) keeps the line up until `REFUSAL_QUIET` seconds pass without
another, so it does not come and go with every poll.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from textual import work
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from tui.api.client import WdsClient
from tui.api.errors import APIConnectionError, AuthenticationError, PermissionDeniedError, WdsError
from tui.dashboard.kit.clock import Clock, system_clock

FIRST_WAIT = 2.0
LONGEST_WAIT = 30.0
PROBE_GROUP = "connection-probe"
REFUSAL_QUIET = 60.0
"""Seconds without another refusal before the refused-key line goes."""
OPEN_PROBLEM_KEY = "K"
"""The app's key that opens the problem screen from the refused-key line (`tui.dashboard.shell.app`)."""

Refusal = AuthenticationError | PermissionDeniedError


def wait_after(attempts: int) -> float:
    """Seconds before the next try after `attempts` failed ones (2, 4, 8, 16, 30, 30, ...)."""
    return min(FIRST_WAIT * 2 ** max(attempts - 1, 0), LONGEST_WAIT)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class ConnectionBanner(Static):
    """Shown (display) only while, after the dashboard had answers, the service is unreachable or refuses the key."""

    DEFAULT_CSS = """
    ConnectionBanner {
        height: auto; max-height: 3; width: 1fr; padding: 0 1;
        background: $error-muted; color: $text; text-style: bold;
        display: none;
    }
    ConnectionBanner.-showing { display: block; }
    """

    @dataclass(eq=False)
    class Restored(Message):
        """A try got an answer: the service is back."""

    def __init__(self, client: WdsClient, host: str, *, clock: Clock = system_clock, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.host = host
        self.embedded_log: Path | None = None  # set when the service is the embedded emulator: where to look
        self.clock = clock
        self._client = client
        self.since: datetime | None = None
        self.attempts = 0
        self.last_error: WdsError | None = None
        self._next_try_at = 0.0  # time.monotonic() of the next try
        self._next_try: Timer | None = None
        self._ticker: Timer | None = None
        self.refused_since: datetime | None = None
        self.refused_last: datetime | None = None
        self.refusals = 0
        self.last_refusal: Refusal | None = None
        self._quiet: Timer | None = None

    @property
    def showing(self) -> bool:
        """Whether the service is unreachable (the banner retries; the panes hold still)."""
        return self.since is not None

    @property
    def refusing(self) -> bool:
        """Whether the key was refused less than `REFUSAL_QUIET` seconds ago."""
        return self.refused_since is not None

    def refused(self, error: Refusal) -> None:
        """A pane's call was refused for its key: say so (or count it) and wait for a quiet spell."""
        self.last_refusal = error
        self.refusals += 1
        self.refused_last = self.clock()
        if self.refused_since is None:
            self.refused_since = self.refused_last
        if self._quiet is not None:
            self._quiet.stop()
        self._quiet = self.set_timer(REFUSAL_QUIET, self.key_accepted)
        self._show()

    def key_accepted(self) -> None:
        """No refusal for a while, or another key was accepted: the refused-key line goes."""
        if self._quiet is not None:
            self._quiet.stop()
            self._quiet = None
        self.refused_since = self.refused_last = self.last_refusal = None
        self.refusals = 0
        self._show()

    def _show(self) -> None:
        self.set_class(self.showing or self.refusing, "-showing")
        self._draw()
        self.refresh_bindings()  # the app's K and r are offered only while this line says why

    def lost(self, error: APIConnectionError) -> None:
        """A request failed to reach the service: show the banner (once) and count the failure."""
        self.last_error = error
        self.attempts += 1
        if self.since is None:
            self.since = self.clock()
            self._show()
            self._ticker = self.set_interval(1.0, self._draw)
        self._schedule(wait_after(self.attempts))

    def retry_now(self) -> None:
        """Try at once (the next scheduled try is dropped)."""
        if self.showing:
            self._schedule(0.0)

    def restored(self) -> None:
        """The service answered (a try here, or any pane): hide and stop trying."""
        if not self.showing:
            return
        self.since = None
        self.attempts = 0
        self._show()
        for timer in (self._next_try, self._ticker):
            if timer is not None:
                timer.stop()
        self._next_try = self._ticker = None
        self.workers.cancel_group(self, PROBE_GROUP)

    def _schedule(self, seconds: float) -> None:
        if self._next_try is not None:
            self._next_try.stop()
        self._next_try_at = time.monotonic() + seconds
        self._next_try = self.set_timer(seconds, self._probe) if seconds > 0 else None
        if seconds <= 0:
            self._probe()
        self._draw()

    def text(self) -> str:
        """What the banner says now (a lost link before a refused key: nothing is refused without an answer)."""
        if self.since is None:
            return self.refusal_text()
        since = self.since.astimezone().strftime("%H:%M:%S")
        left = max(0, round(self._next_try_at - time.monotonic()))
        when = "retrying now" if left == 0 else f"retrying in {left} s"
        tries = f"{when} ({plural(self.attempts, 'attempt')}) · r retries now"
        if self.embedded_log is not None:
            return f"⚠ the embedded emulator is not answering since {since}, {tries} · its log: {self.embedded_log}"
        return f"⚠ cannot reach {self.host} since {since}, {tries}"

    def refusal_text(self) -> str:
        """`⚠ host refused the key at 20:31:05 (3× since 20:30) · K: what to do`, or ""."""
        if self.refused_since is None or self.refused_last is None:
            return ""
        refused = "refused the key" if isinstance(self.last_refusal, AuthenticationError) else "denied the key (403)"
        last = self.refused_last.astimezone().strftime("%H:%M:%S")
        times = ""
        if self.refusals > 1:
            times = f" ({self.refusals}× since {self.refused_since.astimezone():%H:%M})"  # one line at 80 columns
        return f"⚠ {self.host} {refused} at {last}{times} · {OPEN_PROBLEM_KEY}: what to do"

    def _draw(self) -> None:
        self.update(self.text())

    @work(exclusive=True, exit_on_error=False, group=PROBE_GROUP)
    async def _probe(self) -> None:
        self._next_try = None
        self._draw()
        try:
            # One request per try (this is the retry loop), with the client's key of the moment.
            await self._client.with_options(max_retries=0).crawl.active()
        except APIConnectionError as error:
            if self.showing:
                self.lost(error)
            return
        except WdsError:
            pass  # an answer, even a refusal, means the service is reachable again: the panes will say the rest
        if self.showing:
            self.post_message(self.Restored())
