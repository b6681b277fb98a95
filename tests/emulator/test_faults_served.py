"""Each fault effect as a plain client meets it over a real socket (uvicorn, `ServerThread`).

A reset is a TCP RST (a raw socket's read fails with ECONNRESET, not an end of file); a cut
sends the head with the body's full Content-Length and then part of the body; a slow body
trickles in at the rule's rate; latency delays the answer; a status answers the service's error
body. The admin prefix answers through every rule.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, auth
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

pytestmark = pytest.mark.socket

ADMIN = "emu-" + "0f" * 16
ACTIVITY = "/v2/team/activity"
# An upper bound only catches what never ends: on 2 shared cores under xdist a delay may stretch far.
NEVER_ENDS_SECONDS = 20.0


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Emulator]]:
    emulator = Emulator.from_keys({"alpha": [ALPHA_KEY], "beta": [BETA_KEY]}, admin_token=ADMIN, history=False)
    with ServerThread(emulator) as base_url:
        yield base_url, emulator


@pytest.fixture
def http(served: tuple[str, Emulator]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=served[0], timeout=10) as client:
        yield client
        client.delete("/_emulator/faults", headers=auth(ADMIN))


def add(http: httpx.Client, **rule: Any) -> int:
    answer = http.post("/_emulator/faults", json=rule, headers=auth(ADMIN))
    assert answer.status_code == 201, answer.text
    return int(answer.json()["rule"]["id"])


def fired(http: httpx.Client) -> list[int]:
    return [rule["fired"] for rule in http.get("/_emulator/faults", headers=auth(ADMIN)).json()["rules"]]


def raw_get(base_url: str, path: str, key: str = ALPHA_KEY) -> tuple[bytes, BaseException | None]:
    """What a raw socket reads for `GET path` until the server ends the connection, and how it ended."""
    host, port = base_url.removeprefix("http://").split(":")
    received = b""
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\r\n".encode())
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except OSError as exc:
            return received, exc
    return received, None


def test_a_reset_is_a_tcp_rst_before_any_answer(served: tuple[str, Emulator], http: httpx.Client) -> None:
    add(http, method="GET", path=ACTIVITY, reset=True)
    received, error = raw_get(served[0], ACTIVITY)
    assert received == b"" and isinstance(error, ConnectionResetError)
    with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError, httpx.ConnectError)):
        http.get(ACTIVITY, headers=auth(ALPHA_KEY))
    assert fired(http) == [2]


def test_reset_twice_then_succeed(http: httpx.Client) -> None:
    add(http, path="/v2/crawl/active", reset=True, times=2)
    outcomes = []
    for _ in range(3):
        try:
            outcomes.append(http.get("/v2/crawl/active", headers=auth(ALPHA_KEY)).status_code)
        except httpx.TransportError as exc:
            outcomes.append(type(exc).__name__)
    assert outcomes[2] == 200 and all(isinstance(outcome, str) for outcome in outcomes[:2])
    assert fired(http) == [2]


def test_a_cut_sends_the_full_length_then_half_the_body(served: tuple[str, Emulator], http: httpx.Client) -> None:
    whole = http.get(ACTIVITY, headers=auth(ALPHA_KEY)).content
    rule = add(http, path=ACTIVITY, cut="50%")
    received, error = raw_get(served[0], ACTIVITY)
    head, _, body = received.partition(b"\r\n\r\n")
    assert f"content-length: {len(whole)}".encode() in head.lower()
    assert f"x-emulator-fault: {rule}".encode() in head.lower()
    assert body == whole[: len(whole) // 2] and error is None  # a clean close, mid-body
    with pytest.raises(httpx.RemoteProtocolError, match=f"received {len(whole) // 2} bytes, expected {len(whole)}"):
        http.get(ACTIVITY, headers=auth(ALPHA_KEY))


def test_a_slow_body_trickles_in_at_its_rate_and_is_whole(http: httpx.Client) -> None:
    whole = http.get(ACTIVITY, headers=auth(ALPHA_KEY)).content
    rate = int(len(whole) / 0.8)  # the body in about 0.8 s
    add(http, path=ACTIVITY, slow=rate)
    started = time.monotonic()
    pieces = []
    with http.stream("GET", ACTIVITY, headers=auth(ALPHA_KEY)) as answer:
        for piece in answer.iter_raw():
            pieces.append(piece)
    elapsed = time.monotonic() - started
    assert b"".join(pieces) == whole and len(pieces) >= 5
    # The lower bound is the rate; the upper one only catches a trickle that never ends (2 shared cores).
    assert 0.6 <= elapsed < NEVER_ENDS_SECONDS, f"took {elapsed:.2f} s"


@pytest.mark.parametrize(("latency", "low"), [(300, 0.3), ([200, 400], 0.2)])
def test_latency_delays_the_answer(http: httpx.Client, latency: Any, low: float) -> None:
    add(http, method="GET", path="/v2/team/*", latency=latency)
    started = time.monotonic()
    assert http.get(ACTIVITY, headers=auth(ALPHA_KEY)).status_code == 200
    elapsed = time.monotonic() - started
    assert low <= elapsed < low + NEVER_ENDS_SECONDS, f"took {elapsed:.2f} s"


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (429, "RATE_LIMITED"),
        (500, "UNKNOWN_ERROR"),
        (502, "BAD_GATEWAY"),
        (503, "SERVICE_UNAVAILABLE"),
        (504, "GATEWAY_TIMEOUT"),
    ],
)
def test_a_status_answers_the_services_error_body(http: httpx.Client, status: int, code: str) -> None:
    add(http, method="GET", path=ACTIVITY, team="beta", status=status)
    answer = http.get(ACTIVITY, headers=auth(BETA_KEY))
    assert answer.status_code == status and answer.json()["code"] == code and answer.json()["success"] is False
    assert answer.headers.get("Retry-After") == ("1" if status == 429 else None)
    if status == 429:
        assert "retry after 1s" in answer.json()["error"]
    assert http.get(ACTIVITY, headers=auth(ALPHA_KEY)).status_code == 200  # another team: untouched
    assert http.post(ACTIVITY, headers=auth(BETA_KEY)).status_code == 405  # another method: untouched


def test_the_admin_prefix_answers_through_a_reset_of_every_path(http: httpx.Client) -> None:
    add(http, path="*", reset=True)
    for _ in range(3):
        assert http.get("/_emulator/faults", headers=auth(ADMIN)).status_code == 200
    with pytest.raises(httpx.TransportError):
        http.get("/openapi.json")
    assert json.loads(http.get("/_emulator/", headers=auth(ADMIN)).content)["success"] is True
    assert fired(http) == [1]


def test_a_client_that_gives_up_on_a_long_latency_frees_the_server_at_once() -> None:
    emulator = Emulator.from_keys({"alpha": [ALPHA_KEY]}, admin_token=ADMIN, history=False)
    server = ServerThread(emulator)
    base_url = server.start()
    # Not the time stop() takes (flaky on shared cores): uvicorn says when it had to cancel a
    # request still being answered after its graceful wait, which a held 60 s latency always is.
    shutdown_log = _Records()
    uvicorn_log = logging.getLogger("uvicorn.error")  # configured by start(): attached after it
    uvicorn_log.addHandler(shutdown_log)
    try:
        with httpx.Client(base_url=base_url, timeout=10) as client:
            add(client, path=ACTIVITY, latency=60_000)
            with pytest.raises(httpx.ReadTimeout):
                client.get(ACTIVITY, headers=auth(ALPHA_KEY), timeout=0.3)
    finally:
        started = time.monotonic()
        server.stop()
        uvicorn_log.removeHandler(shutdown_log)
    assert not [text for text in shutdown_log.texts if "graceful shutdown exceeded" in text], shutdown_log.texts
    assert time.monotonic() - started < NEVER_ENDS_SECONDS


class _Records(logging.Handler):
    """The messages logged to it."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.texts: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.texts.append(record.getMessage())


