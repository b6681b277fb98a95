"""A representative set over a real loopback socket: the emulator on uvicorn, our client with
its own httpx connection pool, and a webhook receiver of our own on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Generator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tests.contract.service import SITE, WEBHOOK_SECRET
from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, UNKNOWN_KEY
from tests.support.recording_backend import RecordingBackend
from tui.api.client import WdsClient
from tui.api.errors import AuthenticationError, BadRequestError, RateLimitError, WebhookError
from tui.api.webhooks import SIGNATURE_HEADER, parse_event, verify_signature
from tui.contract.models import CrawlStartedEvent, SessionStatus
from tui.emulator.core.clock import ManualClock
from tui.emulator.server import base_url_of, bind_socket, running
from tui.emulator.service import Emulator

pytestmark = pytest.mark.socket

DELIVERY_WAIT_SECONDS = 5.0


@contextlib.asynccontextmanager
async def served(clock: ManualClock, backend: RecordingBackend, **options: Any) -> AsyncIterator[tuple[Emulator, str]]:
    """The standard teams' emulator on uvicorn at 127.0.0.1:<free port>; yields it and its base URL."""
    settings: dict[str, Any] = {
        "seed": 7,
        "clock": clock,
        "history": False,
        "browser_backend": backend,
        "webhook_secret": WEBHOOK_SECRET,
    }
    settings.update(options)
    emulator = Emulator.from_keys({"alpha": [ALPHA_KEY], "beta": [BETA_KEY]}, **settings)
    async with running(emulator) as base_url:
        yield emulator, base_url


async def no_sleep(seconds: float) -> None:
    """Retry waits are not sat through in tests."""


# --- a webhook receiver, as a user of the client would write one ---------------------------------


@dataclass
class Delivery:
    body: bytes
    headers: dict[str, str]


