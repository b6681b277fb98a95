"""One 429 holds every background ask for the wait the service gave, or 30 s when it gave none."""

from __future__ import annotations

from tui.api.errors import RateLimitError
from tui.api.rate_limit_pause import DEFAULT_PAUSE, RateLimitPause


def test_the_pause_lasts_the_retry_after_given_or_the_default() -> None:
    now = [100.0]
    pause = RateLimitPause(lambda: now[0])
    assert pause.left() == 0
    pause.began(RateLimitError("Too many", status=429, retry_after=3))
    assert pause.left() == 3
    now[0] += 2.5
    assert pause.left() == 0.5
    now[0] += 1
    assert pause.left() == 0
    pause.began(RateLimitError("Too many", status=429))
    assert pause.left() == DEFAULT_PAUSE == 30
