"""What a person pasted into "Open job by id": the job id in it, and the kind its URL names, if any.

Ids come from logs, tickets and chats: with quotes or spaces around them, or
inside a URL, the service's own (`https://api.example.com/v2/crawl/<id>`) or
a dashboard's (`https://app.example.com/crawls/<id>?tab=pages`). Every id the
service gives is a UUID, so the first UUID in the text is the id; the path
segment just before it, when it names a kind, is where to ask first.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

UUID_PATTERN = re.compile(r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}")

KINDS_IN_PATHS: dict[str, str] = {
    "crawl": "crawl",
    "crawls": "crawl",
    "batch": "batch_scrape",
    "batches": "batch_scrape",
    "scrape": "scrape",
    "scrapes": "scrape",
    "extract": "extract",
    "extracts": "extract",
    "agent": "agent",
    "agents": "agent",
    "browser": "browser",
    "sessions": "browser",
    "cdp": "browser",
}
"""A path segment before the id -> the activity kind it names (`/v2/batch/scrape/<id>`: the `batch` before `scrape`)."""


@dataclass(frozen=True)
class JobReference:
    """A job id (hyphenated, lower case) and the kind the text named, if it named one."""

    job_id: str
    kind: str | None = None


def read_reference(text: str) -> JobReference | None:
    """The job id in `text` and the kind its URL path names; None when `text` holds no id."""
    found = UUID_PATTERN.search(text)
    if found is None:
        return None
    job_id = str(uuid.UUID(found.group()))
    segments = [part.lower() for part in re.split(r"[/?#&=]", text[: found.start()]) if part]
    kind = None
    if segments and segments[-1] in KINDS_IN_PATHS:
        kind = KINDS_IN_PATHS[segments[-1]]
        if kind == "scrape" and len(segments) > 1 and segments[-2] == "batch":
            kind = "batch_scrape"
    return JobReference(job_id, kind)
