"""When a listed browser session ends: from what creating it said, since the list does not say."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.monitor.clock import Clock
from tui.contract.models.browser import BrowserSession, BrowserSessionCreated
from tui.monitor.alerts.engine import AlertEngine
from tui.monitor.alerts.rules import SessionExpiringRule
from tui.monitor.hub import Monitor
from tui.monitor.session_ends import SessionEnds


def listed(session_id: str, clock: Clock, idle_for: float = 0) -> BrowserSession:
    """The session as the list shows it: no `expiresAt`, its last activity `idle_for` minutes ago."""
    last = clock() - timedelta(minutes=idle_for)
    return BrowserSession(id=session_id, status="active", created_at=last, last_activity=last)


def test_the_end_is_the_ttl_or_the_idle_limit_whichever_comes_first_and_unknown_for_other_sessions() -> None:
    clock = Clock()
    ends = SessionEnds(kept=2)
    ends.created("ttl-first", clock() + timedelta(minutes=10), activity_ttl=3600)
    ends.created("idle-first", clock() + timedelta(minutes=60), activity_ttl=300)
    assert ends.end_of(listed("ttl-first", clock)) == clock() + timedelta(minutes=10)
    assert ends.end_of(listed("idle-first", clock, idle_for=1)) == clock() + timedelta(minutes=4)
    assert ends.end_of(listed("someone-elses", clock)) is None
    ends.created("third", None, activity_ttl=None)  # past the limit: the oldest is forgotten
    assert ends.end_of(listed("ttl-first", clock)) is None
    ends.forget("idle-first")
    assert ends.end_of(listed("idle-first", clock)) is None


async def test_a_session_created_here_is_judged_for_expiry_from_its_create_answer(tmp_path: Path) -> None:
    clock = Clock()
    monitor = Monitor(context=None, engine=AlertEngine([SessionExpiringRule(minutes=5)], clock), clock=clock)
    heard: list[str] = []
    monitor.listen(lambda event, notice: heard.append(f"{event.what} {event.alert.subject}"))
    created = BrowserSessionCreated(id="s-1", cdp_url="ws://x/cdp/s-1", expires_at=clock() + timedelta(minutes=30))
    monitor.saw_session_created(created, activity_ttl=240)
    monitor.saw_sessions([listed("s-1", clock), listed("s-2", clock)])  # s-2: not created here, end unknown
    assert heard == ["fired s-1"], "idle for 4 minutes ends it, before its ttl"
    clock.advance(minutes=2)
    monitor.saw_sessions([listed("s-1", clock), listed("s-2", clock)])  # it was used: 4 idle minutes again
    assert heard == ["fired s-1"]
    monitor.saw_sessions([listed("s-2", clock)])
    assert heard == ["fired s-1", "resolved s-1"]
    await monitor.aclose()
