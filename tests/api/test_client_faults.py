"""Our client (`WdsClient`) through the emulator's fault rules, over a real socket.

A 429 with `Retry-After` is waited out and sent again, whatever the method (nothing happened
on the service); a wait longer than `max_retry_wait` is not sat through: the `RateLimitError`
comes at once, carrying the wait asked for. The rule's `fired` count shows each attempt met.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.mock_service import API_KEY
from tui.api import errors
from tui.api.client import WdsClient
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

pytestmark = pytest.mark.socket

ADMIN = "emu-" + "0f" * 16


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    emulator = Emulator.from_keys({"ops": [API_KEY]}, seed=3, admin_token=ADMIN, history=False)
    with ServerThread(emulator) as base_url:
        yield base_url


@pytest.fixture
def admin(served: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=served, headers={"Authorization": f"Bearer {ADMIN}"}, timeout=10) as client:
        yield client
        client.delete("/_emulator/faults")


def add(admin: httpx.Client, **rule: Any) -> int:
    answer = admin.post("/_emulator/faults", json=rule)
    assert answer.status_code == 201, answer.text
    return int(answer.json()["rule"]["id"])


def fired(admin: httpx.Client, rule_id: int) -> int:
    return next(rule["fired"] for rule in admin.get("/_emulator/faults").json()["rules"] if rule["id"] == rule_id)


@pytest.mark.parametrize("method", ["GET", "POST"])
async def test_a_429_is_waited_out_for_its_retry_after_then_sent_again(
    served: str, admin: httpx.Client, method: str
) -> None:
    path = "/v2/team/activity" if method == "GET" else "/v2/map"
    rule = add(admin, method=method, path=path, status=429, retry_after=1, times=1)
    async with WdsClient(served, API_KEY, max_retries=2) as client:
        started = time.monotonic()
        if method == "GET":
            await client.team.activity()
        else:
            assert (await client.map("https://example.com", limit=3)).links
        elapsed = time.monotonic() - started
    assert fired(admin, rule) == 1
    assert 1.0 <= elapsed < 3.0, f"answered after {elapsed:.2f} s, not after the 1 s asked for"


async def test_a_wait_longer_than_the_client_sits_through_is_raised_at_once(served: str, admin: httpx.Client) -> None:
    rule = add(admin, method="GET", path="/v2/team/activity", status=429, retry_after=120)
    async with WdsClient(served, API_KEY, max_retries=2, max_retry_wait=60) as client:
        started = time.monotonic()
        with pytest.raises(errors.RateLimitError) as caught:
            await client.team.activity()
    assert time.monotonic() - started < 1
    assert caught.value.retry_after == 120 and fired(admin, rule) == 1
