"""Errors and the body the service answers them with.

Routes signal failure by raising `ApiError`; the stores below them raise the
domain errors of `tui.emulator.core.errors`, which `api_error_for` maps to the
service's status and code here, and only here. One exception handler in the
app turns either into the service's error body
`{"success": false, "error": ..., "code": ..., "details"?}` (or `{"error": ...}`
for the support endpoints, which answer in that shorter shape).
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tui.emulator.core import errors as domain

log = logging.getLogger(__name__)

_DEFAULT_CODES = {
    400: "BAD_REQUEST",
    401: "UNAUTHORIZED",
    402: "PAYMENT_REQUIRED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    408: "REQUEST_TIMEOUT",
    409: "CONFLICT",
    410: "GONE",
    429: "RATE_LIMITED",
    500: "UNKNOWN_ERROR",
    502: "BAD_GATEWAY",
    503: "SERVICE_UNAVAILABLE",
    504: "GATEWAY_TIMEOUT",
}


class ApiError(Exception):
    """A failure with the HTTP status, message and code the client will see."""

    def __init__(
        self,
        status: int,
        message: str,
        code: str | None = None,
        details: Any = None,
        headers: dict[str, str] | None = None,
        support_style: bool = False,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code or _DEFAULT_CODES.get(status, "UNKNOWN_ERROR")
        self.details = details
        self.headers = headers
        self.support_style = support_style

    def body(self) -> dict[str, Any]:
        """The JSON body of the error response."""
        if self.support_style:
            return {"error": self.message}
        body: dict[str, Any] = {"success": False, "error": self.message, "code": self.code}
        if self.details is not None:
            body["details"] = self.details
        return body

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers)


# Each domain refusal's status and code on the wire (looked up along the class's MRO).
_DOMAIN_STATUS: dict[type[domain.ServiceError], int] = {
    domain.InvalidRequest: 400,
    domain.PaymentRequired: 402,
    domain.Forbidden: 403,
    domain.NotFound: 404,
    domain.TimedOut: 408,
    domain.Conflict: 409,
    domain.Gone: 410,
    domain.LimitReached: 429,
    domain.UpstreamFailed: 502,
    domain.Unavailable: 503,
}


def api_error_for(exc: domain.ServiceError) -> ApiError:
    """The HTTP error the service answers for a domain refusal (status, code, message, Retry-After)."""
    status = next((_DOMAIN_STATUS[cls] for cls in type(exc).__mro__ if cls in _DOMAIN_STATUS), 500)
    headers = None
    if isinstance(exc, domain.LimitReached) and exc.retry_after is not None:
        headers = {"Retry-After": str(exc.retry_after)}
    return ApiError(status, exc.message, details=exc.details, headers=headers)


def bad_request(message: str, details: Any = None) -> ApiError:
    return ApiError(400, message, "BAD_REQUEST", details)


def invalid_json(message: str = "Invalid JSON in request body.") -> ApiError:
    return ApiError(400, message, "BAD_REQUEST_INVALID_JSON")


def unauthorized(message: str = "Unauthorized") -> ApiError:
    return ApiError(401, message, "UNAUTHORIZED")


def not_found(message: str, code: str = "NOT_FOUND") -> ApiError:
    return ApiError(404, message, code)


def conflict(message: str) -> ApiError:
    return ApiError(409, message, "CONFLICT")


def gone(message: str) -> ApiError:
    return ApiError(410, message, "GONE")


def bad_gateway(message: str) -> ApiError:
    return ApiError(502, message, "BAD_GATEWAY")


async def api_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """Starlette exception handler for `ApiError`."""
    assert isinstance(exc, ApiError)
    return exc.response()


async def domain_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """Starlette exception handler for the stores' domain errors."""
    assert isinstance(exc, domain.ServiceError)
    return api_error_for(exc).response()


SUPPORT_PREFIX = "/v2/support/"


class UnexpectedErrorMiddleware:
    """Answer any unexpected exception with the service's 500 body, and keep the connection.

    Starlette's own handler for `Exception` answers and then re-raises, so that
    the server logs it; uvicorn then closes the keep-alive connection, and the
    caller's next request on it fails with a reset. Here the exception is
    logged and answered, and goes no further. Outermost of the app's middleware but for fault injection.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:
            log.exception("unexpected error answering %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise  # half an answer is out: only closing the connection can end it
            error = ApiError(500, f"An unexpected error occurred: {type(exc).__name__}", "UNKNOWN_ERROR")
            error.support_style = str(scope.get("path", "")).startswith(SUPPORT_PREFIX)
            await error.response()(scope, receive, send)
