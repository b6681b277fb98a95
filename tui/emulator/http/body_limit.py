"""A limit on the size of request bodies, enforced before and while a body streams in.

Without it a 100 MB body was read, parsed and answered after 52 s, with 300 MB
more memory (issue 9). A pure ASGI middleware, outermost, so nothing reads a
body it has not counted:
- a `Content-Length` over the limit (or not a number) is answered 413 at once,
  before a byte of the body is read;
- a body without one (chunked) is counted as it arrives, and the read that
  crosses the limit raises `ApiError(413)`, which the app's error handler
  answers in the service's error body. uvicorn discards (without keeping) the
  rest the client still sends, so the client reads the 413 instead of a reset.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tui.emulator.http.errors import ApiError

# Not stated by the contract. The largest legitimate body is a batch of
# thousands of URLs or a 100,000-character script; 10 MB is far beyond both.
MAX_BODY_BYTES = 10 * 1024 * 1024
SUPPORT_PREFIX = "/v2/support/"


def body_too_large(path: str, limit: int = MAX_BODY_BYTES) -> ApiError:
    """The 413 the service answers, in the support endpoints' shorter shape where they answer in it."""
    return ApiError(
        413,
        f"Request body too large: at most {limit} bytes ({limit // (1024 * 1024)} MB) are accepted.",
        "PAYLOAD_TOO_LARGE",
        support_style=path.startswith(SUPPORT_PREFIX),
    )


def _declared_length(scope: Scope) -> int | None:
    """The request's Content-Length; -1 when it is present but not a length."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() and len(text) < 20 else -1
    return None


class BodyLimitMiddleware:
    """Answer 413 for any HTTP request whose body is, or grows, larger than `max_bytes`."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        declared = _declared_length(scope)
        if declared is not None and not 0 <= declared <= self.max_bytes:
            await body_too_large(path, self.max_bytes).response()(scope, receive, send)
            return
        received = 0
        response_started = False

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise body_too_large(path, self.max_bytes)
            return message

        async def watched_send(message: Message) -> None:
            nonlocal response_started
            response_started = response_started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted_receive, watched_send)
        except ApiError as exc:
            # Raised by a reader outside the app's own error handling (a middleware, say).
            if exc.status != 413 or response_started:
                raise
            await exc.response()(scope, receive, send)
