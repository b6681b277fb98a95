"""Contract tests: our client (`WdsClient`) against the emulator, both sides of the wire.

Every test drives the typed client through an in-process ASGI transport into a
seeded emulator on a `ManualClock` (teams `alpha`, two keys, and `beta`, one key,
from `tests/support/emulator_teams.py`). Where the client refuses a value before
sending, the same body is also sent raw by a plain httpx client on the same app,
to prove the emulator refuses it too, with the service's 400 body.

`tests/api` checks the client against a mock transport and `tests/emulator`
checks the emulator with plain httpx; here the two meet, so a disagreement
between them (a limit, a field name, a status) fails a test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import httpx
import pytest
from pydantic import BaseModel

from tests.support.emulator_teams import ALPHA_KEY, ALPHA_KEY_2, BETA_KEY, START, UNKNOWN_KEY, auth
from tests.support.recording_backend import RecordingBackend
from tui.api.client import WdsClient
from tui.api.errors import APIStatusError, RequestValidationError
from tui.contract.requests import ScrapeRequest
from tui.emulator.browser.backend import BrowserBackend, NoBrowserBackend
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.teams import Caller, Team
from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator

__all__ = [
    "ALPHA_KEY",
    "ALPHA_KEY_2",
    "BASE_URL",
    "BETA_KEY",
    "SITE",
    "UNKNOWN_ID",
    "UNKNOWN_KEY",
    "WEBHOOK_SECRET",
    "Limit",
    "Service",
    "assert_bad_request",
    "assert_fails_with",
    "assert_job_id_refused",
    "assert_limit",
    "assert_support_bad_request",
    "kwargs_of",
    "limit_params",
    "refused_before_sending",
]

BASE_URL = "http://emulator.test"
SITE = "https://acme-outdoor.com"
UNKNOWN_ID = "0d7c8e9f-1111-4222-8333-444455556666"
WEBHOOK_SECRET = "whsec-contract-secret"


class CountingTransport(httpx.AsyncBaseTransport):
    """The ASGI transport, keeping every request that reached it (to prove a call sent nothing)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.requests: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


@dataclass
class Service:
    """One emulator, its clock and browser backend, and the ways to call it."""

    emulator: Emulator
    clock: ManualClock
    backend: RecordingBackend
    transport: CountingTransport
    http: httpx.AsyncClient
    sleeps: list[float] = field(default_factory=list)

    def client(self, key: str = ALPHA_KEY, **options: Any) -> WdsClient:
        """Our client on this emulator; retry waits are recorded in `sleeps`, never slept."""
        return WdsClient(BASE_URL, key, http_client=self.http, sleep=self._sleep, **options)

    async def _sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)

    @property
    def sent(self) -> int:
        """How many requests have reached the emulator so far."""
        return len(self.transport.requests)

    async def raw(
        self, method: str, path: str, *, json: Any = None, params: Any = None, key: str | None = ALPHA_KEY
    ) -> httpx.Response:
        """A plain HTTP call, bypassing the client's validation (GET bodies go in the query)."""
        headers = auth(key) if key is not None else {}
        if method == "GET":
            return await self.http.request(method, path, params=params if params is not None else json, headers=headers)
        return await self.http.request(method, path, json=json, params=params, headers=headers)

    def team(self, key: str = ALPHA_KEY) -> Team:
        found = self.emulator.team_by_key(key)
        assert found is not None
        return found

    def caller(self, key: str = ALPHA_KEY) -> Caller:
        return Caller(self.team(key), key)

    def scrape_job(self, key: str = ALPHA_KEY, url: str = f"{SITE}/about", **options: Any) -> str:
        """A scrape job of the key's team, made by the emulator's own store (no HTTP)."""
        request = ScrapeRequest.model_validate({"url": url, **options})
        return str(self.emulator.jobs.create_scrape(self.caller(key), request).id)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def backend() -> RecordingBackend:
    return RecordingBackend()


MakeService = Callable[..., Awaitable[Service]]


@pytest.fixture
async def make_service(clock: ManualClock, backend: RecordingBackend) -> AsyncIterator[MakeService]:
    """Build a service; `browser=False` serves it without the browser feature (503s)."""
    made: list[Service] = []

    async def make(*, browser: bool = True, history: bool = False, **emulator_options: Any) -> Service:
        browser_backend: BrowserBackend = backend if browser else NoBrowserBackend()
        options: dict[str, Any] = {"seed": 7, "clock": clock, "history": history, "browser_backend": browser_backend}
        options.update(emulator_options)
        emulator = Emulator.from_keys({"alpha": [ALPHA_KEY, ALPHA_KEY_2], "beta": [BETA_KEY]}, **options)
        transport = CountingTransport(httpx.ASGITransport(app=create_app(emulator)))
        http = httpx.AsyncClient(transport=transport, base_url=BASE_URL)
        service = Service(emulator, clock, backend, transport, http)
        made.append(service)
        return service

    yield make
    for service in made:
        await service.http.aclose()
        await service.emulator.aclose()


