"""`client.crawl.watch(id)`: one crawl followed over the service's WebSocket, as a stream of its status.

    async with client.crawl.watch(crawl_id) as updates:
        async for status in updates:   # CrawlStatus, the last one final
            ...

The socket (`ws {base}/v2/crawl/{id}`, `tui.contract.models.crawl_socket`)
sends a catch-up (the status and every document so far), then one message per
document. Each becomes a `CrawlStatus`: the catch-up's, then the same with the
new document added and `completed` counted on. Pages that failed send no
document, so between the catch-up and the end `completed` is a lower bound.
The end is the close 1000 (or a `done` message): the service sends no final
status, so, as the SDKs' watchers do, it is asked once (`GET /v2/crawl/{id}`)
unless the catch-up already was final; that status is the last one yielded.

Documents beyond `keep_documents` are counted, not kept (a crawl of 10,000
pages is not held in memory); `next` then points at the status page that
lists them, as a status answer's own `next` does. Failures are the typed
errors of `tui.api.socket_errors` (see `tui.api.sockets` for which is which),
and a WdsError of the final status call; a message that is not the
service's ends the watch with `SocketMessageError`, never with a crash, and a
socket that sends no catch-up within `CATCHUP_SECONDS` is taken as no live feed
(`SocketNotOfferedError`).
Leaving the `async with` (or the task's cancellation) closes the socket; a
bare `async for` closes it once the stream ends or fails.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

from pydantic import BaseModel, ValidationError
from websockets.exceptions import ConnectionClosed

from tui.api.body_reader import DOCUMENTS_ANSWER_MAX_BYTES
from tui.api.responses import excerpt
from tui.api.socket_errors import SocketDroppedError, SocketMessageError, SocketNotOfferedError, SocketRefusedError
from tui.api.sockets import closed_error
from tui.contract.models.common import Document
from tui.contract.models.crawl import CrawlStatus
from tui.contract.models.crawl_socket import DONE_CODE, CrawlCatchup, CrawlDocumentPushed, CrawlSocketError

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

    from tui.api.base_client import BaseClient

MessageT = TypeVar("MessageT", bound=BaseModel)

KEEP_DOCUMENTS = 100
"""Documents a status keeps by default: as many as one status page lists."""
MESSAGE_MAX_BYTES = DOCUMENTS_ANSWER_MAX_BYTES
"""The longest message read: a catch-up is a whole crawl's documents, as a status page of them is."""
CATCHUP_SECONDS = 15.0
"""How long the first message may take: a socket that opens and says nothing is no live feed."""
_SHOWN_ISSUES = 2


class _Ended(Exception):
    """The service said the crawl ended (a close 1000 or a `done` message)."""


