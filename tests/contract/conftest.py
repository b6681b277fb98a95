"""The contract tests' fixtures: our client (`WdsClient`) against the emulator, both sides of the wire.

Every test drives the typed client through an in-process ASGI transport into a
seeded emulator on a `ManualClock` (teams `alpha`, two keys, and `beta`, one key,
from `tests/support/emulator_teams.py`). Where the client refuses a value before
sending, the same body is also sent raw by a plain httpx client on the same app,
to prove the emulator refuses it too, with the service's 400 body.

`tests/api` checks the client against a mock transport and `tests/emulator`
checks the emulator with plain httpx; here the two meet, so a disagreement
between them (a limit, a field name, a status) fails a test. The service the
fixtures build is in service.py, the checks of limits and refusals in refusals.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.contract.service import BASE_URL, WEBHOOK_SECRET, CountingTransport, MakeService, Service
from tests.support.emulator_teams import ALPHA_KEY, ALPHA_KEY_2, BETA_KEY, START
from tests.support.recording_backend import RecordingBackend
from tui.api.client import WdsClient
from tui.emulator.browser.backend import BrowserBackend, NoBrowserBackend
from tui.emulator.core.clock import ManualClock
from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator

# The refusal helpers assert on the tests' behalf: rewritten as the tests' own asserts are
# (before the first test imports them), a failure shows the values compared.
pytest.register_assert_rewrite("tests.contract.refusals")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def backend() -> RecordingBackend:
    return RecordingBackend()


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
