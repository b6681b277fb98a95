"""Issue 9, part 2: no request breaks a team's listings, because nothing unsendable is stored.

Each reproduction of the issue is sent as raw bytes (as a hostile caller would,
not through our client, which refuses them before sending). Each must answer
400 in the service's error shape, and afterwards the team's listings, which
once answered 500 for good, must still answer 200.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from tests.support.emulator_teams import ALPHA_KEY, auth
from tui.contract.requests import BatchScrapeRequest, CrawlRequest, ScrapeRequest
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

JSON = {**auth(ALPHA_KEY), "Content-Type": "application/json"}
SITE = "https://lumen-labs.io/"
SURROGATE = "\\ud800"  # as it appears in the JSON text: an escape Python's reader turns into a lone surrogate


async def post_raw(client: httpx.AsyncClient, path: str, body: str) -> httpx.Response:
    return await client.post(path, content=body.encode(), headers=JSON)


async def assert_listings_still_answer(client: httpx.AsyncClient) -> None:
    """The listings the issue saw answer 500 for good after one bad request."""
    activity = await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))
    assert activity.status_code == 200, activity.text
    active = await client.get("/v2/crawl/active", headers=auth(ALPHA_KEY))
    assert active.status_code == 200, active.text
    assert active.json()["crawls"] == []


def assert_bad_request(r: httpx.Response, *, code: str = "BAD_REQUEST", path: list[Any] | None = None) -> None:
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["success"] is False and body["code"] == code and isinstance(body["error"], str)
    if path is not None:
        assert [d["path"] for d in body["details"]] == [path]


# --- lone surrogates ---------------------------------------------------------------------------

SURROGATE_BODIES = {
    "scrape url (cache-only)": ("/v2/scrape", f'{{"url":"https://a.com/{SURROGATE}","minAge":1}}', ["url"]),
    "scrape url": ("/v2/scrape", f'{{"url":"https://a.com/{SURROGATE}"}}', ["url"]),
    "map url": ("/v2/map", f'{{"url":"https://a.com/{SURROGATE}"}}', ["url"]),
    "map search": ("/v2/map", f'{{"url":"{SITE}","search":"x{SURROGATE}"}}', ["search"]),
    "crawl url": ("/v2/crawl", f'{{"url":"https://a.com/{SURROGATE}"}}', ["url"]),
    "crawl exclude path": ("/v2/crawl", f'{{"url":"{SITE}","excludePaths":["{SURROGATE}"]}}', ["excludePaths", 0]),
    "batch url": ("/v2/batch/scrape", f'{{"urls":["{SITE}","https://a.com/{SURROGATE}"]}}', ["urls", 1]),
    "batch webhook": ("/v2/batch/scrape", f'{{"urls":["{SITE}"],"webhook":"https://h.com/{SURROGATE}"}}', ["webhook"]),
    "crawl webhook url": (
        "/v2/crawl",
        f'{{"url":"{SITE}","webhook":{{"url":"https://h.com/{SURROGATE}"}}}}',
        ["webhook", "url"],
    ),
    "crawl webhook metadata": (
        "/v2/crawl",
        f'{{"url":"{SITE}","webhook":{{"url":"https://h.com/","metadata":{{"k":["{SURROGATE}"]}}}}}}',
        ["webhook", "metadata", "k", 0],
    ),
    "scrape header name": ("/v2/scrape", f'{{"url":"{SITE}","headers":{{"{SURROGATE}":"v"}}}}', ["headers"]),
    "params preview prompt": ("/v2/crawl/params-preview", f'{{"url":"{SITE}","prompt":"{SURROGATE}"}}', ["prompt"]),
}


@pytest.mark.parametrize("path, body, where", SURROGATE_BODIES.values(), ids=SURROGATE_BODIES.keys())
async def test_a_lone_surrogate_is_refused_before_it_is_stored(
    client: httpx.AsyncClient, path: str, body: str, where: list[Any]
) -> None:
    r = await post_raw(client, path, body)
    assert_bad_request(r, path=where)
    assert "lone surrogate" in r.json()["error"]
    await assert_listings_still_answer(client)


async def test_a_lone_surrogate_in_a_support_job_id_is_refused_in_the_support_shape(client: httpx.AsyncClient) -> None:
    r = await post_raw(client, "/v2/support/ask", f'{{"question":"why did it fail?","jobId":"{SURROGATE}"}}')
    assert r.status_code == 400
    assert list(r.json()) == ["error"] and "jobId" in r.json()["error"]


async def test_surrogate_bytes_not_escapes_are_refused_too(client: httpx.AsyncClient) -> None:
    # CESU-style UTF-8 bytes of U+D800; Python's JSON reader decodes bytes with surrogatepass.
    r = await client.post("/v2/scrape", content=b'{"url":"https://a.com/\xed\xa0\x80"}', headers=JSON)
    assert r.status_code == 400
    await assert_listings_still_answer(client)


# --- numbers -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields, code",
    [
        ('"delay":1e300', "BAD_REQUEST"),
        ('"delay":1e30', "BAD_REQUEST"),
        ('"delay":Infinity', "BAD_REQUEST_INVALID_JSON"),
        ('"delay":-Infinity', "BAD_REQUEST_INVALID_JSON"),
        ('"delay":NaN', "BAD_REQUEST_INVALID_JSON"),
        (f'"delay":{2**63}', "BAD_REQUEST"),
        (f'"limit":{2**63}', "BAD_REQUEST"),
        (f'"maxDepth":{2**63}', "BAD_REQUEST"),
        (f'"scrapeOptions":{{"maxAge":{2**63}}}', "BAD_REQUEST"),
        ('"delay":3600.5', "BAD_REQUEST"),
    ],
)
async def test_crawl_numbers_out_of_range_are_refused(client: httpx.AsyncClient, fields: str, code: str) -> None:
    r = await post_raw(client, "/v2/crawl", f'{{"url":"{SITE}",{fields}}}')
    assert_bad_request(r, code=code)
    await assert_listings_still_answer(client)


async def test_the_largest_sane_numbers_are_accepted_and_the_crawl_can_be_cancelled(
    client: httpx.AsyncClient, emulator: Emulator
) -> None:
    r = await post_raw(client, "/v2/crawl", f'{{"url":"{SITE}","delay":3600,"limit":{2**53 - 1}}}')
    assert r.status_code == 200, r.text
    crawl_id = r.json()["id"]
    assert isinstance(emulator.clock, ManualClock)
    emulator.clock.advance(2 * 3600)
    active = await client.get("/v2/crawl/active", headers=auth(ALPHA_KEY))
    assert [c["id"] for c in active.json()["crawls"]] == [crawl_id]
    assert (await client.get(f"/v2/crawl/{crawl_id}", headers=auth(ALPHA_KEY))).status_code == 200
    cancelled = await client.delete(f"/v2/crawl/{crawl_id}", headers=auth(ALPHA_KEY))
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"


# --- nesting -----------------------------------------------------------------------------------


@pytest.mark.parametrize("body", ["[" * 10_000 + "]" * 10_000, '{"url":' + "[" * 10_000 + "]" * 10_000 + "}"])
async def test_ten_thousand_levels_of_json_are_a_400_not_a_recursion_error(
    client: httpx.AsyncClient, body: str
) -> None:
    r = await post_raw(client, "/v2/scrape", body)
    assert_bad_request(r, code="BAD_REQUEST_INVALID_JSON")
    await assert_listings_still_answer(client)


async def test_nesting_that_parses_but_no_response_could_carry_is_refused(client: httpx.AsyncClient) -> None:
    deep = "[" * 500 + "]" * 500  # Python reads it; echoing it in a status page would exhaust the writer
    r = await post_raw(
        client, "/v2/crawl", f'{{"url":"{SITE}","webhook":{{"url":"https://h.com/","metadata":{{"x":{deep}}}}}}}'
    )
    assert_bad_request(r)
    assert r.json()["details"][0]["path"][:3] == ["webhook", "metadata", "x"]


# --- URLs --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/v2/scrape", "/v2/map", "/v2/crawl", "/v2/crawl/params-preview"])
@pytest.mark.parametrize("url", ["http://[::1]/", "http://[::1", "https://a.com:99999/", "https://a.com/a\r\nb"])
async def test_urls_the_service_cannot_fetch_are_a_400_not_a_key_error(
    client: httpx.AsyncClient, path: str, url: str
) -> None:
    body: dict[str, Any] = {"url": url}
    if path.endswith("params-preview"):
        body["prompt"] = "the blog"
    r = await client.post(path, json=body, headers=auth(ALPHA_KEY))
    assert_bad_request(r, path=["url"])
    await assert_listings_still_answer(client)


async def test_a_batch_drops_an_ipv6_literal_as_an_invalid_url(client: httpx.AsyncClient) -> None:
    r = await client.post("/v2/batch/scrape", json={"urls": [SITE, "http://[::1]/"]}, headers=auth(ALPHA_KEY))
    assert r.status_code == 200 and r.json()["invalidURLs"] == ["http://[::1]/"]
    r = await client.post(
        "/v2/batch/scrape", json={"urls": ["http://[::1]/"], "ignoreInvalidURLs": False}, headers=auth(ALPHA_KEY)
    )
    assert r.status_code == 400


# --- webhooks ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "webhook",
    [
        "https://h.com/a\r\nb",
        {"url": "https://h.com/a\r\nX-Injected: 1"},
        {"url": "https://h.com/\x00"},
        {"url": "https://h.com/", "headers": {"X-A": "1\r\nX-Injected: 1"}},
        {"url": "https://h.com/", "headers": {"Bad Name": "1"}},
        {"url": "https://h.com/", "headers": {"X-A": "caf\u00e9"}},
        {"url": "https://\u2603.com/"},  # no IDNA form: httpx cannot send to it
    ],
)
@pytest.mark.parametrize("path", ["/v2/crawl", "/v2/batch/scrape"])
async def test_webhooks_that_could_never_be_sent_are_refused_at_request_time(
    client: httpx.AsyncClient, emulator: Emulator, path: str, webhook: Any
) -> None:
    body: dict[str, Any] = {"url": SITE} if path == "/v2/crawl" else {"urls": [SITE]}
    r = await client.post(path, json={**body, "webhook": webhook}, headers=auth(ALPHA_KEY))
    assert_bad_request(r)
    assert r.json()["details"][0]["path"][0] == "webhook"
    assert emulator.webhooks.log == []


@pytest.mark.parametrize("path", ["/v2/crawl", "/v2/batch/scrape"])
async def test_a_webhook_receiver_on_ipv6_loopback_is_accepted(client: httpx.AsyncClient, path: str) -> None:
    # Targets must be host names (the synthetic web has no IPv6 hosts), but a receiver may be anywhere.
    body: dict[str, Any] = {"url": SITE} if path == "/v2/crawl" else {"urls": [SITE]}
    r = await client.post(path, json={**body, "webhook": "http://[::1]:9000/hook"}, headers=auth(ALPHA_KEY))
    assert r.status_code == 200, r.text


async def test_a_delivery_that_raises_is_a_failed_attempt_not_stuck_in_flight(emulator: Emulator) -> None:
    # Bypasses the request models, as a value stored before this fix would have.
    team = emulator.teams.by_key(ALPHA_KEY)
    assert team is not None
    clock = emulator.clock
    assert isinstance(clock, ManualClock)
    bad = emulator.webhooks.enqueue(team, "job-1", "crawl.started", "https://h.com/a\r\nb", clock.now(), [])
    bad_header = emulator.webhooks.enqueue(
        team, "job-2", "crawl.started", "https://h.com/", clock.now(), [], headers={"X-A": "caf\u00e9"}
    )
    # Nothing may leave the machine: the receiver is a mock that would answer 200.
    emulator.webhooks.use_transport(httpx.MockTransport(lambda request: httpx.Response(200)))
    await emulator.webhooks.run_due()
    for delivery in (bad, bad_header):
        assert not delivery.in_flight and delivery.state == "pending"
        assert len(delivery.attempts) == 1 and delivery.attempts[0].error
    for _ in range(3):
        clock.advance(20 * 60)
        await emulator.webhooks.run_due()
    assert bad.state == bad_header.state == "failed"
    await emulator.aclose()


# --- the client refuses the same, before sending -----------------------------------------------


@pytest.mark.parametrize(
    "build",
    [
        lambda: ScrapeRequest(url="https://a.com/\ud800"),
        lambda: CrawlRequest(url=SITE, delay=float("inf")),
        lambda: CrawlRequest(url=SITE, delay=1e300),
        lambda: CrawlRequest(url=SITE, limit=2**63),
        lambda: ScrapeRequest(url="http://[::1]/"),
        lambda: BatchScrapeRequest(urls=[SITE], webhook={"url": SITE, "metadata": {"n": float("nan")}}),
    ],
)
def test_the_client_refuses_them_locally(build: Any) -> None:
    with pytest.raises(ValidationError):
        build()


# --- numbers read from a crawl prompt ------------------------------------------------------------


@pytest.mark.parametrize(
    ("prompt", "key", "expected"),
    [
        ("depth " + "9" * 5000, "maxDepth", 2**53 - 1),  # int() refuses > 4300 digits: was a 500
        ("max 123456789012345678901 pages", "limit", 2**53 - 1),
        ("delay of 1" + "0" * 400 + " s", "delay", 3600),  # float() reads inf: JSON could not carry it
        ("depth 3", "maxDepth", 3),
    ],
)
async def test_numbers_in_a_prompt_are_kept_within_what_a_request_may_carry(
    client: httpx.AsyncClient, prompt: str, key: str, expected: float
) -> None:
    r = await client.post("/v2/crawl/params-preview", json={"url": SITE, "prompt": prompt}, headers=auth(ALPHA_KEY))
    assert r.status_code == 200, r.text
    assert r.json()["data"][key] == expected
    # What the preview proposes can be started as it is.
    started = await client.post("/v2/crawl", json={"url": SITE, key: expected, "limit": 5}, headers=auth(ALPHA_KEY))
    assert started.status_code == 200, started.text
