"""Fixtures of the client's unit tests: a WdsClient over an httpx.MockTransport.

Mock transports are used only here, to drive the client's error handling
through answers a real server rarely gives (HTML error pages, broken JSON,
every status code). Behaviour against a real server is the contract tests' job.
What answers behind the mock transport is in mock_service.py.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.api.mock_service import API_KEY, BASE_URL, Recorder, SleepRecorder
from tui.api.client import WdsClient


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def sleeper() -> SleepRecorder:
    return SleepRecorder()


@pytest.fixture
async def client(recorder: Recorder, sleeper: SleepRecorder) -> Any:
    http = httpx.AsyncClient(transport=httpx.MockTransport(recorder))
    async with WdsClient(BASE_URL, API_KEY, http_client=http, sleep=sleeper) as wds:
        yield wds
    await http.aclose()
