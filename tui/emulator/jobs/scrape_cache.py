"""The per-team cache of scraped pages behind `maxAge`, `minAge` and `lockdown`.

A fresh scrape stores its document (unless the request may not be cached);
later scrapes of the same URL by the same team may be served from it:
- `maxAge` (default 2 days, 2 years under lockdown): serve an entry younger than that.
- `minAge`: cache-only; serve an entry at least that old, never scrape.
- `lockdown`: cache-only; never contact the target.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from tui.emulator.sites.site import split_url


@dataclass(frozen=True)
class CacheEntry:
    """A document as it was scraped at `stored_at`, written on first read.

    A batch or crawl stores every page it scrapes; writing each document only
    when a later scrape is served from it keeps a big job cheap to start.
    """

    write_document: Callable[[], dict[str, Any]] = field(repr=False)
    stored_at: datetime

    @cached_property
    def document(self) -> dict[str, Any]:
        return copy.deepcopy(self.write_document())

    def age_ms(self, now: datetime) -> int:
        return int((now - self.stored_at).total_seconds() * 1000)


def cache_key(url: str) -> str:
    """URLs that fetch the same page share an entry (scheme, `www.` and query order do not matter)."""
    host, path, query = split_url(url)
    params = "&".join(sorted(part for part in query.split("&") if part))
    return f"{host.removeprefix('www.')}{path}" + (f"?{params}" if params else "")


class ScrapeCache:
    """Documents scraped by each team, newest per URL.

    At most `max_entries` documents are kept, the least recently stored dropped
    first (as a real cache evicts): callers choose the URLs, so it is bounded.
    """

    def __init__(self, max_entries: int = 5000) -> None:
        self.max_entries = max_entries
        self._entries: dict[tuple[str, str], CacheEntry] = {}

    def put(
        self, team_id: str, url: str, document: dict[str, Any] | Callable[[], dict[str, Any]], at: datetime
    ) -> None:
        """Store `document` (or the function that writes it) as the team's copy of `url` at `at`."""
        key = (team_id, cache_key(url))
        self._entries.pop(key, None)  # re-stored: now the newest
        if isinstance(document, dict):
            stored = copy.deepcopy(document)  # the caller goes on changing its copy
            self._entries[key] = CacheEntry(lambda: stored, at)
        else:
            self._entries[key] = CacheEntry(document, at)
        while len(self._entries) > self.max_entries:
            del self._entries[next(iter(self._entries))]

    def get(self, team_id: str, url: str) -> CacheEntry | None:
        return self._entries.get((team_id, cache_key(url)))

    def fresh(self, team_id: str, url: str, now: datetime, max_age_ms: int) -> CacheEntry | None:
        """An entry no older than `max_age_ms`, for a normal scrape."""
        entry = self.get(team_id, url)
        if entry is None or max_age_ms <= 0 or entry.age_ms(now) > max_age_ms:
            return None
        return entry

    def aged(self, team_id: str, url: str, now: datetime, min_age_ms: int) -> CacheEntry | None:
        """An entry at least `min_age_ms` old, for a cache-only (`minAge`) scrape."""
        entry = self.get(team_id, url)
        if entry is None or entry.age_ms(now) < min_age_ms:
            return None
        return entry
