"""Live data on screen: the one poll loop (`tui.api.polling.PollLoop`) hosted in a Textual worker.

Mixed into every pane and every screen that follows an endpoint. It polls in
one long-lived exclusive async worker: fetch, show, sleep the interval, again,
and only while a person can see the view and it is not paused. Anything that
must fetch at once (r, unpause, another page or filter) restarts the worker:
the exclusive worker cancels a fetch in flight, so an answer to an older
question can never overwrite a newer one. One worker per view rather than one
per fetch: an idle dashboard then costs a request and a sleep per poll, not a
new worker, task, timer and state-change messages each time. An answer equal
to the last one goes to `show_again`, which by default redraws nothing.

When a fetch fails, the last good data stays on screen, marked "stale since
HH:MM:SS" with the reason (`stale_text`); before any data, "no data yet" and
the reason. An exception that is not a `WdsError`
is a bug of ours: it is logged and shown the same way, and polling goes on.

A view that comes back into sight (its screen on top again, or shown again
after a zoom) with data older than its interval wakes its loop to fetch at
once, and until the answer lands says how old what it shows is: "as of HH:MM
· refreshing" (`age_text`).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from textual import events

from tui.api.errors import WdsError
from tui.api.polling import PollLoop
from tui.dashboard.kit.clock import Clock
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures

if TYPE_CHECKING:
    from textual.worker import Worker

T = TypeVar("T")
POLL_GROUP = "live-poll"
"""The worker group of the polling loops (they run for as long as their view)."""
log = logging.getLogger(__name__)


def bug_error(error: BaseException) -> WdsError:
    """An unexpected exception, worded for the place a service error would be shown."""
    return WdsError(f"{type(error).__name__}: {error} (a bug in wds-tui; please report it)")


class LiveData(ForwardsWorkerFailures, Generic[T]):
    """Polling, staleness and pause for a Textual widget or screen (see the module doc).

    The host class implements `fetch` and `show` (and may override
    `show_again`, `fetch_failed`, `show_status`, `can_be_seen`); it calls
    `refresh_data()` to fetch now (e.g. on mount), or `start_polling(at_once=False)`
    to wait an interval first, and `stop_polling()` when there is nothing more to follow.
    """

    interval: float  # seconds between polls; set by the host
    clock: Clock  # "now", for the stale mark; set by the host
    data: T | None = None
    last_success: datetime | None = None
    stale_since: datetime | None = None
    failure: str | None = None
    paused: bool = False
    refreshing_since: datetime | None = None
    """The time of the data shown while a refresh asked for on coming back into sight is on its way."""
    _fetch_due: bool = False
    _poll_loop: PollLoop[T] | None = None
    _watching_screens: bool = False

    # --- to implement ---------------------------------------------------------

    async def fetch(self) -> T:
        """Call the service; raise a WdsError on failure."""
        raise NotImplementedError

    def show(self, data: T) -> bool:
        """Put fresh data on screen; return True if anything visible changed."""
        raise NotImplementedError

    def show_again(self, data: T) -> bool:
        """The same answer as last time (most polls): by default nothing to redraw.

        A view whose picture also depends on something else (the clock, where
        the reader asked to go) overrides this.
        """
        return False

    def fetched(self, changed: bool, recovering: bool) -> None:
        """Called after each answer was shown; `recovering`: the first good one (ever, or since a failure)."""

    def show_status(self) -> None:
        """Redraw whatever says paused, stale or refreshing (the view's status line)."""

    def age_changed(self) -> None:
        """The age mark ("as of ... · refreshing") was set or cleared (a pane tells the app's header)."""

    # --- timing -----------------------------------------------------------------

    @property
    def can_be_seen(self) -> bool:
        """Fetch only while the view is on the active screen and displayed."""
        node: Any = self
        return node.screen.is_active and node.display and node.region.area > 0

    @property
    def fetching(self) -> bool:
        """Whether a fetch asked for by `refresh_data` or `fetch_soon` has not been shown yet."""
        return self._fetch_due or (self._poll_loop is not None and self._poll_loop.asked_again)

    @property
    def poll_loop(self) -> PollLoop[T]:
        """This view's loop: one for its lifetime, so "same answer as last time" survives restarts."""
        if self._poll_loop is None:
            self._poll_loop = PollLoop(
                self.fetch,
                deliver=self._deliver,
                fail=self._fail,
                interval=lambda: self.interval,
                due=lambda: not self.paused and self.can_be_seen,  # no request while nobody watches
            )
        return self._poll_loop

    def refresh_data(self) -> None:
        """Fetch now (even when paused or not laid out yet), then go on polling every `interval` seconds."""
        self._fetch_due = True
        self.start_polling(at_once=True)

    def fetch_soon(self) -> None:
        """Fetch once more after the fetch in flight (at once if none), never cancelling it; not while paused.

        For news learnt elsewhere (a job seen by another pane): a stream of
        them must not cancel fetch after fetch, as `refresh_data` would.
        """
        if self.paused:
            return
        loop = self._poll_loop
        if loop is None or loop.stopped:
            self.refresh_data()
        else:
            loop.again()

    def start_polling(self, *, at_once: bool) -> Worker[None]:
        """(Re)start the loop in this view's one polling worker, cancelling a fetch in flight."""
        loop = self.poll_loop
        loop.resume()
        node: Any = self
        if not self._watching_screens:  # here: the first start is on mount, when a node may subscribe
            self._watching_screens = True
            node.app.screen_change_signal.subscribe(node, self._screen_changed)
        return node.run_worker(
            loop.run(at_once=at_once), name="polling", group=POLL_GROUP, exclusive=True, exit_on_error=False
        )

    def stop_polling(self) -> None:
        """Nothing more to follow (a finished job): the loop ends after the step it is in."""
        self.poll_loop.stop()

    # --- back into sight --------------------------------------------------------------

    def on_show(self, event: events.Show) -> None:
        # Textual calls this besides a host's own on_show: shown again after a zoom hid it.
        self.came_into_view()

    def _screen_changed(self, screen: object) -> None:
        node: Any = self
        if node.is_attached and node.screen is screen:  # this view's screen is on top again
            self.came_into_view()

    def came_into_view(self) -> None:
        """Fetch at once if the data shown is older than the interval, marked "as of" until it lands."""
        loop = self._poll_loop
        if loop is None or loop.stopped or self.paused or self.last_success is None or not self.can_be_seen:
            return
        if (self.clock() - self.last_success).total_seconds() <= self.interval:
            return
        if self.refreshing_since is None:
            self.refreshing_since = self.last_success
            self.show_status()
            self.age_changed()
        loop.wake()

    def age_text(self) -> str | None:
        """`as of HH:MM · refreshing` (local time) while a refresh on coming back is on its way, else None."""
        if self.refreshing_since is None:
            return None
        return f"as of {self.refreshing_since.astimezone():%H:%M} · refreshing"

    def _refreshed(self) -> None:
        """A fetch ended: the age mark goes (a failure is marked stale instead)."""
        if self.refreshing_since is not None:
            self.refreshing_since = None
            self.show_status()
            self.age_changed()

    def toggle_pause(self) -> None:
        """Stop polling while paused; fetch at once on resuming."""
        self.paused = not self.paused
        if not self.paused:
            self.refresh_data()

    # --- answers and failures -----------------------------------------------------

    @property
    def holds_still(self) -> bool:
        """Whether news pushed now waits for the next fetch instead of being drawn (while paused)."""
        return self.paused

    def take_pushed(self, data: T) -> None:
        """The whole view's answer, pushed (over a socket) rather than fetched: shown and dated as one.

        For a view the socket alone keeps (a crawl's status screen); a push
        that tells of one part of a view goes to `show_pushed`.
        """
        self._deliver(data, data == self.data)

    def show_pushed(self, data: T) -> bool:
        """News the service pushed of one part of the view: drawn at once, but not a poll; True if anything changed.

        It says nothing of the rest of the view, nor that the service answers
        calls: the view's age, its stale mark and "as of ... · refreshing" stay
        as the last fetch left them, and nothing is said upward (a pane's
        Refreshed would bring every pane back online under the connection
        banner). While the view holds still nothing is drawn: the host keeps
        the news, and the next fetch shows it.
        """
        if self.holds_still:
            return False
        same = data == self.data
        self.data = data  # before show(): views read it while drawing
        return self.show_again(data) if same else self.show(data)

    def _deliver(self, data: T, same: bool) -> None:
        recovering = self.last_success is None or self.stale_since is not None
        self.data = data  # before show(): views read it while drawing
        changed = self.show_again(data) if same else self.show(data)
        self.last_success = self.clock()
        if self.stale_since is not None or self.failure is not None:
            self.stale_since = self.failure = None
            self.show_status()
        self._refreshed()
        # Not in a `finally`: a fetch cancelled by a newer refresh_data is still due.
        self._fetch_due = False
        if changed or recovering:  # a poll that brings nothing new has nothing to say
            self.fetched(changed, recovering)

    def _fail(self, error: Exception) -> None:
        if not isinstance(error, WdsError):
            log.error("%s failed to refresh", type(self).__name__, exc_info=error)
            error = bug_error(error)
        self._fetch_due = False
        self.fetch_failed(error)
        self._refreshed()

    def fetch_failed(self, error: WdsError) -> None:
        """A fetch failed: keep the data, mark it stale with the reason (override to do more)."""
        self.mark_stale(error)

    def mark_stale(self, error: WdsError) -> None:
        """Keep what is shown, saying since when it is stale and why."""
        if self.stale_since is None:
            self.stale_since = self.last_success or self.clock()
        self.failure = f"{error.title}: {error.message}" if error.message else error.title
        self.show_status()

    def stale_text(self) -> str | None:
        """`⚠ stale since HH:MM:SS: reason` (local time), `⚠ no data yet: reason`, or None while fresh.

        "Stale" only over data once shown: before the first answer there is
        nothing to be stale, and the time would be merely the first failure's.
        """
        if self.stale_since is None:
            return None
        if self.last_success is None:
            return f"⚠ no data yet: {self.failure}"
        return f"⚠ stale since {self.stale_since.astimezone():%H:%M:%S}: {self.failure}"
