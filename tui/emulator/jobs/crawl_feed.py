"""What a crawl's WebSocket watcher is told: a catch-up, then each document as its page is scraped.

The messages are the service's (its crawl status socket, which the official
SDKs' watchers read): `{"type": "catchup", "data": <status body>}` once, with
every document scraped so far, then `{"type": "document", "data": <Document>}`
for each page scraped after it, in page order. Pages that produced no document
are passed over, as the service passes over its failed pages. The end of the
crawl is not a message but the socket's close (`DONE`, see
`tui.emulator.http.crawl_socket`). A crawl is revealed along its timeline, so
what is due is a function of the clock: the route asks at each tick.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tui.emulator.core.clock import isoformat_z
from tui.emulator.jobs.model import CrawlJob

DONE: dict[str, Any] = {"type": "done"}


def error_message(text: str) -> dict[str, Any]:
    """The service's `{"type": "error", "error": ...}`, the reason of a refusing close."""
    return {"type": "error", "error": text}


class CrawlFeed:
    """One watcher's view of one crawl: what it has been told, and what is due next."""

    def __init__(self, job: CrawlJob) -> None:
        self.job = job
        self._pages_told = 0

    def catchup(self, now: datetime) -> dict[str, Any]:
        """The first message: the crawl's status with every document scraped by `now`."""
        job = self.job
        done = job.completed(now)
        self._pages_told = done
        if job.status(now) == "failed" and job.plan.start_failure is not None:
            # A crawl refused at its start: the service's catch-up says why, with nothing scraped.
            error = job.timeline.failed_with or job.plan.start_failure.message
            failed = {"success": False, "error": error, "status": "failed"}
            counts = {"total": 0, "completed": 0, "creditsUsed": 0, "expiresAt": isoformat_z(job.expires_at)}
            return {"type": "catchup", "data": {**failed, **counts, "data": []}}
        # One page as large as everything done holds every document, so no `next` is made
        # (and the base URL it would be built from is not needed).
        body = job.status_payload(now, 0, max(1, done), "")
        if body["status"] == "failed" and job.timeline.failed_with is not None:
            # Failed by a tester (`progression`): said as a failed start says it, with the pages it had.
            body = {**body, "success": False, "error": job.timeline.failed_with}
        return {"type": "catchup", "data": body}

    def news(self, now: datetime) -> list[dict[str, Any]]:
        """A `document` message for each page scraped since the last call (or the catch-up)."""
        done = self.job.completed(now)
        fresh = range(self._pages_told, done)
        self._pages_told = max(self._pages_told, done)
        return [
            {"type": "document", "data": document}
            for index in fresh
            if (document := self.job.page_document(index)) is not None
        ]

    def ended(self, now: datetime) -> bool:
        """Whether the crawl has reached its final state (completed, failed or cancelled) by `now`."""
        return self.job.status(now) != "scraping"
