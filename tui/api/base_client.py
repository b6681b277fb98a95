"""The transport under `WdsClient`: one connection pool, retries, typed errors.

After anthropic-sdk-python's `_base_client.py`: everything a call needs on the
wire lives here, and the resources (`tui.api.resources`) depend on this class
only; `tui.api.client.WdsClient` is the facade that adds them as attributes.
So the resources never import the client back.

`BaseClient.request()` validates nothing itself (the resources build requests
from `tui.contract.requests`), returns a pydantic model, and raises only
`tui.api.errors` exceptions. Retries follow `tui.api.retries`, inside the
call's deadline; bodies are read within the caps of `tui.api.body_reader`.

The API key is held as a `SecretStr`, sent only in the `Authorization`
header, and never appears in `repr()`, logs or exception messages (a server
that echoes it back has it masked).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

import httpx
from pydantic import BaseModel, SecretStr

from tui import __version__
from tui.api.body_reader import ACCEPTED_ENCODINGS, ANSWER_MAX_BYTES, BodyDecodeError, BodyTooLarge, read_body
from tui.api.client_setup import DEFAULT_TIMEOUT, as_timeout, check_api_key, check_base_url, connection_pool
from tui.api.errors import (
    APIConnectionError,
    APITimeoutError,
    InvalidResponseError,
    RateLimitError,
    ReadOnlyError,
    ResponseTooLargeError,
)
from tui.api.in_flight import CallsInFlight
from tui.api.responses import collections_paused, excerpt, parse_model, read_json, status_error
from tui.api.retries import RetryPolicy
from tui.api.socket_errors import SocketNotOfferedError
from tui.contract.redact import mask_key

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

ModelT = TypeVar("ModelT", bound=BaseModel)
Sleep = Callable[[float], Awaitable[Any]]

DEFAULT_MAX_RETRIES = 2
DEFAULT_MAX_RETRY_WAIT = 60.0

log = logging.getLogger("tui.api")


READING_POSTS = frozenset({"/v2/support/docs-search", "/v2/crawl/params-preview"})
"""POSTs that only ask (a search, a preview): allowed in read-only mode."""


def only_reads(method: str, path: str) -> bool:
    """Whether a request changes nothing on the service (what a read-only client may send)."""
    return method.upper() in ("GET", "HEAD") or (method.upper() == "POST" and path in READING_POSTS)


class BaseClient:
    """Sends calls to the web-data service: connection pool, retries, typed errors.

    Args:
        base_url: the service's address, e.g. `http://127.0.0.1:8000` (paths
            carry the `/v2` prefix themselves).
        api_key: the team's API key (str or `SecretStr`).
        http_client: an `httpx.AsyncClient` to send through (tests pass one
            with a mock transport). It is not closed by `aclose()`; the client
            made when none is given is.
        timeout: the budget of a whole call, retries and their waits included
            (None: wait for ever; a float: that many seconds, connecting within 5 s
            of them; an `httpx.Timeout`: its `read` is the budget, each phase its
            own limit). Calls that legitimately run long (support ask, execute,
            interact, scrape, map) have their own budget when it is longer.
        max_retries: retries after the first attempt; see `tui.api.retries`.
        max_retry_wait: the longest server-requested 429 wait that is sat
            through; a longer one raises `RateLimitError` at once.
        sleep: the coroutine used to wait between retries (tests inject one
            that records instead of sleeping).
        live_sockets: whether WebSockets are opened to the base URL (`open_socket`);
            None: only when the client made its own pool, since one passed in (a
            mock transport) may not lead to a server a socket can reach.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | SecretStr,
        *,
        http_client: httpx.AsyncClient | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        max_retry_wait: float = DEFAULT_MAX_RETRY_WAIT,
        sleep: Sleep | None = None,
        read_only: bool = False,
        live_sockets: bool | None = None,
    ) -> None:
        self._base_url = check_base_url(base_url)
        self.read_only = read_only  # refuse, before sending, every request that changes something
        self._api_key = check_api_key(api_key)
        self.timeout = as_timeout(timeout)
        self.retry_policy = RetryPolicy(max_retries=max_retries, max_wait=max_retry_wait)
        self._sleep: Sleep = sleep or asyncio.sleep
        self._owns_http_client = http_client is None
        self._http = http_client if http_client is not None else connection_pool(self._base_url, self.timeout)
        self.live_sockets = http_client is None if live_sockets is None else live_sockets
        self.in_flight = CallsInFlight()  # the calls on their way (a slow first answer is named by the dashboard)

    # -- lifecycle ---------------------------------------------------------------

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connection pool (only when this client created it)."""
        if self._owns_http_client:
            await self._http.aclose()

    @property
    def is_closed(self) -> bool:
        """True once the underlying connection pool is closed."""
        return self._http.is_closed

    def with_options(self, *, timeout: float | httpx.Timeout | None = None, max_retries: int | None = None) -> Self:
        """A client sharing this one's connection pool with other defaults.

        Closing the copy does not close the pool; close the original.
        """
        copy = type(self)(
            self._base_url,
            self._api_key,
            http_client=self._http,
            timeout=self.timeout if timeout is None else timeout,
            max_retries=self.retry_policy.max_retries if max_retries is None else max_retries,
            max_retry_wait=self.retry_policy.max_wait,
            sleep=self._sleep,
            read_only=self.read_only,
            live_sockets=self.live_sockets,
        )
        copy.in_flight = self.in_flight  # one record of what is on its way, whichever copy sent it
        return copy

    # -- identity ----------------------------------------------------------------

    def replace_api_key(self, api_key: str | SecretStr) -> None:
        """Send `api_key` from the next request on (a key typed after the first was refused).

        Copies made by `with_options` keep the key they were made with. Raises
        ValueError (never quoting the key) when it cannot be a key.
        """
        self._api_key = check_api_key(api_key)

    @property
    def base_url(self) -> str:
        """The service's address, without a trailing slash."""
        return self._base_url

    @property
    def api_key_hint(self) -> str:
        """The API key masked for display (`…` + its last four characters)."""
        return mask_key(self._api_key.get_secret_value())

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self._base_url!r}, api_key={self.api_key_hint!r})"

    def _scrub(self, text: str) -> str:
        """`text` with the API key masked, for anything that may be shown or logged."""
        key = self._api_key.get_secret_value()
        return text.replace(key, self.api_key_hint) if key in text else text

    masked = _scrub  # public, for what reads the wire beside `request` (`tui.api.crawl_watch`)

    # -- requests ----------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        return {
            "Authorization": f"Bearer {self._api_key.get_secret_value()}",
            "Accept": "application/json",
            "Accept-Encoding": ACCEPTED_ENCODINGS,  # only what `read_body` inflates within a budget
            "User-Agent": f"wds-tui/{__version__}",
        }

    def _timeout_for(self, extra_read: float | None) -> httpx.Timeout:
        """The default timeout, with the read timeout stretched to a call's own budget."""
        if extra_read is None or self.timeout.read is None or self.timeout.read >= extra_read:
            return self.timeout
        return httpx.Timeout(
            connect=self.timeout.connect, read=extra_read, write=self.timeout.write, pool=self.timeout.pool
        )

    async def request(
        self,
        method: str,
        path: str,
        model: type[ModelT],
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        read_timeout: float | None = None,
        partial_model: type[BaseModel] | None = None,
        max_bytes: int = ANSWER_MAX_BYTES,
    ) -> ModelT:
        """Send one call (with retries) and return its body as `model`.

        The building block of every resource method; `path` starts with `/v2/`.
        `read_timeout` extends the call's budget for calls that run long;
        `partial_model` reads the body of a 504 (support ask's partial envelope);
        `max_bytes` caps the decoded body (`tui.api.body_reader`).

        The whole call, retries and the waits between them included, ends
        within its budget: the client's read timeout, or `read_timeout` when
        longer (None: no bound). Past it, `APITimeoutError`.
        """
        if self.read_only and not only_reads(method, path):
            raise ReadOnlyError(method, path)
        timeout = self._timeout_for(read_timeout)
        budget = timeout.read
        deadline = None if budget is None else time.monotonic() + budget
        call = _Call(method, path, self._base_url + path, timeout, budget, deadline, max_bytes)
        with self.in_flight.call(method, path):
            response = await self._send(call, params=params, json=json)
        if not response.is_success:
            raise status_error(response, self._scrub, partial_model=partial_model)
        with collections_paused():
            data = read_json(response, self._scrub)
            result = parse_model(model, data, response, self._scrub)
            # The parsed JSON goes while the collector is still off: a map's 100,000 dicts, alive
            # when it came back on, made it walk them all (and the whole heap) for nothing.
            del data
        return result

    async def open_socket(self, path: str, *, max_bytes: int) -> ClientConnection:
        """A WebSocket to `path` with the key as on every call (`tui.api.sockets`); at most `max_bytes` a message.

        `SocketNotOfferedError` when none can be had, at once when `live_sockets` is off.
        """
        from tui.api.sockets import open_socket, socket_url  # websockets is loaded by the first socket only

        url = socket_url(self._base_url, path)
        if not self.live_sockets:
            raise SocketNotOfferedError("this client opens no WebSockets (live_sockets is off)", url=url)
        headers = {k: v for k, v in self._headers().items() if k in ("Authorization", "User-Agent")}
        timeout = self.timeout.connect
        return await open_socket(url, headers, max_bytes=max_bytes, open_timeout=timeout, scrub=self._scrub)

    async def _send(self, call: _Call, *, params: Mapping[str, Any] | None, json: Any) -> httpx.Response:
        """Send with the retry policy within the call's deadline; return the final response (2xx or not)."""
        policy = self.retry_policy
        method, path = call.method, call.path
        retry = 0
        while True:
            request = self._http.build_request(
                method, call.url, params=params, json=json, headers=self._headers(), timeout=call.timeout
            )
            started = time.monotonic()
            try:
                response = await self._attempt(call, request)
            except httpx.TransportError as exc:
                wait = policy.backoff(retry)
                if retry < policy.max_retries and policy.can_retry_error(method, exc) and call.has_time_for(wait):
                    log.info("%s %s failed (%s); retry %d in %.2f s", method, path, type(exc).__name__, retry + 1, wait)
                    await self._sleep(wait)
                    retry += 1
                    continue
                raise self._transport_error(call, exc) from exc
            elapsed_ms = (time.monotonic() - started) * 1000
            log.debug("%s %s -> %d in %.0f ms", method, path, response.status_code, elapsed_ms)
            if response.is_success or retry >= policy.max_retries:
                return response
            if not policy.can_retry_status(method, response.status_code):
                return response
            delay = self._wait_before_retry(response, retry)
            if delay is None or not call.has_time_for(delay):
                return response
            log.info("%s %s answered %d; retry %d in %.2f s", method, path, response.status_code, retry + 1, delay)
            await self._sleep(delay)
            retry += 1

    async def _attempt(self, call: _Call, request: httpx.Request) -> httpx.Response:
        """One attempt: connect, send, read the whole body (within its cap), all before the deadline."""
        remaining = call.remaining()
        if remaining is not None and remaining <= 0:
            raise self._out_of_time(call)
        try:
            async with asyncio.timeout(remaining):
                response = await self._http.send(request, stream=True)
                try:
                    await read_body(response, call.max_bytes)
                finally:
                    await response.aclose()
        except TimeoutError:
            # the deadline, not one of httpx's per-phase timeouts (those are httpx.TimeoutException)
            raise self._out_of_time(call) from None
        except BodyTooLarge as exc:
            raise self._too_large(call, request, exc) from None
        except (BodyDecodeError, httpx.DecodingError) as exc:
            raise InvalidResponseError(
                f"the server's answer to {call.method} {call.path} could not be decoded: {exc}",
                status=0,
                content_type="",
                excerpt="",
                method=call.method,
                url=call.url,
            ) from exc
        return response

    def _out_of_time(self, call: _Call) -> APITimeoutError:
        return APITimeoutError(
            f"{call.method} {call.path} to {self._base_url} timed out: no complete answer "
            f"within the call's {call.budget:g} s",
            method=call.method,
            url=call.url,
        )

    def _too_large(self, call: _Call, request: httpx.Request, exc: BodyTooLarge) -> ResponseTooLargeError:
        said = f" (its Content-Length says {exc.declared:,} bytes)" if exc.declared is not None else ""
        return ResponseTooLargeError(
            f"the server's answer to {call.method} {call.path} is longer than the {exc.limit:,} bytes "
            f"this client reads for it{said}",
            limit=exc.limit,
            status=0,
            content_type="",
            excerpt="",
            method=call.method,
            url=str(request.url),
        )

    def _wait_before_retry(self, response: httpx.Response, retry: int) -> float | None:
        """Seconds to wait before retrying `response`, or None to give up now."""
        if response.status_code == 429:
            error = status_error(response, self._scrub)
            asked = error.retry_after if isinstance(error, RateLimitError) else None
            if asked is not None:
                return asked if asked <= self.retry_policy.max_wait else None
        return self.retry_policy.backoff(retry)

    def _transport_error(self, call: _Call, exc: httpx.TransportError) -> APIConnectionError:
        method, path, url, timeout = call.method, call.path, call.url, call.timeout
        reason = self._scrub(str(exc)) or type(exc).__name__
        if isinstance(exc, httpx.TimeoutException):
            phase = {
                httpx.ConnectTimeout: ("connecting", timeout.connect),
                httpx.ReadTimeout: ("waiting for the answer", timeout.read),
                httpx.WriteTimeout: ("sending the request", timeout.write),
                httpx.PoolTimeout: ("waiting for a free connection", timeout.pool),
            }.get(type(exc), ("waiting", timeout.read))
            limit = f" after {phase[1]:g} s" if phase[1] is not None else ""
            return APITimeoutError(
                f"{method} {path} to {self._base_url} timed out {phase[0]}{limit}", method=method, url=url
            )
        return APIConnectionError(
            f"cannot reach {self._base_url} ({method} {path}): {excerpt(reason, 160)}", method=method, url=url
        )


@dataclass(frozen=True)
class _Call:
    """One call's fixed facts: what is sent, its per-phase timeouts, its budget and deadline."""

    method: str
    path: str
    url: str
    timeout: httpx.Timeout
    budget: float | None
    deadline: float | None  # time.monotonic() by which the call ends; None: no bound
    max_bytes: int

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None: no deadline)."""
        return None if self.deadline is None else self.deadline - time.monotonic()

    def has_time_for(self, wait: float) -> bool:
        """Whether waiting `wait` seconds still leaves time for another attempt."""
        remaining = self.remaining()
        return remaining is None or wait < remaining


__all__ = [
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_MAX_RETRY_WAIT",
    "DEFAULT_TIMEOUT",
    "BaseClient",
    "check_api_key",
    "check_base_url",
]
