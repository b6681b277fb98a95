"""Credit usage per team, month and API key, behind the historical usage endpoints.

Every credit the emulator charges goes through `UsageLedger.record` (via
`Billing.charge`), so the reported history is exactly what the emulator did
plus the seeded past. Reported tokens are credits x 15, as the contract states.

Decision where the contract is silent: with `byApiKey=false` a period's
`apiKey` is `null` (the usage of all keys together belongs to no single key).
Periods run oldest first, one per month from the team's first recorded usage
to the current month, so a chart of them has no gaps.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

from tui.contract.limits import TOKENS_PER_CREDIT
from tui.contract.redact import mask_key
from tui.emulator.core.clock import Clock, isoformat_z


def month_start(at: datetime) -> datetime:
    """The first instant of the (UTC) month containing `at`."""
    at = at.astimezone(UTC)
    return datetime(at.year, at.month, 1, tzinfo=UTC)


def next_month(start: datetime) -> datetime:
    return datetime(start.year + start.month // 12, start.month % 12 + 1, 1, tzinfo=UTC)


def month_end(start: datetime) -> datetime:
    """The last instant (to the millisecond the wire shows) of the month starting at `start`."""
    return next_month(start) - timedelta(milliseconds=1)


class UsageLedger:
    """Credits by (team, month, key)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._credits: dict[str, dict[datetime, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))

    def record(self, team_id: str, api_key: str, credits: int, at: datetime | None = None) -> None:
        """Add `credits` used by `api_key` of `team_id` at `at` (default: now)."""
        if credits < 0:
            raise ValueError("credits cannot be negative")
        by_key = self._credits[team_id][month_start(at or self._clock.now())]
        by_key[api_key] = by_key.get(api_key, 0) + credits

    def credits_in_month(self, team_id: str, at: datetime, api_key: str | None = None) -> int:
        """Credits used in the month containing `at` (by one key, or by the whole team)."""
        by_key = self._credits.get(team_id, {}).get(month_start(at), {})
        if api_key is not None:
            return by_key.get(api_key, 0)
        return sum(by_key.values())

    def periods(self, team_id: str, by_api_key: bool, *, unit: str = "tokens") -> list[dict[str, Any]]:
        """Month-by-month usage, oldest first, as the wire shows it.

        `unit="tokens"` gives `totalTokens` (credits x 15) and the same figure as
        `tokensUsed`: the contract names it `totalTokens`, the real service and its
        SDKs `tokensUsed`, and a client written against either must find it.
        `unit="credits"` gives `creditsUsed`, for the sibling credit-usage endpoint.
        """
        months = self._credits.get(team_id, {})
        if not months:
            return []
        keys = sorted({key for by_key in months.values() for key in by_key})
        periods: list[dict[str, Any]] = []
        current = month_start(self._clock.now())
        start = min(min(months), current)
        while start <= current:
            by_key = months.get(start, {})
            if by_api_key:
                for key in keys:
                    periods.append(self._period(start, mask_key(key), by_key.get(key, 0), unit))
            else:
                periods.append(self._period(start, None, sum(by_key.values()), unit))
            start = next_month(start)
        return periods

    @staticmethod
    def _period(start: datetime, api_key: str | None, credits: int, unit: str) -> dict[str, Any]:
        tokens = credits * TOKENS_PER_CREDIT
        amount = {"totalTokens": tokens, "tokensUsed": tokens} if unit == "tokens" else {"creditsUsed": credits}
        return {"startDate": isoformat_z(start), "endDate": isoformat_z(month_end(start)), "apiKey": api_key, **amount}
