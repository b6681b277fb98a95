"""The app's keys that open a form or a tool screen: each posts its intent, the navigator opens it.

Kept apart from the app so that it reads as its parts (`tui.dashboard.shell.app`);
the bindings stay in the app's one list, where every key is seen together.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from textual.app import App

from tui.dashboard.kit.mutations import mutates
from tui.dashboard.shell.intents import (
    OpenBatchForm,
    OpenCrawlForm,
    OpenHistory,
    OpenMapExplorer,
    OpenScrapeForm,
    OpenWebhookInbox,
)

ReturnType = TypeVar("ReturnType")


class OpensForms(App[ReturnType], Generic[ReturnType]):
    """Mixed into the app: the actions behind w, H, C, S, M and B."""

    def action_history(self) -> None:
        """Open the history over the journal: calls, failures, credits, crawls and batches of the last 30 days."""
        self.post_message(OpenHistory())

    def action_webhook_inbox(self) -> None:
        """Open the webhook inbox (its listener starts if it is not running)."""
        self.post_message(OpenWebhookInbox())

    @mutates("starting a crawl")
    def action_crawl_form(self) -> None:
        """Open the form that starts a crawl."""
        self.post_message(OpenCrawlForm())

    @mutates("scraping a URL")
    def action_scrape_form(self) -> None:
        """Open the form that scrapes one URL (the result opens in the document view)."""
        self.post_message(OpenScrapeForm())

    @mutates("mapping a site")
    def action_map_explorer(self) -> None:
        """Open the map explorer (map a site, filter and select its links)."""
        self.post_message(OpenMapExplorer())

    @mutates("starting a batch scrape")
    def action_batch_form(self) -> None:
        """Open the batch scrape form (empty; the map explorer fills it with its selection)."""
        self.post_message(OpenBatchForm())
