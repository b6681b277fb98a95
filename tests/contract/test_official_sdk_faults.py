"""The official Python SDK (`firecrawl` 4.x) through fault rules, over a real socket.

What its source (firecrawl/v2/utils/http_client.py) retries, and what these tests show it does:
- a 502 and a failed connection (a reset) are retried, `max_retries` attempts in all, after
  `backoff_factor * 2 ** attempt` seconds each: a rule limited with `times` fails the first
  attempts, then the SDK's call succeeds, and the rule's `fired` count says how many it met;
- a 429 is not retried at all: the SDK raises `RateLimitError` at once, with the answer (its
  `Retry-After` header and the service's message) on the error, and never waits. A caller that
  honours `Retry-After` itself then succeeds once the rule is spent. (auto_resume.py reads
  `Retry-After` only for a 408 `SCRAPE_TIMEOUT` whose document is still processing.)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.emulator_teams import ALPHA_KEY
from tests.support.faulty_emulator import Faults, faulty_emulator

firecrawl = pytest.importorskip("firecrawl", reason="the official SDK is in the test extras")
from firecrawl.v2.utils.error_handler import RateLimitError  # noqa: E402

pytestmark = pytest.mark.socket

SITE = "https://acme-outdoor.com"
BACKOFF = 0.2  # the SDK sleeps 0.2 s, then 0.4 s, between its attempts


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Faults]]:
    with faulty_emulator({"alpha": [ALPHA_KEY]}, seed=7) as served:
        yield served


@pytest.fixture
def faults(served: tuple[str, Faults]) -> Iterator[Faults]:
    yield served[1]
    served[1].clear()


@pytest.fixture
def sdk(served: tuple[str, Faults]) -> Any:
    return firecrawl.Firecrawl(api_key=ALPHA_KEY, api_url=served[0], max_retries=3, backoff_factor=BACKOFF)


def test_the_sdk_retries_two_502s_after_its_backoff_and_then_succeeds(faults: Faults, sdk: Any) -> None:
    rule = faults.add(method="POST", path="/v2/scrape", status=502, times=2)
    started = time.monotonic()
    document = sdk.scrape(f"{SITE}/", formats=["markdown"])
    elapsed = time.monotonic() - started
    assert document.markdown
    assert faults.rule(rule)["fired"] == 2 and faults.rule(rule)["spent"] is True
    assert elapsed >= BACKOFF + 2 * BACKOFF, f"answered after {elapsed:.2f} s: it did not wait between attempts"


def test_the_sdk_retries_a_reset_connection_and_then_succeeds(faults: Faults, sdk: Any) -> None:
    rule = faults.add(method="POST", path="/v2/map", reset=True, times=1)
    links = sdk.map(SITE, limit=5).links
    assert len(links) == 5
    assert faults.rule(rule)["fired"] == 1


def test_a_429_is_raised_at_once_with_its_retry_after_and_a_caller_that_waits_succeeds(
    faults: Faults, sdk: Any
) -> None:
    rule = faults.add(method="POST", path="/v2/scrape", status=429, retry_after=1, times=1)
    started = time.monotonic()
    with pytest.raises(RateLimitError) as caught:
        sdk.scrape(f"{SITE}/about", formats=["markdown"])
    assert time.monotonic() - started < 1, "the SDK waited: it does not retry a 429"
    error = caught.value
    assert error.status_code == 429 and error.response.headers["Retry-After"] == "1"
    assert "retry after 1s" in str(error)
    assert faults.rule(rule)["fired"] == 1  # one attempt: no retry
    time.sleep(float(error.response.headers["Retry-After"]))  # what the SDK leaves to its caller
    assert sdk.scrape(f"{SITE}/about", formats=["markdown"]).markdown
    assert faults.rule(rule) | {"fired": 1, "spent": True} == faults.rule(rule)