class _QuietServer(uvicorn.Server):
    """uvicorn without signal handlers: the test runner owns the process's signals."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


@dataclass
class WebhookReceiver:
    """Accepts deliveries that `parse_event` verifies with the team's secret (204), refuses others (401)."""

    secret: str
    events: list[Any] = field(default_factory=list)
    deliveries: list[Delivery] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    url: str = ""

    async def receive(self, request: Request) -> Response:
        body = await request.body()
        self.deliveries.append(Delivery(body, dict(request.headers)))
        try:
            event = parse_event(body, request.headers, secret=self.secret)
        except WebhookError as exc:
            self.rejected.append(str(exc))
            return Response(status_code=401)
        self.events.append(event)
        self.arrived.set()
        return Response(status_code=204)

    @contextlib.asynccontextmanager
    async def listening(self) -> AsyncIterator[WebhookReceiver]:
        sock = bind_socket("127.0.0.1", 0)
        app = Starlette(routes=[Route("/hooks/crawl", self.receive, methods=["POST"])])
        server = _QuietServer(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off"))
        task = asyncio.create_task(server.serve(sockets=[sock]))
        try:
            while not server.started:
                assert not task.done(), "the receiver failed to start"
                await asyncio.sleep(0.01)
            self.url = f"{base_url_of(sock)}/hooks/crawl"
            yield self
        finally:
            server.should_exit = True
            await task
            sock.close()


# --- the tests ----------------------------------------------------------------------------------


async def test_auth_over_a_socket(clock: ManualClock, backend: RecordingBackend) -> None:
    async with served(clock, backend) as (_, base_url):
        async with WdsClient(base_url, ALPHA_KEY) as client:
            assert (await client.team.token_usage_historical()).success is True
        async with WdsClient(base_url, UNKNOWN_KEY) as stranger:
            with pytest.raises(AuthenticationError) as info:
                await stranger.crawl.active()
            assert info.value.status == 401 and UNKNOWN_KEY not in str(info.value)
        async with httpx.AsyncClient(base_url=base_url) as plain:
            response = await plain.get("/v2/crawl/active")
            assert (response.status_code, response.json()["error"]) == (401, "Unauthorized")


async def test_a_loopback_service_is_reached_past_a_proxy_from_the_environment(
    clock: ManualClock, backend: RecordingBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A proxy nobody listens on: were loopback traffic sent to it, the call would fail to connect.
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    async with served(clock, backend) as (_, base_url):
        async with WdsClient(base_url, ALPHA_KEY) as client:
            assert (await client.team.token_usage_historical()).success is True


async def test_a_poller_keeps_its_connection_between_polls(clock: ManualClock, backend: RecordingBackend) -> None:
    # 6 s apart: longer than httpx's and uvicorn's 5 s defaults, which made every poll reconnect.
    async with served(clock, backend) as (_, base_url):
        async with WdsClient(base_url, ALPHA_KEY) as client:
            await client.crawl.active()
            pool = client._http._transport._pool
            [first] = pool.connections
            await asyncio.sleep(6)
            await client.crawl.active()
            assert pool.connections == [first] and first.is_idle()


async def test_activity_pages_over_every_page(clock: ManualClock, backend: RecordingBackend) -> None:
    async with served(clock, backend, history=True) as (emulator, base_url):
        team_id = emulator.team_by_key(ALPHA_KEY).id  # type: ignore[union-attr]
        expected, cursor = [], None
        while True:  # the emulator's own reading of the window, as the reference
            page = emulator.activity.page(team_id, limit=100, cursor=cursor)
            expected += [entry.id for entry in page.entries]
            if (cursor := page.next_cursor) is None:
                break
        async with WdsClient(base_url, ALPHA_KEY) as client:
            pages = [page async for page in client.team.iter_activity(page_size=37).pages()]
            walked = [entry.id for page in pages for entry in page.entries]
            assert len(expected) > 100 and len(pages) == -(-len(expected) // 37)
            assert walked == expected and len(set(walked)) == len(walked)
            assert all(page.has_more for page in pages[:-1]) and not pages[-1].has_more
            assert [e.id for e in await client.team.iter_activity().to_list()] == expected


async def test_crawl_webhook_reaches_a_real_receiver_signed(clock: ManualClock, backend: RecordingBackend) -> None:
    receiver = WebhookReceiver(secret=WEBHOOK_SECRET)
    async with served(clock, backend) as (_, base_url), receiver.listening():
        async with WdsClient(base_url, ALPHA_KEY) as client:
            started = await client.crawl.start(SITE, limit=3, webhook={"url": receiver.url, "metadata": {"run": "c1"}})
            await asyncio.wait_for(receiver.arrived.wait(), DELIVERY_WAIT_SECONDS)
    assert receiver.rejected == []
    [event] = receiver.events
    assert isinstance(event, CrawlStartedEvent)
    assert (event.success, event.type, event.id, event.data, event.metadata) == (
        True,
        "crawl.started",
        started.id,
        [],
        {"run": "c1"},
    )
    assert uuid.UUID(event.webhook_id).version == 4
    [delivery] = receiver.deliveries
    signature = delivery.headers[SIGNATURE_HEADER.lower()]
    assert verify_signature(delivery.body, signature, WEBHOOK_SECRET)
    assert not verify_signature(delivery.body, signature, "another-secret")


async def test_scrape_and_get_over_a_socket(clock: ManualClock, backend: RecordingBackend) -> None:
    async with served(clock, backend) as (_, base_url):
        async with WdsClient(base_url, ALPHA_KEY) as client:
            scraped = await client.scrape.create(f"{SITE}/about", formats=["markdown", "links"])
            assert scraped.job_id and scraped.data is not None and scraped.data.markdown
            fetched = await client.scrape.get(scraped.job_id)
            assert fetched.data == scraped.data


async def test_browser_create_and_list_over_a_socket(clock: ManualClock, backend: RecordingBackend) -> None:
    async with served(clock, backend) as (_, base_url):
        host = base_url.removeprefix("http://")
        async with WdsClient(base_url, ALPHA_KEY) as alpha, WdsClient(base_url, BETA_KEY) as beta:
            created = await alpha.browser.create(ttl=60)
            assert created.cdp_url.startswith(f"ws://{host}/cdp/{created.id}?token=")
            [session] = (await alpha.browser.list()).sessions
            assert session.id == created.id and session.status == SessionStatus.ACTIVE
            assert (await beta.browser.list()).sessions == []


async def test_429_and_400_mapping_over_a_socket(clock: ManualClock, backend: RecordingBackend) -> None:
    async with served(clock, backend) as (emulator, base_url):
        emulator.team_by_key(ALPHA_KEY).max_browser_sessions = 1  # type: ignore[union-attr]
        async with WdsClient(base_url, ALPHA_KEY, sleep=no_sleep) as client:
            await client.browser.create(ttl=60)
            with pytest.raises(RateLimitError) as limited:
                await client.browser.create(ttl=60)
            assert (limited.value.status, limited.value.code) == (429, "RATE_LIMITED")
            with pytest.raises(BadRequestError) as refused:
                await client.batch.create([f"{SITE}/about", "not a url"], ignore_invalid_urls=False)
            assert refused.value.code == "BAD_REQUEST"
            assert [d["path"] for d in refused.value.details] == [["urls", 1]]
