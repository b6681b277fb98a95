"""The team's activity entries not seen before, newest first, read page by page until a known one.

The service lists the last 24 hours newest first. A poll reads pages of 100
until a page holds an entry already seen (everything after it was seen too),
or the list ends, or `max_pages` were read (the first poll of a busy team reads
at most that many: the rest of the day is history the journal did not see).
Seen ids are remembered in a bounded memory, the oldest forgotten first:
memory stays flat however long `watch` runs.
"""

from __future__ import annotations

from collections import OrderedDict

from tui.api.client import WdsClient
from tui.contract.limits import ACTIVITY_LIMIT_MAX
from tui.contract.models import ActivityEntry

MAX_PAGES = 20
"""Pages a poll reads at most (2,000 entries)."""
SEEN_KEPT = 20_000
"""Entry ids remembered: more than the pages a poll reads, so a known entry is always found."""


class ActivityReader:
    """`await reader.new_entries()`: the entries since the last call, oldest first."""

    def __init__(self, client: WdsClient, *, max_pages: int = MAX_PAGES, seen_kept: int = SEEN_KEPT) -> None:
        self._client = client
        self._max_pages = max_pages
        self._seen_kept = max(seen_kept, max_pages * ACTIVITY_LIMIT_MAX)
        self._seen: OrderedDict[str, None] = OrderedDict()

    @property
    def seen(self) -> int:
        """Entry ids remembered."""
        return len(self._seen)

    async def new_entries(self) -> list[ActivityEntry]:
        """The entries not returned before, oldest first (the order they happened in)."""
        found: list[ActivityEntry] = []
        cursor: str | None = None
        for _ in range(self._max_pages):
            page = await self._client.team.activity(limit=ACTIVITY_LIMIT_MAX, cursor=cursor)
            fresh = [entry for entry in page.entries if entry.id not in self._seen]
            found.extend(fresh)
            cursor = page.next_cursor
            if len(fresh) < len(page.entries) or cursor is None:
                break
        found.reverse()
        for entry in found:
            self._seen[entry.id] = None
        while len(self._seen) > self._seen_kept:
            self._seen.popitem(last=False)
        return found
