"""What the dashboard remembers of sessions between polls, and what it can say of their end."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tui.contract.models.browser import BrowserSession
from tui.dashboard.features.sessions.notes import KnownLifetime, SessionNotebook

T0 = datetime(2026, 7, 15, 12, 0, tzinfo=UTC)


def listed(status: str, last_activity: datetime = T0) -> BrowserSession:
    return BrowserSession(id="s1", status=status, created_at=T0, last_activity=last_activity)


def test_a_session_seen_alive_then_ended_ended_between_the_two_polls() -> None:
    notes = SessionNotebook()
    notes.observe([listed("active")], T0 + timedelta(seconds=5), complete=True)
    notes.observe([listed("destroyed")], T0 + timedelta(seconds=10), complete=True)
    end = notes.ended(listed("destroyed"))
    assert (end.after, end.at) == (T0 + timedelta(seconds=5), T0 + timedelta(seconds=10))
    assert "between two polls" in end.how


def test_a_session_created_here_ended_at_its_idle_limit_when_that_falls_between_the_polls() -> None:
    notes = SessionNotebook()
    notes.of("s1").lifetime = KnownLifetime(expires_at=T0 + timedelta(minutes=10), activity_ttl=60)
    notes.observe([listed("active")], T0 + timedelta(seconds=30), complete=True)
    notes.observe([listed("destroyed")], T0 + timedelta(seconds=65), complete=True)
    end = notes.ended(listed("destroyed"))
    assert end.at == T0 + timedelta(seconds=60) and end.how == "at its idle limit"


def test_notes_of_sessions_no_longer_listed_are_forgotten() -> None:
    notes = SessionNotebook()
    notes.observe([listed("active")], T0, complete=True)
    notes.observe([], T0, complete=False)  # a filtered list says nothing of the others
    assert notes.get("s1") is not None
    notes.observe([], T0, complete=True)
    assert notes.get("s1") is None
    assert notes.ended(listed("destroyed")).how.startswith("not known")