class CrawlWatch:
    """A crawl's status, pushed by the service (see the module doc); an async iterator and context manager."""

    def __init__(
        self,
        client: BaseClient,
        crawl_id: str,
        final_status: Callable[[], Awaitable[CrawlStatus]],
        *,
        keep_documents: int = KEEP_DOCUMENTS,
        max_bytes: int = MESSAGE_MAX_BYTES,
        catchup_seconds: float = CATCHUP_SECONDS,
    ) -> None:
        if keep_documents < 0:
            raise ValueError(f"keep_documents must be 0 or more, not {keep_documents}")
        self._client = client
        self.crawl_id = crawl_id
        self.path = f"/v2/crawl/{crawl_id}"
        self._final_status = final_status
        self.keep_documents = keep_documents
        self.max_bytes = max_bytes
        self.catchup_seconds = catchup_seconds
        self._ws: ClientConnection | None = None
        self._status: CrawlStatus | None = None
        self._completed_at_catchup = 0
        self._documents_since = 0
        self._over = False

    @property
    def url(self) -> str:
        return self._client.base_url + self.path

    @property
    def status(self) -> CrawlStatus | None:
        """The last status yielded (None before the catch-up)."""
        return self._status

    # --- lifecycle -----------------------------------------------------------------

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the socket (if open); the stream ends."""
        self._over = True
        ws, self._ws = self._ws, None
        if ws is not None:
            await ws.close()

    # --- the stream ------------------------------------------------------------------

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> CrawlStatus:
        if self._over:
            await self.aclose()  # after the final status (a `done` message leaves the socket open)
            raise StopAsyncIteration
        try:
            status = await self._next_status()
        except BaseException:
            await self.aclose()
            raise
        if status is None:
            await self.aclose()
            raise StopAsyncIteration
        return status

    async def _next_status(self) -> CrawlStatus | None:
        """The next status: from a message, or the final one once the crawl ended (None: nothing new)."""
        if self._ws is None:
            self._ws = await self._client.open_socket(self.path, max_bytes=self.max_bytes)
        try:
            while True:
                try:
                    raw = await self._receive(self._ws)
                except ConnectionClosed as closed:
                    if closed.rcvd is not None and closed.rcvd.code == DONE_CODE:
                        raise _Ended from None
                    raise closed_error(closed, self.url, self.max_bytes, self._client.masked) from None
                status = self._take(raw)
                if status is not None:
                    self._status = status
                    return status
        except _Ended:
            return await self._final()

    async def _receive(self, ws: ClientConnection) -> str | bytes:
        if self._status is not None:
            return await ws.recv()
        try:
            async with asyncio.timeout(self.catchup_seconds):
                return await ws.recv()
        except TimeoutError:
            message = f"the WebSocket opened but sent no catch-up within {self.catchup_seconds:g} s"
            raise SocketNotOfferedError(message, url=self.url) from None

    async def _final(self) -> CrawlStatus | None:
        self._over = True
        if self._status is not None and self._status.is_finished:
            return None  # the catch-up of a crawl that had ended was its final status
        final = await self._final_status()
        if not final.is_finished:
            raise SocketDroppedError(
                f"the service closed the live connection as done, but says the crawl is {final.status}", url=self.url
            )
        return self._trimmed(final)

    # --- messages ----------------------------------------------------------------------

    def _take(self, raw: str | bytes) -> CrawlStatus | None:
        """The status after one message (None for a message that changes nothing)."""
        body = self._json(raw)
        kind = body.get("type")
        if kind == "catchup":
            status = self._parse(CrawlCatchup, body, raw).data
            self._completed_at_catchup, self._documents_since = status.completed, 0
            return self._trimmed(status)
        if kind == "document":
            return self._with_document(self._parse(CrawlDocumentPushed, body, raw).data, raw)
        if kind == "done":
            raise _Ended
        if kind == "error":
            said = self._parse(CrawlSocketError, body, raw).error or "no reason given"
            message = f"the service refused live updates: {self._client.masked(excerpt(said, 200))}"
            raise SocketRefusedError(message, close_code=None, status=None, url=self.url)
        return None  # a message of a kind the service may add later: the SDKs pass over it too

    def _json(self, raw: str | bytes) -> dict[str, Any]:
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError):
            raise self._unreadable("that is not JSON", raw) from None
        if not isinstance(body, dict):
            raise self._unreadable("that is not a JSON object", raw)
        return body

    def _parse(self, model: type[MessageT], body: dict[str, Any], raw: str | bytes) -> MessageT:
        try:
            return model.model_validate(body)
        except RecursionError:
            raise self._unreadable("nested too deeply to read", raw) from None
        except ValidationError as exc:
            issues = [
                f"{'.'.join(map(str, issue['loc'])) or 'message'}: {issue['msg']}"
                for issue in exc.errors(include_url=False)[:_SHOWN_ISSUES]
            ]
            raise self._unreadable(f"not of the service's shape ({'; '.join(issues)})", raw) from None

    def _unreadable(self, what: str, raw: str | bytes) -> SocketMessageError:
        text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
        shown = self._client.masked(excerpt(text, 120))
        return SocketMessageError(f"the service sent a live update {what}: {shown!r}", url=self.url)

    def _with_document(self, document: Document, raw: str | bytes) -> CrawlStatus:
        status = self._status
        if status is None:
            raise self._unreadable("(a document) before its catch-up", raw)
        self._documents_since += 1
        completed = max(status.completed, self._completed_at_catchup + self._documents_since)
        kept = len(status.data) < self.keep_documents
        data = [*status.data, document] if kept else status.data
        next_page = status.next if kept else status.next or self._next_page()
        return status.model_copy(update={"data": data, "completed": completed, "next": next_page})

    def _trimmed(self, status: CrawlStatus) -> CrawlStatus:
        if len(status.data) <= self.keep_documents:
            return status
        update = {"data": status.data[: self.keep_documents], "next": status.next or self._next_page()}
        return status.model_copy(update=update)

    def _next_page(self) -> str:
        """Where the documents not kept are listed: the status page after the kept ones."""
        size = max(self.keep_documents, 1)
        return f"{self.url}?skip={self.keep_documents}&limit={size}"
