"""Issue 9: request bodies over 10 MB are refused with 413, before or while they stream in, never buffered."""

from __future__ import annotations

import socket
import time
from collections.abc import AsyncIterator, Iterable, Iterator

import httpx
import pytest

from tests.emulator.freeze_probe import activity_latencies_while, assert_loop_free
from tests.support.emulator_teams import ALPHA_KEY, auth
from tui.emulator.http.body_limit import MAX_BODY_BYTES
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

# They measure how long the event loop stalls, on the wall clock: alone, in the serial pass.
pytestmark = pytest.mark.serial

HUNDRED_MB = 100 * 1024 * 1024
CHUNK = 1024 * 1024


def huge_json(total: int = HUNDRED_MB) -> Iterator[bytes]:
    """A valid JSON scrape body of `total` bytes, streamed in 1 MB chunks (so sent chunked)."""
    head, tail = b'{"url": "https://lumen-labs.io/", "padding": "', b'"}'
    yield head
    left = total - len(head) - len(tail)
    while left > 0:
        yield b"x" * min(CHUNK, left)
        left -= CHUNK
    yield tail


async def streamed(chunks: Iterable[bytes]) -> AsyncIterator[bytes]:
    """`chunks` as the async body an `httpx.AsyncClient` streams."""
    for chunk in chunks:
        yield chunk


def assert_413(response: httpx.Response, support: bool = False) -> None:
    assert response.status_code == 413, response.text[:200]
    body = response.json()
    if support:
        assert set(body) == {"error"} and "too large" in body["error"]
    else:
        assert body["success"] is False and body["code"] == "PAYLOAD_TOO_LARGE" and str(MAX_BODY_BYTES) in body["error"]


async def test_a_declared_length_over_the_limit_is_refused_unread(client: httpx.AsyncClient) -> None:
    headers = {**auth(ALPHA_KEY), "Content-Length": str(MAX_BODY_BYTES + 1)}

    async def never_read() -> AsyncIterator[bytes]:
        raise AssertionError("the body was read")
        yield b""

    request = client.build_request("POST", "/v2/scrape", headers=headers, content=never_read())
    assert_413(await client.send(request))


async def test_support_endpoints_answer_413_in_their_own_shape(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v2/support/docs-search", content=streamed(huge_json(MAX_BODY_BYTES + 10)), headers=auth(ALPHA_KEY)
    )
    assert_413(response, support=True)


async def test_a_body_at_the_limit_is_read_as_usual(client: httpx.AsyncClient) -> None:
    # Exactly the limit, streamed without a length: parsed and scraped (the unknown field is ignored).
    response = await client.post("/v2/scrape", content=streamed(huge_json(MAX_BODY_BYTES)), headers=auth(ALPHA_KEY))
    assert response.status_code == 200 and response.json()["data"]["metadata"]["statusCode"] == 200


@pytest.mark.socket
def test_a_100_mb_streamed_body_answers_413_while_others_are_served(emulator: Emulator) -> None:
    with ServerThread(emulator) as base_url:

        def bad() -> httpx.Response:
            return httpx.post(f"{base_url}/v2/scrape", content=huge_json(), headers=auth(ALPHA_KEY), timeout=120)

        latencies, upload = activity_latencies_while(base_url, bad, lead_seconds=0.1, join_seconds=120)
        assert upload.error is None, upload.error
        assert_413(upload.result)
        assert_loop_free(latencies)


@pytest.mark.socket
def test_a_declared_100_mb_body_is_refused_before_it_is_sent(emulator: Emulator) -> None:
    with ServerThread(emulator) as base_url:
        host, port = base_url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=5) as sock:
            sock.sendall(
                f"POST /v2/scrape HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {ALPHA_KEY}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {HUNDRED_MB}\r\n\r\n".encode()
            )
            started = time.monotonic()
            answer = ""
            while "}" not in answer:  # the JSON error body has arrived
                data = sock.recv(65536).decode()
                if not data:
                    break
                answer += data
        assert answer.startswith("HTTP/1.1 413 ") and "PAYLOAD_TOO_LARGE" in answer
        assert time.monotonic() - started < 2  # without waiting for a byte of the body
