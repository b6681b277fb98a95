"""The dashboard's notion of "now", injectable so snapshot tests can freeze it (see tests/ui/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)
