"""The client's error hierarchy: one class per thing that can go wrong.

Modelled on anthropic-sdk-python's `_exceptions.py` (connection, timeout, status
errors with a subclass per status meaning) and on harlequin's `exception.py`
(every class carries a `title` a person can read in an error modal).

    WdsError
    ├── RequestValidationError        bad arguments, raised before anything is sent
    │   └── NoRetrievalError          a job kind the contract gives no retrieval endpoint
    ├── WebhookError
    │   ├── WebhookSignatureError     missing, malformed or wrong signature
    │   └── WebhookPayloadError       a delivery whose body is not a JSON event
    └── APIError                      something happened on the wire
        ├── APIConnectionError        refused, DNS failure, reset
        │   └── APITimeoutError
        ├── InvalidResponseError      the server sent something we cannot read
        │   ├── ResponseNotJSONError
        │   ├── ResponseShapeError
        │   └── ResponseTooLargeError     longer than the cap of its call
        ├── APIStatusError            a non-2xx answer; one subclass per meaning
        └── SocketError               following a crawl over the WebSocket (`tui.api.socket_errors`)

This module imports neither httpx nor the client, so webhook receivers can
use it on their own. No message built here ever contains the API
key: the client masks it before a message is made (see `client.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # only for annotations: errors.py stays importable without httpx
    from collections.abc import Sequence

    import httpx

    from tui.contract.models.support import SupportAskPartial

__all__ = [
    "APIConnectionError",
    "APIError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "BadGatewayError",
    "BadRequestError",
    "ConflictError",
    "GatewayTimeoutError",
    "GoneError",
    "InsufficientCreditsError",
    "InternalServerError",
    "InvalidResponseError",
    "LockdownCacheMissError",
    "NoRetrievalError",
    "NoCachedDataError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "ReadOnlyError",
    "RequestTimeoutError",
    "RequestValidationError",
    "ResponseNotJSONError",
    "ResponseShapeError",
    "ResponseTooLargeError",
    "ServiceUnavailableError",
    "WdsError",
    "WebhookError",
    "WebhookPayloadError",
    "WebhookSignatureError",
]


class WdsError(Exception):
    """Base of every error raised by `tui.api`.

    `title` is a short heading for an error modal; `message` is the sentence
    under it (also what `str()` gives).
    """

    title: ClassVar[str] = "Error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class ReadOnlyError(WdsError):
    """A client made read-only was asked to send a request that changes something; nothing was sent."""

    title = "Read-only"

    def __init__(self, method: str, path: str) -> None:
        super().__init__(f"read-only mode: {method} {path} was not sent (it would change something on the service)")
        self.method = method
        self.path = path


class RequestValidationError(WdsError, ValueError):
    """Arguments that break a contract limit; raised before any request is sent.

    `issues` lists each problem as `{"path": <wire name>, "message": ...}`,
    the same shape as the `details` of the server's own 400.
    """

    title = "Invalid request"

    def __init__(self, message: str, *, request_name: str = "", issues: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.request_name = request_name
        self.issues: list[dict[str, Any]] = issues or []

    @property
    def fields(self) -> list[str]:
        """Wire names of the offending fields, e.g. `["activityTtl"]`."""
        return [str(issue["path"]) for issue in self.issues if issue.get("path")]


class NoRetrievalError(RequestValidationError):
    """A job of this kind cannot be fetched: the contract maps no retrieval endpoint to it.

    `kind` is the activity entry's `endpoint` (`map`, `search`, ...);
    `retrievable` the kinds that can be fetched. The message says both.
    """

    title = "No retrieval endpoint"

    def __init__(self, kind: str, retrievable: Sequence[str]) -> None:
        # Plain words: the app shows this message as plain text, where backticks would show as such.
        kinds = (
            ", ".join(retrievable[:-1]) + f" and {retrievable[-1]}" if len(retrievable) > 1 else "".join(retrievable)
        )
        message = (
            f"{kind} calls have no retrieval endpoint in the contract, so this entry "
            f"cannot be opened. Only {kinds} entries can."
        )
        super().__init__(message, request_name="kind", issues=[{"path": "kind", "message": message}])
        self.kind = kind
        self.retrievable = tuple(retrievable)


class WebhookError(WdsError):
    """A webhook delivery that must be rejected."""

    title = "Webhook rejected"


class WebhookSignatureError(WebhookError):
    """The `X-Service-Signature` header is missing, malformed or does not match."""

    title = "Webhook signature invalid"


class WebhookPayloadError(WebhookError):
    """The delivery's body is not a JSON webhook event."""

    title = "Webhook payload invalid"


class APIError(WdsError):
    """Something went wrong talking to the service. `method`/`url` say which call."""

    title = "Service error"

    def __init__(self, message: str, *, method: str = "", url: str = "") -> None:
        super().__init__(message)
        self.method = method
        self.url = url


