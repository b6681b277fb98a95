"""Crawls and batches seen anywhere in the dashboard, told to the crawls pane: nothing ends unseen.

`GET /v2/crawl/active` lists the crawls running at the instant of a poll, so a
crawl that starts and ends between two polls never shows there, and batches
never do. Other parts of the dashboard see such jobs: the activity pane lists
them, the forms start them, the webhook inbox hears of them. Each posts
`JobsSeen` (messages up); the app hands the sightings to the crawls pane (data
down, `tui.dashboard.shell.navigation.Navigator.jobs_seen`), which asks each
new job's state once and lists it, running or recently finished. No part looks
another up.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from textual.message import Message

CRAWL = "crawl"
BATCH = "batch_scrape"
FOLLOWED_KINDS = frozenset({CRAWL, BATCH})
"""The kinds of job the crawls pane follows, by their activity names (`tui.contract.requests.ACTIVITY_ENDPOINTS`)."""

RECENT_WINDOW = timedelta(hours=1)
"""How long the crawls pane keeps a finished job, unless the operator sets `recent_window`
(`tui.dashboard.startup.settings` says the same default: it reads no Textual module)."""

ACTIVE_LIST = "active list"
ACTIVITY = "activity"
WEBHOOK = "webhook"
STARTED_HERE = "started here"


@dataclass(frozen=True)
class JobSighting:
    """One source saw one job.

    `at` is when that source saw it (None: just now, by the receiver's clock);
    `started` says `at` is the job's start (an activity entry, a form's
    answer, a `crawl.started` event); `url` is the crawl's URL or a batch's
    first one, when the source knows it.
    """

    kind: str
    job_id: str
    source: str
    url: str | None = None
    at: datetime | None = None
    started: bool = False


@dataclass(eq=False)
class JobsSeen(Message):
    """Some crawls or batches were seen (see the module doc); the app tells the crawls pane."""

    sightings: tuple[JobSighting, ...]
