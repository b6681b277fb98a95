"""Which `tui.api.errors` class a non-2xx answer becomes: by its status, refined by the body's code."""

from __future__ import annotations

from tui.api.errors import (
    APIStatusError,
    AuthenticationError,
    BadGatewayError,
    BadRequestError,
    ConflictError,
    GatewayTimeoutError,
    GoneError,
    InsufficientCreditsError,
    InternalServerError,
    LockdownCacheMissError,
    NoCachedDataError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    RequestTimeoutError,
    ServiceUnavailableError,
)

_BY_STATUS: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    402: InsufficientCreditsError,
    403: PermissionDeniedError,
    404: NotFoundError,
    408: RequestTimeoutError,
    409: ConflictError,
    410: GoneError,
    429: RateLimitError,
    502: BadGatewayError,
    503: ServiceUnavailableError,
    504: GatewayTimeoutError,
}

_BY_CODE: dict[str, type[APIStatusError]] = {
    "SCRAPE_NO_CACHED_DATA": NoCachedDataError,
    "SCRAPE_LOCKDOWN_CACHE_MISS": LockdownCacheMissError,
}


def status_error_class(status: int, code: str | None = None) -> type[APIStatusError]:
    """The exception class for a status (and, for cache misses, the body's code)."""
    base = _BY_STATUS.get(status) or (InternalServerError if status >= 500 else APIStatusError)
    refined = _BY_CODE.get(code or "")
    # a code only refines its own status: SCRAPE_NO_CACHED_DATA on a 500 stays a 500
    if refined is not None and issubclass(refined, base):
        return refined
    return base
