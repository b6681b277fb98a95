"""Recording calls and billing credits: the one way activity and usage grow.

Every call a caller makes lands once in the team's activity log, and the
credits it cost once in the usage ledger and the team's balance, whether it
came over HTTP, from the seeded history or from a browser session ending.
"""

from __future__ import annotations

from datetime import datetime

from tui.emulator.core.activity import ActivityEntry, ActivityLog
from tui.emulator.core.clock import Clock
from tui.emulator.core.ids import NewId
from tui.emulator.core.teams import Caller, Team
from tui.emulator.core.usage import UsageLedger


class Billing:
    """Writes calls to the activity log and credits to the usage ledger and balances."""

    def __init__(self, activity: ActivityLog, usage: UsageLedger, clock: Clock, new_id: NewId) -> None:
        self._activity = activity
        self._usage = usage
        self._clock = clock
        self._new_id = new_id

    def record_call(
        self,
        caller: Caller,
        endpoint: str,
        target: str,
        job_id: str | None = None,
        credits: int = 0,
        at: datetime | None = None,
    ) -> ActivityEntry:
        """Record one API call (now, or at `at` for seeded history): its activity entry and its credits."""
        at = at or self._clock.now()
        entry = self._activity.record(
            caller.team.id, endpoint, target, job_id=job_id or self._new_id(), api_key=caller.api_key, at=at
        )
        self.charge(caller.team, caller.api_key, credits, at=at)
        return entry

    def charge(self, team: Team, api_key: str, credits: int, at: datetime | None = None) -> None:
        """Bill credits to a team (usage history + remaining balance); nothing for zero credits."""
        if credits <= 0:
            return
        self._usage.record(team.id, api_key, credits, at or self._clock.now())
        team.credits_remaining = max(0, team.credits_remaining - credits)
