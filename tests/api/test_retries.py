"""The retry policy: 429 always, GETs on transient failures, POSTs never when they may have acted."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest

from tests.api.mock_service import API_KEY, BASE_URL, JOB_ID, Recorder, SleepRecorder, error_body, json_response
from tui.api import errors
from tui.api.client import WdsClient
from tui.api.retries import RetryPolicy, retry_after_seconds

ACTIVE_OK = {"success": True, "crawls": []}


def rate_limited(headers: dict[str, str] | None = None, message: str = "Rate limit exceeded") -> httpx.Response:
    return json_response(429, error_body(message, "RATE_LIMITED"), headers=headers)


# --- 429 -----------------------------------------------------------------------


async def test_429_with_retry_after_seconds_waits_exactly_that(
    client: WdsClient, recorder: Recorder, sleeper: SleepRecorder
) -> None:
    recorder.queue += [rate_limited({"Retry-After": "3"}), json_response(200, ACTIVE_OK)]
    assert (await client.crawl.active()).crawls == []
    assert sleeper.waits == [3.0]
    assert len(recorder.requests) == 2


async def test_429_with_retry_after_http_date(client: WdsClient, recorder: Recorder, sleeper: SleepRecorder) -> None:
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=20), usegmt=True)
    recorder.queue += [rate_limited({"Retry-After": when}), json_response(200, ACTIVE_OK)]
    await client.crawl.active()
    assert len(sleeper.waits) == 1 and 15 <= sleeper.waits[0] <= 20


async def test_429_without_retry_after_backs_off_with_jitter(
    client: WdsClient, recorder: Recorder, sleeper: SleepRecorder
) -> None:
    recorder.queue += [rate_limited(), rate_limited(), json_response(200, ACTIVE_OK)]
    await client.crawl.active()
    first, second = sleeper.waits
    assert 0.375 <= first <= 0.5  # base 0.5 s, jitter takes off up to a quarter
    assert 0.75 <= second <= 1.0  # doubled
    assert len(recorder.requests) == 3


async def test_429_wait_from_the_message(client: WdsClient, recorder: Recorder, sleeper: SleepRecorder) -> None:
    message = "Rate limit exceeded. Consumed (req/min): 11. Please retry after 7s, resets at 12:00"
    recorder.queue += [rate_limited(message=message), json_response(200, ACTIVE_OK)]
    await client.crawl.active()
    assert sleeper.waits == [7.0]


async def test_429_gives_up_after_max_retries(client: WdsClient, recorder: Recorder, sleeper: SleepRecorder) -> None:
    recorder.queue += [rate_limited({"Retry-After": "1"}) for _ in range(5)]
    with pytest.raises(errors.RateLimitError) as caught:
        await client.crawl.active()
    assert len(recorder.requests) == 3  # first try + max_retries (2)
    assert sleeper.waits == [1.0, 1.0]
    assert caught.value.retry_after == 1.0


async def test_429_post_is_retried_because_it_was_refused(
    client: WdsClient, recorder: Recorder, sleeper: SleepRecorder
) -> None:
    created = {"success": True, "id": "s1", "cdpUrl": "wss://x/cdp/s1"}
    recorder.queue += [rate_limited({"Retry-After": "2"}), json_response(200, created)]
    session = await client.browser.create(ttl=60)
    assert session.id == "s1"
    assert sleeper.waits == [2.0]
    assert recorder.requests[0].content == recorder.requests[1].content


async def test_429_asking_too_long_a_wait_raises_at_once(
    client: WdsClient, recorder: Recorder, sleeper: SleepRecorder
) -> None:
    recorder.queue += [rate_limited({"Retry-After": "3600"})]
    with pytest.raises(errors.RateLimitError) as caught:
        await client.crawl.active()
    assert sleeper.waits == []
    assert len(recorder.requests) == 1
    assert caught.value.retry_after == 3600.0


async def test_max_retries_zero_never_retries(client: WdsClient, recorder: Recorder, sleeper: SleepRecorder) -> None:
    recorder.queue += [rate_limited({"Retry-After": "1"})]
    with pytest.raises(errors.RateLimitError):
        await client.with_options(max_retries=0).crawl.active()
    assert sleeper.waits == [] and len(recorder.requests) == 1


# --- transient failures ------------------------------------------------------


@pytest.mark.parametrize("status", [408, 502, 503, 504])
async def test_get_is_retried_on_transient_statuses(
    client: WdsClient, recorder: Recorder, sleeper: SleepRecorder, status: int
) -> None:
    recorder.queue += [json_response(status, error_body("later", "X")), json_response(200, ACTIVE_OK)]
    await client.crawl.active()
    assert len(recorder.requests) == 2 and len(sleeper.waits) == 1


@pytest.mark.parametrize("status", [502, 503, 504])
async def test_post_is_not_retried_on_transient_statuses(
    client: WdsClient, recorder: Recorder, sleeper: SleepRecorder, status: int
) -> None:
    recorder.queue += [json_response(status, error_body("browser failed", "X"))]
    with pytest.raises(errors.InternalServerError):
        await client.browser.execute("s1", code="1")
    assert len(recorder.requests) == 1 and sleeper.waits == []


async def test_delete_is_not_retried_on_503(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue += [json_response(503, error_body("later", "SERVICE_UNAVAILABLE"))]
    with pytest.raises(errors.ServiceUnavailableError):
        await client.scrape.stop_interaction(JOB_ID)
    assert len(recorder.requests) == 1


async def test_get_gives_up_on_persistent_503(client: WdsClient, recorder: Recorder, sleeper: SleepRecorder) -> None:
    recorder.queue += [json_response(503, error_body("down", "SERVICE_UNAVAILABLE")) for _ in range(3)]
    with pytest.raises(errors.ServiceUnavailableError):
        await client.crawl.active()
    assert len(recorder.requests) == 3 and len(sleeper.waits) == 2


async def test_400_is_never_retried(client: WdsClient, recorder: Recorder, sleeper: SleepRecorder) -> None:
    recorder.queue += [json_response(400, error_body("Bad Request", "BAD_REQUEST"))]
    with pytest.raises(errors.BadRequestError):
        await client.crawl.active()
    assert len(recorder.requests) == 1 and sleeper.waits == []


# --- timeouts and connection failures ---------------------------------------


async def test_post_is_not_retried_on_read_timeout(
    client: WdsClient, recorder: Recorder, sleeper: SleepRecorder
) -> None:
    recorder.queue += [httpx.ReadTimeout("timed out")]
    with pytest.raises(errors.APITimeoutError) as caught:
        await client.browser.execute("s1", code="await page.goto('https://example.com')", timeout=5)
    assert len(recorder.requests) == 1 and sleeper.waits == []
    assert "POST /v2/browser/s1/execute" in caught.value.message
    assert "waiting for the answer after 30 s" in caught.value.message  # execute's own 5 s + margin < default 30 s
    assert isinstance(caught.value, errors.APIConnectionError)


async def test_post_is_not_retried_on_reset_after_sending(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue += [httpx.RemoteProtocolError("Server disconnected without sending a response.")]
    with pytest.raises(errors.APIConnectionError, match="Server disconnected"):
        await client.crawl.start("https://example.com")
    assert len(recorder.requests) == 1


async def test_get_is_retried_on_read_timeout(client: WdsClient, recorder: Recorder, sleeper: SleepRecorder) -> None:
    recorder.queue += [httpx.ReadTimeout("timed out"), json_response(200, ACTIVE_OK)]
    await client.crawl.active()
    assert len(recorder.requests) == 2 and len(sleeper.waits) == 1


async def test_get_timeout_after_all_retries(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue += [httpx.ReadTimeout("timed out") for _ in range(3)]
    with pytest.raises(errors.APITimeoutError, match="timed out waiting for the answer"):
        await client.crawl.active()
    assert len(recorder.requests) == 3


async def test_post_is_retried_when_the_connection_was_never_made(
    client: WdsClient, recorder: Recorder, sleeper: SleepRecorder
) -> None:
    created = {"success": True, "id": "s1", "cdpUrl": "wss://x/cdp/s1"}
    recorder.queue += [httpx.ConnectError("[Errno 111] Connection refused"), json_response(200, created)]
    assert (await client.browser.create(ttl=60)).id == "s1"
    assert len(sleeper.waits) == 1


async def test_connect_timeout_message(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue += [httpx.ConnectTimeout("timed out") for _ in range(3)]
    with pytest.raises(errors.APITimeoutError, match="timed out connecting after 5 s"):
        await client.crawl.active()


def _closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_connection_refused_on_a_real_closed_port(sleeper: SleepRecorder) -> None:
    base_url = f"http://127.0.0.1:{_closed_port()}"
    async with WdsClient(base_url, API_KEY, sleep=sleeper, max_retries=1) as client:
        with pytest.raises(errors.APIConnectionError) as caught:
            await client.crawl.active()
    error = caught.value
    assert not isinstance(error, errors.APITimeoutError)
    assert error.message.startswith(f"cannot reach {base_url} (GET /v2/crawl/active)")
    assert error.title == "Cannot reach the service"
    assert len(sleeper.waits) == 1  # nothing was sent, so one retry was made
    assert API_KEY not in str(error)


# --- the policy's pieces -----------------------------------------------------


def test_backoff_is_capped() -> None:
    policy = RetryPolicy(max_retries=10)
    assert all(policy.backoff(i) <= policy.max_delay for i in range(20))


def test_negative_max_retries_is_refused() -> None:
    with pytest.raises(ValueError, match="max_retries"):
        WdsClient(BASE_URL, API_KEY, max_retries=-1)


@pytest.mark.parametrize(
    ("headers", "message", "expected"),
    [
        ({"retry-after": "12"}, None, 12.0),
        ({"retry-after": "1.5"}, None, 1.5),
        ({"retry-after-ms": "250"}, None, 0.25),
        ({"retry-after": "-3"}, None, 0.0),
        ({"retry-after": "soon"}, None, None),
        ({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, None, 0.0),  # in the past
        ({}, "please retry after 23s", 23.0),
        ({}, "Rate limit exceeded", None),
    ],
)
def test_retry_after_parsing(headers: dict[str, str], message: str | None, expected: float | None) -> None:
    assert retry_after_seconds(httpx.Headers(headers), message) == expected
