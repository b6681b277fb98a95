"""Why the emulated service refuses a request, in domain terms.

Stores raise these; they know nothing of HTTP. `tui.emulator.http.errors`
maps each class to the service's status, code and error body, so the message
given here is exactly the `error` the caller reads.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A refusal with the message the service answers and, for invalid input, the problems found."""

    def __init__(self, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class InvalidRequest(ServiceError):
    """The request breaks a rule of the contract (a bad pattern, URL, cursor or limit)."""


class PaymentRequired(ServiceError):
    """The team has no credits left for this."""


class Forbidden(ServiceError):
    """The thing asked for belongs to another team."""


class NotFound(ServiceError):
    """No such job or session (or no longer)."""


class TimedOut(ServiceError):
    """The work did not finish within its time limit."""


class Conflict(ServiceError):
    """The request clashes with the current state (a profile in use, nothing to replay)."""


class Gone(ServiceError):
    """The session has ended."""


class LimitReached(ServiceError):
    """A limit of the team is reached; `retry_after` seconds, when known, says when to try again."""

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class UpstreamFailed(ServiceError):
    """A browser (the service's upstream) failed to start or to run the code."""


class Unavailable(ServiceError):
    """The feature cannot serve now (no browser on this machine, a browser still starting)."""