@pytest.fixture
async def service(make_service: MakeService) -> Service:
    """The standard service: no seeded history, the recording browser backend, a webhook secret."""
    return await make_service(webhook_secret=WEBHOOK_SECRET)


@pytest.fixture
def alpha(service: Service) -> WdsClient:
    return service.client(ALPHA_KEY)


@pytest.fixture
def beta(service: Service) -> WdsClient:
    return service.client(BETA_KEY)


# --- limits: just inside through the client, just outside refused on both sides -------------


class Limit(NamedTuple):
    """One boundary of one field, as wire bodies (or queries): a value just inside, one just outside.

    `field` is the wire path the refusal must name (`profile.name`, `urls`), or
    "" for a rule about the whole body (exactly one of code/prompt).
    """

    id: str
    field: str
    inside: dict[str, Any]
    outside: dict[str, Any]


def limit_params(limits: list[Limit]) -> list[Any]:
    """The limits as pytest params, named by their ids so the run reads as a checklist."""
    return [pytest.param(limit, id=limit.id) for limit in limits]


def kwargs_of(model: type[BaseModel], wire: dict[str, Any]) -> dict[str, Any]:
    """A wire body's top-level names as the Python keyword arguments of the client's method."""
    by_alias = {(info.alias or name): name for name, info in model.model_fields.items()}
    return {by_alias.get(name, name): value for name, value in wire.items()}


def dotted(path: list[Any]) -> str:
    """A service `details` path (`["urls", 2]`) in the client's spelling (`urls[2]`)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out


async def refused_before_sending(
    service: Service, call: Callable[[], Awaitable[Any]], field: str
) -> RequestValidationError:
    """`call` raises `RequestValidationError` naming `field`, and nothing reaches the emulator."""
    before = service.sent
    with pytest.raises(RequestValidationError) as info:
        await call()
    assert service.sent == before, "a request the client refused must not be sent"
    if field:
        assert field in info.value.fields, (field, info.value.issues)
    return info.value


async def assert_fails_with(
    call: Callable[[], Awaitable[Any]], error: type[APIStatusError], status: int
) -> APIStatusError:
    """`call` raises exactly `error` (not merely a subclass of it) with HTTP `status`; returns it for more checks."""
    with pytest.raises(APIStatusError) as info:
        await call()
    assert type(info.value) is error and info.value.status == status
    return info.value


async def assert_job_id_refused(
    service: Service, call: Callable[[], Awaitable[Any]], method: str, path: str, *, json: Any = None
) -> httpx.Response:
    """A job id that is not a UUID: the client refuses `call` naming `jobId` before sending, and the
    emulator refuses the same request sent raw with a 400 "Invalid job ID format" (returned for more checks)."""
    await refused_before_sending(service, call, "jobId")
    response = await service.raw(method, path, json=json)
    assert response.status_code == 400 and response.json()["error"].startswith("Invalid job ID format")
    return response


def assert_bad_request(response: httpx.Response, field: str) -> None:
    """The service's validation 400: BAD_REQUEST with `details` naming `field`."""
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["success"] is False and body["code"] == "BAD_REQUEST", body
    assert isinstance(body["details"], list) and body["details"], body
    assert all({"path", "message"} <= set(item) for item in body["details"]), body
    if field:
        assert field in [dotted(item["path"]) for item in body["details"]], body


def assert_support_bad_request(response: httpx.Response, field: str) -> None:
    """The support endpoints' 400: `{"error": ...}` only, naming the field."""
    assert response.status_code == 400, response.text
    body = response.json()
    assert set(body) == {"error"}, body
    assert field in body["error"], body


async def assert_limit(
    service: Service,
    limit: Limit,
    call: Callable[[dict[str, Any]], Awaitable[Any]],
    method: str,
    path: str,
    *,
    support: bool = False,
) -> Any:
    """`limit.inside` is accepted through the client (its result is returned); `limit.outside`
    is refused by the client before sending and, sent raw, by the emulator with a 400."""
    result = await call(limit.inside)
    await refused_before_sending(service, lambda: call(limit.outside), limit.field)
    response = await service.raw(method, path, json=limit.outside)
    (assert_support_bad_request if support else assert_bad_request)(response, limit.field)
    return result
