"""`ws {base}/v2/crawl/{id}`: a crawl's progress pushed over a WebSocket, as the service serves it.

The contract does not describe this socket; what it follows is the service's
own crawl status socket, whose messages the official SDKs' watchers read
(`firecrawl.v2.watcher.Watcher`, `AsyncWatcher`):

- The key is the `Authorization: Bearer` header, as on every `/v2` call. The
  upgrade is always accepted; a refusal is the close that follows, its reason
  the JSON `{"type": "error", "error": <the HTTP endpoint's words>}`: 1008 for an
  id that is not a UUID (reason "Invalid job ID", checked before the key, as the
  service's route does), 3000 for a missing or unknown key, 1008 for an unknown
  or expired crawl, 3003 for another team's crawl, 1011 for an unexpected error.
- An accepted watcher gets `{"type": "catchup", "data": <status body>}` with every
  document so far, then `{"type": "document", "data": <Document>}` per page as it
  is scraped (`CrawlFeed`), pushed by the emulator as its clock reaches each page.
- When the crawl ends (completed, failed or cancelled, also at once when it had
  ended before the watcher came) the socket is closed with 1000 and the reason
  `{"type": "done"}`. The service sends no final status on the socket: the SDKs
  then ask `GET /v2/crawl/{id}` once for it, and a catch-up of a crawl that had
  ended carries its final status itself.

The emulator's clock is read every `push_interval` seconds of real time (the
service's loop runs every second), so a test's `ManualClock.advance` or a
`--clock-speed` run is seen within that interval.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tui.emulator.core.clock import Clock
from tui.emulator.core.errors import Forbidden, NotFound
from tui.emulator.core.offload import PAGES, off_loop
from tui.emulator.core.teams import TeamDirectory
from tui.emulator.http.auth import bearer_token, refusal_message
from tui.emulator.http.big_json import encode_json
from tui.emulator.http.parsing import is_uuid
from tui.emulator.jobs.crawl_feed import DONE, CrawlFeed, error_message
from tui.emulator.jobs.model import CrawlJob
from tui.emulator.jobs.store import JobStore

log = logging.getLogger(__name__)

CRAWL_SOCKET_PATH = "/v2/crawl/{jobId}"
PUSH_INTERVAL_SECONDS = 0.2

DONE_CODE = 1000
NOT_FOUND_CODE = 1008  # also an id that is not a UUID
UNAUTHORIZED_CODE = 3000
FORBIDDEN_CODE = 3003
UNEXPECTED_CODE = 1011
INVALID_ID_REASON = "Invalid job ID"  # the service's route says this before any JSON


class _Refused(Exception):
    """The watcher may not follow this crawl: the close code and reason that say why."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


def _json(message: dict[str, Any]) -> str:
    # Written as the service's JSON.stringify writes it: no spaces (close reasons are compared as text).
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def _refused(code: int, text: str) -> _Refused:
    return _Refused(code, _json(error_message(text)))


def _encoded_catchup(feed: CrawlFeed, clock: Clock) -> str:
    """The catch-up as text; its documents encoded a slice at a time (`big_json`), for a worker thread."""
    message = feed.catchup(clock.now())
    body = encode_json(message["data"], "data").decode()
    return f'{{"type":"catchup","data":{body}}}'


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    # The watcher may have left already: then there is nobody to tell.
    with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
        await websocket.close(code=code, reason=reason)


async def _until_gone(websocket: WebSocket) -> None:
    """Return once the watcher disconnects; what it sends is ignored, as the service ignores it."""
    while (await websocket.receive())["type"] != "websocket.disconnect":
        pass


class _CrawlSocket:
    """The route's handler over the parts it reads."""

    def __init__(self, store: JobStore, teams: TeamDirectory, clock: Clock, push_interval: float) -> None:
        self.store, self.teams, self.clock, self.push_interval = store, teams, clock, push_interval

    def crawl_for(self, websocket: WebSocket) -> CrawlJob:
        """The crawl the watcher asks for, if its key may read it (`_Refused` otherwise)."""
        job_id = websocket.path_params["jobId"]
        if not is_uuid(job_id):
            raise _Refused(NOT_FOUND_CODE, INVALID_ID_REASON)
        token = bearer_token(websocket.scope)
        team = self.teams.by_key(token) if token is not None else None
        if team is None:
            raise _refused(UNAUTHORIZED_CODE, refusal_message(token))
        try:
            job = self.store.owned(job_id, team.id, ("crawl",))
        except NotFound as exc:
            raise _refused(NOT_FOUND_CODE, exc.message) from None
        except Forbidden as exc:
            raise _refused(FORBIDDEN_CODE, exc.message) from None
        assert isinstance(job, CrawlJob)
        if self.clock.now() > job.expires_at:
            raise _refused(NOT_FOUND_CODE, "Job expired.")
        return job

    async def serve(self, websocket: WebSocket) -> None:
        """Accept, then follow the crawl until it ends or the watcher leaves, or close with the refusal."""
        await websocket.accept()
        try:
            feed = CrawlFeed(self.crawl_for(websocket))
            watching = asyncio.create_task(self.follow(websocket, feed))
            gone = asyncio.create_task(_until_gone(websocket))
            try:
                await asyncio.wait((watching, gone), return_when=asyncio.FIRST_COMPLETED)
            finally:
                gone.cancel()
                watching.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, OSError):
                await watching  # its unexpected errors surface here, to the handler below
        except _Refused as refused:
            await _close(websocket, refused.code, refused.reason)
        except Exception as exc:
            log.exception("crawl socket %s failed", websocket.url.path)
            reason = _json(error_message(f"An unexpected error occurred: {type(exc).__name__}"))
            await _close(websocket, UNEXPECTED_CODE, reason)

    async def follow(self, websocket: WebSocket, feed: CrawlFeed) -> None:
        """Send the catch-up, then each document as the clock reaches its page; close when the crawl ends."""
        # A crawl of thousands of pages is megabytes of documents: encoded off the loop, as a status page is.
        await websocket.send_text(await off_loop(_encoded_catchup, feed, self.clock, lane=PAGES))
        while True:
            now = self.clock.now()
            for message in feed.news(now):
                await websocket.send_text(_json(message))
            if feed.ended(now):
                await _close(websocket, DONE_CODE, _json(DONE))
                return
            await asyncio.sleep(self.push_interval)


def crawl_socket_route(
    store: JobStore, teams: TeamDirectory, clock: Clock, push_interval: float = PUSH_INTERVAL_SECONDS
) -> WebSocketRoute:
    """The websocket route at `/v2/crawl/{jobId}` (the REST routes of the same path are HTTP-only)."""
    return WebSocketRoute(
        CRAWL_SOCKET_PATH, _CrawlSocket(store, teams, clock, push_interval).serve, name="crawl_socket"
    )
