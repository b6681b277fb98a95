"""What a person asked to see, as messages: panes and screens post them, the app alone pushes screens.

An intent is a small message (toolong's habit: a dataclass) saying what the
user asked to see, not how to show it. It bubbles up to the app, whose
`Navigator` (`tui.dashboard.shell.navigation`) knows which screen answers which intent and
what becomes of the screen's answer: messages up, data down. No pane builds a
screen, and the app forwards no screen's answer to a pane it looks up; an
intent that wants the answer back names its asker, and the router posts the
answer to it as a message (`NewSession` -> `tui.dashboard.features.sessions.pane.SessionStarted`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from textual.message_pump import MessagePump

    from tui.contract.models.browser import BrowserSession
    from tui.dashboard.kit.export import ExportTable


class Intent(Message):
    """Base of the messages that ask the app to show something."""


@dataclass(eq=False)
class OpenJob(Intent):
    """Show one job of the activity list (`endpoint` is its activity kind)."""

    endpoint: str
    job_id: str
    target: str | None = None


@dataclass(eq=False)
class OpenCrawl(Intent):
    """Follow one crawl live."""

    crawl_id: str
    url: str | None = None


@dataclass(eq=False)
@dataclass(eq=False)
class OpenJobById(Intent):
    """Ask for a job id (or a URL with one), find its kind and open it (`g`); `reference` given: look it up at once."""

    reference: str = ""


@dataclass(eq=False)
class OpenConsole(Intent):
    """Open the execute console on a browser session."""

    session: BrowserSession


@dataclass(eq=False)
class OpenInteract(Intent):
    """Open the console on the browser of a scrape job (`/v2/scrape/{id}/interact`)."""

    job_id: str


@dataclass(eq=False)
class NewSession(Intent):
    """Open the form that starts a browser session; the router posts the session started back down to `asker`."""

    asker: MessagePump | None = None  # None: nobody waits for the session (the form's toast is enough)


@dataclass(eq=False)
class Confirm(Intent):
    """Ask a yes-or-no question before an action that cannot be undone; `on_yes` runs only on yes."""

    question: str
    confirm_label: str
    on_yes: Callable[[], object]


@dataclass(eq=False)
class AskSupport(Intent):
    """Ask the support agent about one job; the screen prefills a question from what is known."""

    job_id: str
    kind: str  # the activity kind: scrape, crawl, batch_scrape, agent, ...
    status: str | None = None  # the job's state, when known (completed, failed, ...)
    error: str | None = None  # an error message or the page's HTTP status, when known
    target: str | None = None  # the URL the job was about


@dataclass(eq=False)
class OpenDocsSearch(Intent):
    """Open the documentation search screen."""

    query: str = ""


@dataclass(eq=False)
class OpenDocument(Intent):
    """Show one scraped document (a crawl's or a batch's page) full screen."""

    document: Any  # tui.contract.models.common.Document; Any keeps pydantic out of this module's imports
    title: str = ""


@dataclass(eq=False)
class OpenHelp(Intent):
    """Show the keys that work on the screen the user is on."""


@dataclass(eq=False)
class OpenEndedSession(Intent):
    """Show what is known of a browser session that has ended (read-only): times, profile, console runs."""

    session: BrowserSession
    profile: str | None = None
    ended: str = ""  # how it ended, in words ("deleted from this dashboard", "not known ...")
    ended_at: datetime | None = None
    ended_after: datetime | None = None  # set when only a range is known: after this, by `ended_at`


@dataclass(eq=False)
class OpenFailedJobs(Intent):
    """Look through the last 24 hours of activity (of one kind, or all) for failed jobs.

    `statuses` is the activity pane's `tui.dashboard.features.activity.job_states.StatusChecker`,
    so the search shares its cache of finished states and its limit of requests in flight.
    """

    endpoint: str | None
    statuses: Any
    window: timedelta | None = None  # None: the whole 24 hours


@dataclass(eq=False)
class OpenTriage(Intent):
    """Group the failures of a time window (of one kind, or all) by cause; `statuses` as for `OpenFailedJobs`."""

    endpoint: str | None
    statuses: Any
    window: timedelta


@dataclass(eq=False)
class OpenFailureGroup(Intent):
    """List the failed jobs of one triage group (a `tui.dashboard.features.activity.triage_groups.FailureGroup`)."""

    group: Any
    window: timedelta


@dataclass(eq=False)
class ExportRows(Intent):
    """Export a list (a `tui.dashboard.kit.export.ExportTable`) as CSV or JSON lines, to a file or the clipboard."""

    table: ExportTable


@dataclass(eq=False)
class OpenWebhookInbox(Intent):
    """Show the webhook inbox (starting its listener if it is not running)."""


@dataclass(eq=False)
class OpenCrawlForm(Intent):
    """Open the form that starts a crawl (parameters from a prompt, or by hand)."""


@dataclass(eq=False)
class OpenScrapeForm(Intent):
    """Open the form that scrapes one URL now (`POST /v2/scrape`) and shows the page it got."""


@dataclass(eq=False)
class OpenMapExplorer(Intent):
    """Open the map explorer: map a site (`POST /v2/map`), filter, sort and select its links."""


@dataclass(eq=False)
class OpenBatchForm(Intent):
    """Open the batch scrape form, with `urls` filled in (the map explorer's selection, or none)."""

    urls: tuple[str, ...] = ()


@dataclass(eq=False)
class OpenHistory(Intent):
    """Show the journal's history: the last 30 days, or (`since`, epoch seconds) from that moment on."""

    since: float | None = None


@dataclass(eq=False)
class OpenBatch(Intent):
    """Follow one batch scrape (`GET /v2/batch/scrape/{id}`); `invalid_urls`: what the start refused."""

    batch_id: str
    invalid_urls: tuple[str, ...] = ()


@dataclass(eq=False)
class OpenAlerts(Intent):
    """Show the alerts: this run's (`monitor`, None while it opens or when monitoring is off) and the journal's.

    `earlier` holds the journal's alerts (`tui.monitor.journal.JournalAlert`), read
    off the UI thread before the screen opens; `problem` says why there are none.
    """

    monitor: Any  # tui.monitor.hub.Monitor | None; Any keeps the monitor out of this module's imports
    earlier: tuple[Any, ...] = ()
    problem: str | None = None
