"""The crawls and batches the inbox's events name, as sightings for the crawls pane.

A `crawl.*` or `batch_scrape.*` event carries its job's id, so a crawl the
active list never showed still reaches the crawls pane (`tui.dashboard.shell.sightings`).
What is told is what is news: the first event of a job, and each event that
says it started or ended. A crawl's `crawl.page` events (one a page) after
the first say nothing new and are not passed on, so a burst of deliveries
is not a burst of messages.

A delivery whose signature does not verify is not passed on: it may be
forged, and each job told is a request to the service. Without a secret
nothing verifies, and the operator chose to take events as they come.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from tui.dashboard.features.inbox.store import Change
from tui.dashboard.shell.sightings import FOLLOWED_KINDS, WEBHOOK, JobSighting

TOLD_KEPT = 1000
"""Job ids remembered as told (the oldest forgotten first): enough to drop the page events of the crawls running."""
NEWS = ("started", "completed", "failed", "cancelled")
"""Event names (after the kind) that say something of a job already told: its start or its end."""

Tell = Callable[[tuple[JobSighting, ...]], object]


class JobEvents:
    """Listens to an inbox's changes (`Inbox.subscribe`) and tells `tell` of the jobs they name."""

    def __init__(self, tell: Tell) -> None:
        self.tell = tell
        self._told: OrderedDict[str, None] = OrderedDict()

    def __call__(self, change: Change) -> None:
        delivery = change.row.latest
        event = delivery.event
        if event is None or delivery.verified is False:
            return
        kind, _, name = event.type.partition(".")
        if kind not in FOLLOWED_KINDS or not event.id:
            return
        if event.id in self._told and name not in NEWS:
            return
        self._told[event.id] = None
        self._told.move_to_end(event.id)
        while len(self._told) > TOLD_KEPT:
            self._told.popitem(last=False)
        self.tell((JobSighting(kind, event.id, WEBHOOK, at=delivery.received_at, started=name == "started"),))
