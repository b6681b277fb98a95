"""The router: which screen answers which intent (`tui.dashboard.shell.intents`); the app hands every intent to its `Navigator`.

It routes and remembers nothing itself: what outlives a screen lives in the
app's `AppMemory` (`tui.dashboard.shell.app_memory`), and the router hands each screen its part.
Screens are imported when first opened, not with the dashboard: its first
frame needs none of them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.features.crawls.pane import CrawlsPane
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.dashboard.features.usage.pane import UsagePane
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.shell.app_memory import AppMemory
from tui.dashboard.shell.intents import (
    AskSupport,
    Confirm,
    ExportRows,
    Intent,
    NewSession,
    OpenAlerts,
    OpenBatch,
    OpenBatchForm,
    OpenConsole,
    OpenCrawl,
    OpenCrawlForm,
    OpenDocsSearch,
    OpenDocument,
    OpenEndedSession,
    OpenFailedJobs,
    OpenFailureGroup,
    OpenHelp,
    OpenHistory,
    OpenInteract,
    OpenJob,
    OpenJobById,
    OpenMapExplorer,
    OpenScrapeForm,
    OpenTriage,
    OpenWebhookInbox,
)

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.screen import Screen
    from textual.widget import Widget

    from tui.api.client import WdsClient
    from tui.dashboard.features.history.journal_state import HasJournal, HoldsAMonitor
    from tui.dashboard.features.sessions.form import SessionCreated
    from tui.dashboard.kit.pane import Pane
    from tui.dashboard.shell.sightings import JobSighting

PANES: tuple[tuple[str, type[Pane]], ...] = (
    ("crawls", CrawlsPane),
    ("activity", ActivityPane),
    ("usage", UsagePane),
    ("sessions", SessionsPane),
)
"""The dashboard's panes in the grid's order, by id (the app's `Intervals` has a field of that name)."""

CRAWL_STATUS_POLL_SECONDS = 2.0
"""How often an open crawl status screen asks for news."""


class Navigator:
    """Builds the screen each intent asks for, from the client and the app's memory (a fresh one if none is given)."""

    def __init__(
        self,
        client: WdsClient,
        memory: AppMemory | None = None,
        *,
        clock: Clock = system_clock,
        crawl_poll_seconds: float = CRAWL_STATUS_POLL_SECONDS,
        hyperlinks: bool | None = None,
        monitoring: HoldsAMonitor | None = None,
    ) -> None:
        self.client = client
        self.monitoring = monitoring  # the app, once `follow_monitor`: None, the history says monitoring is off
        if hyperlinks is None:  # the terminal's, decided once here where screens are built
            from tui.dashboard.kit.widgets.hyperlink import hyperlinks_supported

            hyperlinks = hyperlinks_supported(os.environ)
        self.hyperlinks = hyperlinks  # whether URLs are OSC 8 links: every screen and table is told this
        self.memory = memory if memory is not None else AppMemory()
        self.clock = clock
        self.crawl_poll_seconds = crawl_poll_seconds
        # Which intent each screen it built answers; weak, so a closed screen is not kept for this.
        self._built_for: WeakKeyDictionary[Screen[Any], type[Intent]] = WeakKeyDictionary()

    def answers(self, screen: Screen[Any]) -> type[Intent] | None:
        """The kind of intent `screen` was built for (None: not built here), so the app asks no screen's class name."""
        return self._built_for.get(screen)

    def screen_for(self, intent: Intent) -> Screen[Any]:
        """The screen that answers `intent`."""
        screen = self._build(intent)
        self._built_for[screen] = type(intent)
        return screen

    def _build(self, intent: Intent) -> Screen[Any]:
        if isinstance(intent, OpenJob):
            from tui.dashboard.features.activity.job_detail import JobDetailScreen

            return JobDetailScreen(self.client, intent.endpoint, intent.job_id, target=intent.target)
        if isinstance(intent, OpenCrawl):
            from tui.dashboard.features.crawls.status import CrawlStatusScreen

            return CrawlStatusScreen(
                self.client, intent.crawl_id, url=intent.url, clock=self.clock, interval=self.crawl_poll_seconds
            )
        if isinstance(intent, OpenConsole | OpenInteract):
            from tui.dashboard.features.console.history import ConsoleTarget
            from tui.dashboard.features.console.screen import ConsoleScreen

            if isinstance(intent, OpenConsole):
                target = ConsoleTarget.for_session(intent.session)
            else:
                target = ConsoleTarget.for_interact(intent.job_id)
            history = self.memory.console_histories.for_target(target)
            return ConsoleScreen(self.client, target, clock=self.clock, history=history)
        if isinstance(intent, NewSession):
            from tui.dashboard.features.sessions.form import SessionFormScreen

            return SessionFormScreen(self.client)
        if isinstance(intent, OpenDocument):
            from tui.dashboard.kit.document import DocumentScreen

            return DocumentScreen(intent.document, intent.title)
        if isinstance(intent, AskSupport):
            from tui.dashboard.features.support.ask import AskSupportScreen
            from tui.dashboard.features.support.log import AskSubject

            subject = AskSubject(intent.job_id, intent.kind, intent.status, intent.error, intent.target)
            return AskSupportScreen(self.client, subject, log=self.memory.support_log, clock=self.clock)
        if isinstance(intent, Confirm):
            from tui.dashboard.kit.confirm import ConfirmScreen

            return ConfirmScreen(intent.question, intent.confirm_label)
        if isinstance(intent, OpenEndedSession):
            from tui.dashboard.features.console.history import ConsoleTarget
            from tui.dashboard.features.console.session_detail import SessionDetailScreen

            history = self.memory.console_histories.for_target(ConsoleTarget.for_session(intent.session))
            return SessionDetailScreen(intent, history)
        if isinstance(intent, OpenHelp):
            from tui.dashboard.keys.help import HelpScreen

            return HelpScreen()
        if isinstance(intent, OpenDocsSearch):
            from tui.dashboard.features.support.docs_search import DocsSearchScreen

            return DocsSearchScreen(
                self.client, memory=self.memory.docs_search, query=intent.query, hyperlinks=self.hyperlinks
            )
        if isinstance(intent, OpenFailedJobs):
            from tui.dashboard.features.activity.failed_view import FailedJobsScreen

            window = {} if intent.window is None else {"window": intent.window}
            return FailedJobsScreen(self.client, intent.statuses, endpoint=intent.endpoint, clock=self.clock, **window)
        if isinstance(intent, OpenTriage):
            from tui.dashboard.features.activity.triage import TriageScreen

            return TriageScreen(
                self.client, intent.statuses, endpoint=intent.endpoint, window=intent.window, clock=self.clock
            )
        if isinstance(intent, OpenFailureGroup):
            from tui.dashboard.features.activity.triage_jobs import FailureGroupScreen

            return FailureGroupScreen(self.client, intent.group, intent.window, clock=self.clock)
        if isinstance(intent, ExportRows):
            from tui.dashboard.kit.export_dialog import ExportScreen

            return ExportScreen(intent.table)
        if isinstance(intent, OpenWebhookInbox):
            from tui.dashboard.features.inbox.screen import WebhookInboxScreen

            return WebhookInboxScreen(self.memory.webhooks, clock=self.clock)
        if isinstance(intent, OpenCrawlForm):
            from tui.dashboard.features.crawls.form import CrawlFormScreen

            return CrawlFormScreen(self.client, webhooks=self.memory.webhooks, draft=self.memory.crawl_form_draft)
        if isinstance(intent, OpenScrapeForm):
            from tui.dashboard.features.scrape.form import ScrapeFormScreen

            return ScrapeFormScreen(self.client)
        if isinstance(intent, OpenMapExplorer):
            from tui.dashboard.features.map.explorer import MapExplorerScreen

            return MapExplorerScreen(self.client)
        if isinstance(intent, OpenBatchForm):
            from tui.dashboard.features.batch.form import BatchFormScreen

            return BatchFormScreen(self.client, webhooks=self.memory.webhooks, urls=intent.urls)
        if isinstance(intent, OpenJobById):
            from tui.dashboard.features.jump.dialog import OpenByIdScreen

            return OpenByIdScreen(self.client, self.memory.seen_jobs, reference=intent.reference)
        if isinstance(intent, OpenAlerts):
            from tui.dashboard.features.alerts.screen import AlertsScreen

            return AlertsScreen(intent.monitor, intent.earlier, problem=intent.problem, clock=self.clock)
        if isinstance(intent, OpenBatch):
            from tui.dashboard.features.batch.status import BatchStatusScreen

            return BatchStatusScreen(
                self.client,
                intent.batch_id,
                invalid_urls=intent.invalid_urls,
                clock=self.clock,
                interval=self.crawl_poll_seconds,
            )
        if isinstance(intent, OpenHistory):
            from tui.dashboard.features.history.journal_state import JournalState
            from tui.dashboard.features.history.screen import HistoryScreen
            from tui.dashboard.features.history.span import HistorySpan

            span = HistorySpan() if intent.since is None else HistorySpan.since(intent.since)
            return HistoryScreen(JournalState.of(self.monitoring), span=span, now=self._epoch_now)
        raise TypeError(f"no screen answers {type(intent).__name__}")

    def _epoch_now(self) -> float:
        return self.clock().timestamp()

    def follow_monitor(self, holder: HoldsAMonitor) -> None:
        """Read the journal through `holder` (the app: its monitor opens after the first frame)."""
        self.monitoring = holder

    def away_line(self) -> Widget:
        """The line under the header that says what the journal learnt while no dashboard ran (hidden until then)."""
        from tui.dashboard.features.history.away import AwayLine

        monitor = self.monitoring.monitor if self.monitoring is not None else None
        return AwayLine(monitor.journal if monitor is not None else None, now=self._epoch_now, id="away-line")

    @staticmethod
    def monitor_opened(monitor: HasJournal, dashboard: DOMNode) -> None:
        """The app's monitor is open: the away line on `dashboard` reads its journal now."""
        from tui.dashboard.features.history.away import AwayLine

        for line in dashboard.query(AwayLine):
            line.start(monitor.journal)

    @staticmethod
    def when_answered(intent: Intent) -> Callable[[Any], None] | None:
        """What to do with the screen's answer, for intents that ask a question or want the answer back."""
        if isinstance(intent, Confirm):

            def answered(yes: bool | None) -> None:
                if yes:
                    intent.on_yes()

            return answered
        if isinstance(intent, NewSession) and intent.asker is not None:
            asker = intent.asker

            def started(created: SessionCreated | None) -> None:
                if created is not None:
                    from tui.dashboard.features.sessions.pane import SessionStarted

                    asker.post_message(SessionStarted(created))

            return started
        return None

    @staticmethod
    def jobs_seen(dashboard: DOMNode, sightings: Sequence[JobSighting]) -> None:
        """Crawls or batches were seen somewhere: the crawls pane on `dashboard` learns of them (and asks about new ones now)."""
        for pane in dashboard.query(CrawlsPane):
            pane.take_sightings(sightings)
