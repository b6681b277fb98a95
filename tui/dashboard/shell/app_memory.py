"""What lives as long as the app: the webhook inbox, and what screens leave behind when they close.

One typed store, made once by the app factory (`tui.dashboard.startup.app_factory`) and handed
down: the router (`tui.dashboard.shell.navigation`) gives each screen it builds the part that
screen uses, through the screen's constructor. Nothing here knows screens or
the app, so data only flows down from it.

Each part is made on first use (its module imported then): the dashboard's
first frame pays for none of them.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.dashboard.features.console.history import ConsoleHistories
    from tui.dashboard.features.inbox.service import InboxService
    from tui.dashboard.features.jump.seen_jobs import SeenJobs
    from tui.dashboard.features.support.docs_search import DocsSearchMemory
    from tui.dashboard.features.support.log import SupportLog


class AppMemory:
    """The app-lifetime memory: `webhooks` as given (or made on first use), the rest made on first use."""

    def __init__(self, webhooks: InboxService | None = None) -> None:
        if webhooks is not None:
            self.webhooks = webhooks  # a cached_property takes a value set before its first use
        self.crawl_form_draft: dict[str, object] = {}
        """What the crawl form held when it was closed unsent (its field ids and values)."""

    @cached_property
    def webhooks(self) -> InboxService:
        """The webhook inbox of this run (its listener starts when the inbox is first opened, or at start-up).

        Made when the app mounts, not on first use: the app listens to it for the crawls and batches its events name.
        """
        from tui.dashboard.features.inbox.service import InboxService

        return InboxService()

    @cached_property
    def console_histories(self) -> ConsoleHistories:
        """One run history per console target: runs and drafts outlive the console screen."""
        from tui.dashboard.features.console.history import ConsoleHistories

        return ConsoleHistories()

    @cached_property
    def support_log(self) -> SupportLog:
        """The questions asked to support in this run and their answers (they outlive the screen)."""
        from tui.dashboard.features.support.log import SupportLog

        return SupportLog()

    @cached_property
    def seen_jobs(self) -> SeenJobs:
        """Id -> kind of the jobs the activity pane has shown: `g` opens those without asking the service."""
        from tui.dashboard.features.jump.seen_jobs import SeenJobs

        return SeenJobs()

    @cached_property
    def docs_search(self) -> DocsSearchMemory:
        """The last docs search (question, answer, selection): operators reopen searches."""
        from tui.dashboard.features.support.docs_search import DocsSearchMemory

        return DocsSearchMemory()
