"""The Active crawls pane's live crawls: up to `LIVE_LIMIT` running crawls followed over the WebSocket.

The pane still polls `GET /v2/crawl/active` to learn which crawls run. Of
those, the first `LIVE_LIMIT` (in the pane's order) are followed live
(`live_follow.follow_crawl`, counts only: no document is kept): each status
pushed goes into the tracker and the pane is redrawn at once (at most every
`PANE_PACE` seconds per crawl), and the pane's status call for that crawl
is answered from the socket instead of the service. The rest are polled as
before. A crawl whose socket gave up (lost too often, not opened in time, a
busy service) is polled from then on, and the others are still followed; a
service that answers that it offers no socket at all is not asked again
while the pane lives. A paused pane (or one held while the service cannot be
reached) takes the news into its memory and redraws only at its next fetch;
a push never counts as one.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from textual.worker import get_current_worker

from tui.api.client import WdsClient
from tui.contract.models.crawl import CrawlStatus
from tui.dashboard.features.crawls.live_follow import Following, follow_crawl
from tui.dashboard.features.crawls.monitor_told import tell_crawl
from tui.dashboard.features.crawls.tracker import JobTracker, Progress, TrackedJob
from tui.dashboard.shell.sightings import CRAWL

if TYPE_CHECKING:
    from textual.worker import Worker

    from tui.dashboard.kit.pane import Pane

LIVE_LIMIT = 4
"""Crawls followed over a socket at once; more are polled (a socket each is cheap, not free)."""
PANE_PACE = 1.0
"""A pane row shows counts: one redraw a second per crawl is plenty."""
LIVE_GROUP = "crawl-live"


class LiveCrawls:
    """Which of the pane's running crawls are followed live, and their last pushed status."""

    def __init__(
        self, client: WdsClient, tracker: JobTracker, pane: Pane[tuple[TrackedJob, ...]], limit: int = LIVE_LIMIT
    ) -> None:
        self.client, self.tracker, self.pane, self.limit = client, tracker, pane, limit
        self.offered = client.live_sockets  # False once the service is known to offer no socket
        self._followers: dict[str, Worker[None]] = {}
        self._latest: dict[str, CrawlStatus] = {}
        self._polled: set[str] = set()  # their socket gave up: polled from now on

    @property
    def following(self) -> frozenset[str]:
        """The crawls followed live now."""
        return frozenset(self._followers)

    def latest(self, crawl_id: str) -> CrawlStatus | None:
        """The last status pushed for a crawl followed live (None: ask the service)."""
        return self._latest.get(crawl_id)

    def follow(self, running: Sequence[str]) -> None:
        """After each poll of the active list: follow the first running crawls, let go of those that ended."""
        still = set(running)
        for crawl_id in [crawl_id for crawl_id in self._followers if crawl_id not in still]:
            self._followers.pop(crawl_id).cancel()
        for crawl_id in [crawl_id for crawl_id in self._latest if crawl_id not in still]:
            del self._latest[crawl_id]
        self._polled &= still  # memory of crawls that still run only
        if not self.offered:
            return
        for crawl_id in running:
            if len(self._followers) >= self.limit:
                break
            if crawl_id not in self._followers and crawl_id not in self._polled:
                work = self._follow(crawl_id)
                self._followers[crawl_id] = self.pane.run_worker(
                    work, name=f"live {crawl_id}", group=LIVE_GROUP, exit_on_error=False
                )

    async def _follow(self, crawl_id: str) -> None:
        deliver = partial(self._pushed, crawl_id)
        outcome: Following | None = None  # None: an unexpected error (the pane's worker-failure sink tells)
        try:
            outcome = await follow_crawl(self.client, crawl_id, deliver=deliver, keep_documents=0, pace=PANE_PACE)
        finally:
            # Unless let go by `follow` meanwhile (which forgot it, and may follow it anew already).
            if self._followers.get(crawl_id) is get_current_worker():
                del self._followers[crawl_id]
                if outcome is None or outcome.mode == "polling":
                    self._polled.add(crawl_id)
                    self._latest.pop(crawl_id, None)
        if outcome.mode == "polling":
            self.offered = self.offered and outcome.offered

    def _pushed(self, crawl_id: str, status: CrawlStatus) -> None:
        self._latest[crawl_id] = status
        tell_crawl(self.pane, CRAWL, crawl_id, status)
        self.tracker.pushed(crawl_id, Progress.of(status), self.pane.clock())
        self.pane.show_pushed(self.tracker.rows)  # not drawn while the pane holds still: its next fetch shows it

    def __repr__(self) -> str:
        return f"<LiveCrawls following {len(self._followers)} of at most {self.limit}>"
