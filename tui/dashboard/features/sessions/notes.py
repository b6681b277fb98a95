"""What this dashboard knows of browser sessions beyond what the list says.

The list endpoint carries neither a session's end (`expiresAt`,
`activityTtl`) nor its profile, nor when it ended. This run of the dashboard
knows some of it: what it asked for when it created a session, when it
deleted one, and at which polls it saw a session active and then ended.
Kept in memory for the sessions the service still lists.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from tui.contract.models.browser import BrowserSession


@dataclass(frozen=True)
class KnownLifetime:
    """What this app knows about when a session it created ends."""

    expires_at: datetime | None
    activity_ttl: int


@dataclass
class SessionNotes:
    """What this run learnt about one session."""

    lifetime: KnownLifetime | None = None  # created here
    profile: str | None = None  # created here with a profile
    last_seen_active: datetime | None = None  # a poll that listed it active
    first_seen_ended: datetime | None = None  # the first poll that listed it ended
    deleted_at: datetime | None = None  # deleted from this dashboard
    delete_summary: str = ""  # what the delete answer said ("ran 42 s, 1 credits billed")


@dataclass(frozen=True)
class SessionEnd:
    """When a session ended, as well as this run knows it: how, and when (or between when)."""

    how: str
    at: datetime | None = None
    after: datetime | None = None  # set when only a range is known: after this, by `at`


def ends_at(session: BrowserSession, known: KnownLifetime | None) -> tuple[datetime, bool] | None:
    """When an active session ends by itself, and whether the idle limit is what ends it."""
    expires = session.expires_at or (known.expires_at if known else None)
    idle_end = None
    if known is not None and session.last_activity is not None:
        idle_end = session.last_activity + timedelta(seconds=known.activity_ttl)
    if expires is None and idle_end is None:
        return None
    if idle_end is not None and (expires is None or idle_end < expires):
        return idle_end, True
    assert expires is not None
    return expires, False


class SessionNotebook:
    """Notes per session id, for the sessions the service still lists."""

    def __init__(self) -> None:
        self._notes: dict[str, SessionNotes] = {}

    def get(self, session_id: str) -> SessionNotes | None:
        return self._notes.get(session_id)

    def of(self, session_id: str) -> SessionNotes:
        """The notes of a session, started empty on first use."""
        return self._notes.setdefault(session_id, SessionNotes())

    def lifetime(self, session_id: str) -> KnownLifetime | None:
        notes = self._notes.get(session_id)
        return notes.lifetime if notes is not None else None

    def profile(self, session: BrowserSession) -> str | None:
        """The profile the service lists, else the one this dashboard created the session with."""
        notes = self._notes.get(session.id)
        return session.profile_name or (notes.profile if notes is not None else None)

    def observe(self, sessions: Iterable[BrowserSession], now: datetime, *, complete: bool) -> None:
        """A poll listed `sessions` at `now`; `complete` when it listed every status (forget the rest)."""
        listed = set()
        for session in sessions:
            listed.add(session.id)
            if session.is_active:
                self.of(session.id).last_seen_active = now
            else:
                notes = self._notes.get(session.id)
                if notes is not None and notes.first_seen_ended is None and notes.last_seen_active is not None:
                    notes.first_seen_ended = now  # only worth noting when it was seen alive before
        if complete:
            self._notes = {sid: notes for sid, notes in self._notes.items() if sid in listed}

    def ended(self, session: BrowserSession) -> SessionEnd:
        """When a session that is no longer active ended, as well as this run can tell."""
        notes = self._notes.get(session.id)
        if notes is None:
            return SessionEnd("not known: the service does not say, and it had ended before this dashboard saw it")
        if notes.deleted_at is not None:
            summary = f" ({notes.delete_summary})" if notes.delete_summary else ""
            return SessionEnd(f"deleted from this dashboard{summary}", notes.deleted_at)
        if notes.first_seen_ended is not None and notes.last_seen_active is not None:
            limit = ends_at(session, notes.lifetime)
            if limit is not None and notes.last_seen_active <= limit[0] <= notes.first_seen_ended:
                why = "its idle limit" if limit[1] else "its ttl"
                return SessionEnd(f"at {why}", limit[0])
            return SessionEnd("between two polls of this dashboard", notes.first_seen_ended, notes.last_seen_active)
        return SessionEnd("not known: the service does not say")
