"""Time windows over the activity log: the last 15 minutes, hour, 6 hours or 24 hours.

The service keeps 24 hours of activity and pages it newest first, so the
24 h window is the log itself, a page at a time. A shorter window is read
whole: pages are fetched until one reaches back past the window's start (or
the log ends), and only the entries created since then, by the app's clock,
are kept. `MAX_ENTRIES` bounds what one window costs: a busy team's hour
stays well under it; past it the list says it is cut.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tui.contract.limits import ACTIVITY_LIMIT_MAX
from tui.contract.models import ActivityEntry

WINDOWS: tuple[timedelta, ...] = (timedelta(minutes=15), timedelta(hours=1), timedelta(hours=6), timedelta(hours=24))
WHOLE_LOG = WINDOWS[-1]
"""The service's own span: the window that is paged rather than read whole."""
MAX_ENTRIES = 2000


def window_text(window: timedelta) -> str:
    """`15 min`, `1 h`, `6 h`, `24 h`."""
    minutes = int(window.total_seconds() // 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h"


def next_window(window: timedelta) -> timedelta:
    """The window after `window`, round again after 24 h."""
    index = WINDOWS.index(window) if window in WINDOWS else -1
    return WINDOWS[(index + 1) % len(WINDOWS)]


def in_window(entry: ActivityEntry, since: datetime) -> bool:
    """Whether `entry` was created within the window starting at `since`."""
    return entry.created_at >= since


@dataclass(frozen=True)
class WindowEntries:
    """The entries of one window, newest first; `cut` when there were more than `MAX_ENTRIES`."""

    entries: tuple[ActivityEntry, ...]
    pages: int
    cut: bool


async def entries_since(
    team: Any,  # client.team: `activity(endpoint=, limit=, cursor=)`
    endpoint: str | None,
    since: datetime,
    *,
    page_size: int = ACTIVITY_LIMIT_MAX,
    limit: int = MAX_ENTRIES,
) -> WindowEntries:
    """Every entry (of `endpoint`, or all kinds) created since `since`, following the cursors as far as needed."""
    kept: list[ActivityEntry] = []
    cursor: str | None = None
    pages = 0
    while True:
        page = await team.activity(endpoint=endpoint, limit=page_size, cursor=cursor)
        pages += 1
        fresh = [entry for entry in page.entries if in_window(entry, since)]
        kept.extend(fresh)
        if len(kept) > limit:
            return WindowEntries(tuple(kept[:limit]), pages, cut=True)
        reached_start = len(fresh) < len(page.entries)
        cursor = page.next_cursor
        if reached_start or cursor is None:
            return WindowEntries(tuple(kept), pages, cut=False)
