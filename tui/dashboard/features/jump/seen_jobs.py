"""The jobs the dashboard has seen, id -> kind: `g` opens those without asking the service.

Fed by the activity pane's pages (`tui.dashboard.shell.intents.JobsSeen`, heard by the app), kept
in the app's memory. Bounded: the oldest ids go first, so a dashboard left
running for days keeps a fixed size.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable

MAX_SEEN_JOBS = 10_000
"""Ids kept (about 1 MB at most); the activity pane shows 100 at a time."""


class SeenJobs:
    """Id -> activity kind of the jobs seen lately, the newest kept."""

    def __init__(self, limit: int = MAX_SEEN_JOBS) -> None:
        self.limit = limit
        self._kinds: OrderedDict[str, str] = OrderedDict()

    def learn(self, jobs: Iterable[tuple[str, str]]) -> None:
        """File each (id, kind) seen; an id seen again counts as new."""
        for job_id, kind in jobs:
            self._kinds[job_id.lower()] = kind
            self._kinds.move_to_end(job_id.lower())
        while len(self._kinds) > self.limit:
            self._kinds.popitem(last=False)

    def kind_of(self, job_id: str) -> str | None:
        """The kind the job was seen as, or None when it was not seen."""
        return self._kinds.get(job_id.lower())

    def __len__(self) -> int:
        return len(self._kinds)
