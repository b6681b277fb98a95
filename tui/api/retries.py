"""When the client tries a request again, and how long it waits first.

The policy, in one place:

* **429 Too Many Requests**, any method: the server refused the request, so
  nothing happened and sending it again is safe. The wait is what the server
  asked for (`Retry-After` in seconds or as an HTTP date, `retry-after-ms`, or
  a "retry after 23s" in the message); when it did not say, exponential
  backoff with jitter. A requested wait longer than `max_wait` is not sat
  through: the `RateLimitError` is raised at once, carrying `retry_after`.
* **The connection could not be made** (refused, DNS failure, connect or pool
  timeout), any method: the request never left this machine.
* **408, 502, 503, 504, a read timeout, a connection reset after sending**:
  GET only. A POST or DELETE may already have had its effect (a session
  created, a crawl started, code run), and a repeated DELETE of an interaction
  would answer 404 for a stop that in fact worked.
* Anything else is never retried.

At most `max_retries` retries are made (so `max_retries + 1` attempts).
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC
from email.utils import parsedate_to_datetime

import httpx

from tui.api.backoff import Backoff

RETRYABLE_GET_STATUSES = frozenset({408, 502, 503, 504})
# Failures that happen before any byte of the request reached the server.
NOT_SENT_ERRORS: tuple[type[Exception], ...] = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
_RETRY_AFTER_IN_MESSAGE = re.compile(r"retry after (\d+(?:\.\d+)?)\s*(?:s\b|sec|second)", re.IGNORECASE)


@dataclass(frozen=True)
class RetryPolicy:
    """Bounds of the retry loop; see the module docstring for what is retried."""

    max_retries: int = 2
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_wait: float = 60.0

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError(f"max_retries must be 0 or more, not {self.max_retries}")
        if self.max_wait < 0:
            raise ValueError(f"max_wait must be 0 or more, not {self.max_wait}")

    def backoff(self, retry_index: int) -> float:
        """Seconds to wait before retry number `retry_index` (0-based), with jitter.

        Doubles from `base_delay` up to `max_delay`, less up to a quarter.
        """
        return Backoff(self.base_delay, self.max_delay).delay(retry_index)

    def can_retry_status(self, method: str, status: int) -> bool:
        """Whether a response with `status` may be retried for `method`."""
        if status == 429:
            return True
        return method.upper() == "GET" and status in RETRYABLE_GET_STATUSES

    def can_retry_error(self, method: str, error: Exception) -> bool:
        """Whether a transport failure may be retried for `method`."""
        if isinstance(error, NOT_SENT_ERRORS):
            return True
        return method.upper() == "GET" and isinstance(error, httpx.TransportError)


def retry_after_seconds(
    headers: Mapping[str, str], message: str | None = None, *, now: float | None = None
) -> float | None:
    """The wait the server asked for, in seconds, or None when it did not say.

    Reads `retry-after-ms`, then `Retry-After` (delta-seconds or an HTTP date),
    then a "retry after 23s" in the error message (the real service's 429s
    say it there rather than in a header).
    """
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is not None:
        value = value.strip()
        try:
            return max(0.0, float(value))
        except ValueError:
            pass
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            when = None
        if when is not None:
            if when.tzinfo is None:  # HTTP dates are GMT even when they do not say so
                when = when.replace(tzinfo=UTC)
            current = time.time() if now is None else now
            return max(0.0, when.timestamp() - current)
    if message:
        match = _RETRY_AFTER_IN_MESSAGE.search(message)
        if match:
            return float(match.group(1))
    return None
