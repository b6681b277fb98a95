"""Which screen answers which intent (`tui.dashboard.shell.intents`): the app hands every intent to its `Navigator`.

Screens are imported when first opened, not with the dashboard: its first
frame needs none of them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tui.dashboard.features.activity.pane import ActivityPane
from tui.dashboard.features.crawls.pane import CrawlsPane
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.dashboard.features.usage.pane import UsagePane
from tui.dashboard.kit.clock import Clock, system_clock
from tui.dashboard.shell.intents import (
    AskSupport,
    Confirm,
    Intent,
    NewSession,
    OpenBatch,
    OpenBatchForm,
    OpenConsole,
    OpenCrawl,
    OpenCrawlForm,
    OpenDocsSearch,
    OpenDocument,
    OpenEndedSession,
    OpenFailedJobs,
    OpenHelp,
    OpenInteract,
    OpenJob,
    OpenMapExplorer,
    OpenScrapeForm,
    OpenWebhookInbox,
)

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.screen import Screen

    from tui.api.client import WdsClient
    from tui.dashboard.features.console.history import ConsoleHistories
    from tui.dashboard.features.inbox.service import InboxService
    from tui.dashboard.features.sessions.form import SessionCreated
    from tui.dashboard.features.support.docs_search import DocsSearchMemory
    from tui.dashboard.features.support.log import SupportLog
    from tui.dashboard.kit.pane import Pane

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
    """Builds the screen each intent asks for, from the services the app hands it."""

    def __init__(
        self,
        client: WdsClient,
        *,
        clock: Clock = system_clock,
        crawl_poll_seconds: float = CRAWL_STATUS_POLL_SECONDS,
        webhooks: InboxService | None = None,
    ) -> None:
        self.client = client
        self.clock = clock
        self.crawl_poll_seconds = crawl_poll_seconds
        self._webhooks = webhooks
        self._histories: ConsoleHistories | None = None
        self._support_log: SupportLog | None = None
        self._docs_search: DocsSearchMemory | None = None
        self.crawl_form_draft: dict[str, Any] = {}  # what the crawl form held when closed unsent

    @property
    def console_histories(self) -> ConsoleHistories:
        """One run history per console target, for the app's lifetime (runs and drafts outlive the screen)."""
        if self._histories is None:
            from tui.dashboard.features.console.history import ConsoleHistories

            self._histories = ConsoleHistories()
        return self._histories

    @property
    def webhooks(self) -> InboxService:
        """The webhook inbox of this run (its listener starts when the inbox is first opened)."""
        if self._webhooks is None:
            from tui.dashboard.features.inbox.service import InboxService

            self._webhooks = InboxService()
        return self._webhooks

    @property
    def support_log(self) -> SupportLog:
        """The questions asked to support in this run and their answers (they outlive the screen)."""
        if self._support_log is None:
            from tui.dashboard.features.support.log import SupportLog

            self._support_log = SupportLog()
        return self._support_log

    @property
    def docs_search_memory(self) -> DocsSearchMemory:
        """The last docs search (question, answer, selection), for the app's lifetime: operators reopen searches."""
        if self._docs_search is None:
            from tui.dashboard.features.support.docs_search import DocsSearchMemory

            self._docs_search = DocsSearchMemory()
        return self._docs_search

    def screen_for(self, intent: Intent) -> Screen[Any]:
        """The screen that answers `intent`."""
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
            history = self.console_histories.for_target(target)
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
            return AskSupportScreen(self.client, subject, log=self.support_log, clock=self.clock)
        if isinstance(intent, Confirm):
            from tui.dashboard.kit.confirm import ConfirmScreen

            return ConfirmScreen(intent.question, intent.confirm_label)
        if isinstance(intent, OpenEndedSession):
            from tui.dashboard.features.console.history import ConsoleTarget
            from tui.dashboard.features.console.session_detail import SessionDetailScreen

            history = self.console_histories.for_target(ConsoleTarget.for_session(intent.session))
            return SessionDetailScreen(intent, history)
        if isinstance(intent, OpenHelp):
            from tui.dashboard.keys.help import HelpScreen

            return HelpScreen()
        if isinstance(intent, OpenDocsSearch):
            from tui.dashboard.features.support.docs_search import DocsSearchScreen
            from tui.dashboard.kit.widgets.hyperlink import hyperlinks_supported

            return DocsSearchScreen(
                self.client,
                memory=self.docs_search_memory,
                query=intent.query,
                hyperlinks=hyperlinks_supported(os.environ),  # the terminal's, so read where screens are built
            )
        if isinstance(intent, OpenFailedJobs):
            from tui.dashboard.features.activity.failed_view import FailedJobsScreen

            return FailedJobsScreen(self.client, intent.statuses, endpoint=intent.endpoint, clock=self.clock)
        if isinstance(intent, OpenWebhookInbox):
            from tui.dashboard.features.inbox.screen import WebhookInboxScreen

            return WebhookInboxScreen(self.webhooks, clock=self.clock)
        if isinstance(intent, OpenCrawlForm):
            from tui.dashboard.features.crawls.form import CrawlFormScreen

            return CrawlFormScreen(self.client, webhooks=self.webhooks, draft=self.crawl_form_draft)
        if isinstance(intent, OpenScrapeForm):
            from tui.dashboard.features.scrape.form import ScrapeFormScreen

            return ScrapeFormScreen(self.client)
        if isinstance(intent, OpenMapExplorer):
            from tui.dashboard.features.map.explorer import MapExplorerScreen

            return MapExplorerScreen(self.client)
        if isinstance(intent, OpenBatchForm):
            from tui.dashboard.features.batch.form import BatchFormScreen

            return BatchFormScreen(self.client, webhooks=self.webhooks, urls=intent.urls)
        if isinstance(intent, OpenBatch):
            from tui.dashboard.features.batch.status import BatchStatusScreen

            return BatchStatusScreen(
                self.client, intent.batch_id, invalid_urls=intent.invalid_urls,
                clock=self.clock, interval=self.crawl_poll_seconds,
            )
        raise TypeError(f"no screen answers {type(intent).__name__}")

    @staticmethod
    def when_answered(intent: Intent, dashboard: DOMNode) -> Callable[[Any], None] | None:
        """What to do with the screen's answer, for intents that ask a question (`dashboard`: where the panes are)."""
        if isinstance(intent, NewSession):

            def created(session: SessionCreated | None) -> None:
                if session is not None:
                    dashboard.query_one(SessionsPane).session_created(session)

            return created
        if isinstance(intent, Confirm):

            def answered(yes: bool | None) -> None:
                if yes:
                    intent.on_yes()

            return answered
        return None

    @staticmethod
    def crawl_started(dashboard: DOMNode) -> None:
        """A form started a crawl: the crawls pane on `dashboard` shows it without waiting for its next refresh."""
        for pane in dashboard.query(CrawlsPane):
            pane.refresh_data()
