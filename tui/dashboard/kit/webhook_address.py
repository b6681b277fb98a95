"""What a launch form needs of the dashboard's webhook inbox: the address it listens on, if it does.

The crawl and batch forms offer that address as the job's webhook. They see
the inbox through this protocol only, so that a form does not import the
inbox feature (the navigation table hands the inbox in).
"""

from __future__ import annotations

from typing import Protocol


class WebhookAddress(Protocol):
    """Something that may be listening for the service's webhooks."""

    @property
    def address(self) -> str | None:
        """The URL to give the service as a webhook, while listening; None otherwise."""
        ...
