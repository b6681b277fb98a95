"""Every non-2xx answer becomes the exception class of its meaning, with the body's facts."""

from __future__ import annotations

import httpx
import pytest

from tests.api.mock_service import API_KEY, JOB_ID, Recorder, error_body, json_response
from tui.api import errors
from tui.api.client import WdsClient

CASES = [
    (400, "BAD_REQUEST", errors.BadRequestError, "Bad Request"),
    (401, "UNAUTHORIZED", errors.AuthenticationError, "Unauthorized: Invalid token"),
    (402, "PAYMENT_REQUIRED", errors.InsufficientCreditsError, "Insufficient credits"),
    (403, "FORBIDDEN", errors.PermissionDeniedError, "Forbidden"),
    (404, "NOT_FOUND", errors.NotFoundError, "Job not found"),
    (404, "SCRAPE_NO_CACHED_DATA", errors.NoCachedDataError, "No cached data"),
    (404, "SCRAPE_LOCKDOWN_CACHE_MISS", errors.LockdownCacheMissError, "Lockdown cache miss"),
    (408, "REQUEST_TIMEOUT", errors.RequestTimeoutError, "Request timed out"),
    (409, "CONFLICT", errors.ConflictError, "Replay context unavailable"),
    (410, "GONE", errors.GoneError, "Browser session has been destroyed."),
    (429, "RATE_LIMITED", errors.RateLimitError, "Too many concurrent sessions"),
    (500, "UNKNOWN_ERROR", errors.InternalServerError, "An unexpected error occurred"),
    (502, "BAD_GATEWAY", errors.BadGatewayError, "Browser service failed"),
    (503, "SERVICE_UNAVAILABLE", errors.ServiceUnavailableError, "Browser feature not configured"),
    (504, "GATEWAY_TIMEOUT", errors.GatewayTimeoutError, "Upstream timed out"),
    (507, "INSUFFICIENT_STORAGE", errors.InternalServerError, "Disk full"),
    (418, "TEAPOT", errors.APIStatusError, "I'm a teapot"),
]


@pytest.mark.parametrize(("status", "code", "cls", "message"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
async def test_status_maps_to_its_exception(
    client: WdsClient, recorder: Recorder, status: int, code: str, cls: type[errors.APIStatusError], message: str
) -> None:
    # POST is never retried on these (except 429), so one queued answer suffices; max_retries=0 covers 429
    recorder.queue.append(json_response(status, error_body(message, code), headers={"x-request-id": "req-42"}))
    with pytest.raises(errors.APIStatusError) as caught:
        await client.with_options(max_retries=0).scrape.interact(JOB_ID, code="1 + 1")
    error = caught.value
    assert type(error) is cls
    assert (error.status, error.status_code, error.code, error.message, error.request_id) == (
        status,
        status,
        code,
        message,
        "req-42",
    )
    assert error.method == "POST" and error.url.endswith(f"/v2/scrape/{JOB_ID}/interact")
    assert str(error) == f"{status} {code}: {message} (request id req-42)"
    assert error.title and isinstance(error, errors.WdsError)


async def test_bad_request_keeps_validation_details(client: WdsClient, recorder: Recorder) -> None:
    details = [{"path": ["ttl"], "message": "Number must be less than or equal to 3600"}]
    recorder.queue.append(json_response(400, error_body("Bad Request", "BAD_REQUEST", details)))
    with pytest.raises(errors.BadRequestError) as caught:
        await client.browser.create(ttl=600)
    assert caught.value.details == details
    assert caught.value.body["details"] == details


async def test_request_id_may_come_from_the_body(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(404, {"success": False, "error": "Job not found", "requestId": "body-7"}))
    with pytest.raises(errors.NotFoundError) as caught:
        await client.crawl.get(JOB_ID)
    assert caught.value.request_id == "body-7"
    assert caught.value.code is None


async def test_support_error_body_has_only_error(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(503, {"error": "Support agent unavailable"}))
    with pytest.raises(errors.ServiceUnavailableError) as caught:
        await client.support.docs_search("how do I crawl?")
    assert caught.value.message == "Support agent unavailable"
    assert caught.value.code is None


async def test_ask_504_keeps_the_partial_envelope(client: WdsClient, recorder: Recorder) -> None:
    partial = {"requestId": "r-1", "answer": None, "feedback": {"blockedBy": "budget", "attempted": ["read job"]}}
    recorder.queue.append(json_response(504, {**partial, "error": "Support agent timed out"}))
    with pytest.raises(errors.GatewayTimeoutError) as caught:
        await client.support.ask("why did my crawl fail?", job_id=JOB_ID)
    error = caught.value
    assert error.message == "Support agent timed out"
    assert error.request_id == "r-1"
    assert error.partial is not None and error.partial.is_stuck
    assert error.partial.feedback.attempted == ["read job"]
    assert len(recorder.requests) == 1, "a POST that hit the 504 budget is not sent again"


async def test_504_elsewhere_has_no_partial(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(504, {"error": "timeout"}))
    with pytest.raises(errors.GatewayTimeoutError) as caught:
        await client.browser.create(ttl=60)
    assert caught.value.partial is None


async def test_cache_codes_refine_only_a_404(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(500, error_body("odd", "SCRAPE_NO_CACHED_DATA")))
    with pytest.raises(errors.InternalServerError) as caught:
        await client.scrape.create("https://example.com", min_age=1)
    assert not isinstance(caught.value, errors.NotFoundError)


async def test_html_error_page_gives_a_readable_message(client: WdsClient, recorder: Recorder) -> None:
    page = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"
    recorder.queue.append(httpx.Response(502, text=page, headers={"content-type": "text/html"}))
    with pytest.raises(errors.BadGatewayError) as caught:
        await client.browser.create(ttl=60)
    message = caught.value.message
    assert message.startswith("the server answered 502 Bad Gateway with a text/html body")
    assert "nginx" in message
    assert caught.value.body == page


async def test_empty_error_body(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(httpx.Response(403))
    with pytest.raises(errors.PermissionDeniedError, match="403 Forbidden with an empty body"):
        await client.crawl.active()


async def test_nested_error_object_is_read(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(401, {"error": {"message": "Unauthorized"}}))
    with pytest.raises(errors.AuthenticationError, match="Unauthorized"):
        await client.crawl.active()


async def test_a_key_echoed_by_the_server_is_masked(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(401, error_body(f"Unknown key {API_KEY}", "UNAUTHORIZED")))
    with pytest.raises(errors.AuthenticationError) as caught:
        await client.crawl.active()
    assert API_KEY not in str(caught.value) and API_KEY not in repr(caught.value)
    assert "…cdef" in caught.value.message


async def test_a_redirect_points_at_the_base_url(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(httpx.Response(301, headers={"location": "https://wds.test/v2/crawl/active"}))
    with pytest.raises(errors.APIStatusError) as caught:
        await client.crawl.active()
    assert caught.value.message == "the server redirected to https://wds.test/v2/crawl/active; check the base URL"