async def test_a_websocket_is_never_faulted(served: tuple[str, Emulator], http: httpx.Client) -> None:
    started = http.post("/v2/crawl", json={"url": "https://acme-outdoor.com", "limit": 3}, headers=auth(ALPHA_KEY))
    crawl_id = started.json()["id"]
    add(http, method="GET", path="/v2/crawl/*", reset=True)
    with pytest.raises(httpx.TransportError):
        http.get(f"/v2/crawl/{crawl_id}", headers=auth(ALPHA_KEY))
    url = served[0].replace("http://", "ws://") + f"/v2/crawl/{crawl_id}"
    async with websockets.connect(url, additional_headers=auth(ALPHA_KEY)) as socket_:
        first = json.loads(await asyncio.wait_for(socket_.recv(), 10))
    assert first["type"] == "catchup"
    assert fired(http) == [1]  # the status poll met the rule; the same path's upgrade did not


def test_a_body_sent_during_a_latency_still_reaches_the_route(http: httpx.Client) -> None:
    add(http, method="POST", path="/v2/map", latency=200)
    started = time.monotonic()
    answer = http.post("/v2/map", json={"url": "https://example.com", "limit": 3}, headers=auth(ALPHA_KEY))
    assert answer.status_code == 200 and len(answer.json()["links"]) == 3
    assert time.monotonic() - started >= 0.2


def test_a_probability_faults_some_calls_and_counts_only_those(http: httpx.Client) -> None:
    rule = add(http, method="GET", path="/v2/team/*", status=503, p=0.5)
    statuses = [http.get(ACTIVITY, headers=auth(ALPHA_KEY)).status_code for _ in range(30)]
    assert set(statuses) == {200, 503}
    assert fired(http) == [statuses.count(503)] and rule > 0