class APIConnectionError(APIError):
    """The service could not be reached (refused, DNS failure, reset, TLS)."""

    title = "Cannot reach the service"


class APITimeoutError(APIConnectionError):
    """The service did not answer in time."""

    title = "The service did not answer in time"


class InvalidResponseError(APIError):
    """The server answered, but with something the client cannot read.

    Carries the status, the content type and a short excerpt of the body, so a
    person can tell a proxy's HTML error page from a changed API.
    """

    title = "Unexpected answer from the service"

    def __init__(
        self, message: str, *, status: int, content_type: str, excerpt: str, method: str = "", url: str = ""
    ) -> None:
        super().__init__(message, method=method, url=url)
        self.status = status
        self.content_type = content_type
        self.excerpt = excerpt


class ResponseNotJSONError(InvalidResponseError):
    """The body is not JSON (an HTML error page, an empty body, truncated text)."""


class ResponseShapeError(InvalidResponseError):
    """The body is JSON but not of the promised shape (missing or mistyped field, nested too deep)."""


class ResponseTooLargeError(InvalidResponseError):
    """The body is longer than the client reads for this call (see `tui.api.body_reader`).

    `limit` is that cap in bytes (decoded: a compressed body counts as it inflates).
    """

    def __init__(self, message: str, *, limit: int, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.limit = limit


class APIStatusError(APIError):
    """The service answered with a non-2xx status.

    Attributes: `status` (HTTP status), `code` (the body's `code`, e.g.
    `"NOT_FOUND"`), `message` (the body's `error`), `details` (validation
    issues of a 400, else whatever the body carried), `request_id` (from the
    `x-request-id` header or the body's `requestId`), `body` (the parsed JSON
    body, or the raw text when it was not JSON) and `response`.
    """

    title = "The service refused the request"

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        details: Any = None,
        request_id: str | None = None,
        body: Any = None,
        response: httpx.Response | None = None,
        method: str = "",
        url: str = "",
    ) -> None:
        super().__init__(message, method=method, url=url)
        self.status = status
        self.code = code
        self.details = details
        self.request_id = request_id
        self.body = body
        self.response = response

    @property
    def status_code(self) -> int:
        """Alias of `status`, as in httpx and anthropic-sdk-python."""
        return self.status

    def __str__(self) -> str:
        label = f"{self.status} {self.code}" if self.code else str(self.status)
        text = f"{label}: {self.message}"
        if self.request_id:
            text += f" (request id {self.request_id})"
        return text

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status}, code={self.code!r}, "
            f"message={self.message!r}, request_id={self.request_id!r})"
        )


class BadRequestError(APIStatusError):
    """400: the request broke a rule; `details` lists the issues when it was validation."""

    title = "Bad request"


class AuthenticationError(APIStatusError):
    """401: the API key is missing or unknown."""

    title = "Not authorised: check the API key"


class InsufficientCreditsError(APIStatusError):
    """402: the team has no credits left for this."""

    title = "Insufficient credits"


class PermissionDeniedError(APIStatusError):
    """403: the resource belongs to another team."""

    title = "Permission denied"


class NotFoundError(APIStatusError):
    """404: no such job, session or page (or it expired)."""

    title = "Not found"


class NoCachedDataError(NotFoundError):
    """404 `SCRAPE_NO_CACHED_DATA`: `minAge` asked for cached data and there is none."""

    title = "No cached data"


class LockdownCacheMissError(NotFoundError):
    """404 `SCRAPE_LOCKDOWN_CACHE_MISS`: lockdown mode and nothing cached."""

    title = "Lockdown: not in cache"


class RequestTimeoutError(APIStatusError):
    """408: the server gave up waiting for the request."""

    title = "Request timed out"


class ConflictError(APIStatusError):
    """409: conflicting state (a profile already has a saver; replay context gone)."""

    title = "Conflict"


class GoneError(APIStatusError):
    """410: the browser session has been destroyed."""

    title = "Gone"


class RateLimitError(APIStatusError):
    """429: too many requests or too many concurrent sessions.

    `retry_after` is the wait in seconds the server asked for (from
    `Retry-After`, or from the message), or None when it did not say.
    """

    title = "Rate limited"

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class InternalServerError(APIStatusError):
    """A 5xx without a more specific class (500 `UNKNOWN_ERROR`, ...)."""

    title = "Server error"


class BadGatewayError(InternalServerError):
    """502: the browser service or AI agent behind the API failed."""

    title = "Bad gateway"


class ServiceUnavailableError(InternalServerError):
    """503: the feature is not available (e.g. no browser on a self-hosted deployment)."""

    title = "Service unavailable"


class GatewayTimeoutError(InternalServerError):
    """504: an upstream budget ran out. For support ask, `partial` is the partial envelope."""

    title = "Gateway timeout"

    def __init__(self, message: str, *, partial: SupportAskPartial | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.partial = partial
