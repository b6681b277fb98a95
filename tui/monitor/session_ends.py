"""When a browser session ends by itself, for the sessions whose end can be known at all.

The sessions list (`GET /v2/browser`) carries neither `expiresAt` nor the
session's `activityTtl`: only the create answer (`expiresAt`) and the create
request (`activityTtl`) say when a session ends. So a monitor can tell that a
session is about to expire only for the sessions its own dashboard created;
`SessionEnds` keeps what the create call said, and works out each listed
session's end from it and the list's `lastActivity`: the earlier of its ttl
and its idle limit.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta

from tui.contract.models.browser import BrowserSession

KEPT = 1000
"""Sessions whose lifetime is remembered at most (created and never listed ones are forgotten, oldest first)."""


@dataclass(frozen=True)
class Lifetime:
    """What creating a session said about its end: `expiresAt`, and the idle limit asked for."""

    expires_at: datetime | None
    activity_ttl: int | None


class SessionEnds:
    """The lifetimes of the sessions created here, by id, bounded."""

    def __init__(self, kept: int = KEPT) -> None:
        self._lifetimes: OrderedDict[str, Lifetime] = OrderedDict()
        self._kept = kept

    def created(self, session_id: str, expires_at: datetime | None, activity_ttl: int | None) -> None:
        """Remember what a create call said about session `session_id`."""
        self._lifetimes[session_id] = Lifetime(expires_at, activity_ttl)
        while len(self._lifetimes) > self._kept:
            self._lifetimes.popitem(last=False)

    def end_of(self, session: BrowserSession) -> datetime | None:
        """When `session` ends by itself: its ttl or its idle limit, whichever comes first (None: not known)."""
        known = self._lifetimes.get(session.id)
        expires = session.expires_at or (known.expires_at if known else None)
        idle_end = None
        if known is not None and known.activity_ttl and session.last_activity is not None:
            idle_end = session.last_activity + timedelta(seconds=known.activity_ttl)
        if expires is None or (idle_end is not None and idle_end < expires):
            return idle_end
        return expires

    def forget(self, session_id: str) -> None:
        """Drop an ended session."""
        self._lifetimes.pop(session_id, None)
