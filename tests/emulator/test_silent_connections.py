"""Issue 18: connections that never send a byte are closed at the head deadline; one address is capped.

Real sockets on a real uvicorn server (`ServerThread`), with a short deadline so
the tests are quick; another team's probe checks the API keeps answering meanwhile.
"""

from __future__ import annotations

import socket
import time

import httpx
import pytest
import websockets

from tests.emulator.echo_websocket import echo_server
from tests.emulator.freeze_probe import activity_latencies_while, assert_loop_free
from tests.support.emulator_teams import BETA_KEY, auth
from tui.emulator.header_deadline import MAX_CONNECTIONS_PER_CLIENT, HeaderDeadlineProtocol
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

pytestmark = pytest.mark.socket

HEADER_TIMEOUT = 1.0
SILENT = 40
CAP = 8


def connect(base_url: str) -> socket.socket:
    host, port = base_url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=5)


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """True when the server closes `sock` (EOF or reset) within `within` seconds, sending nothing."""
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_connections_that_never_send_a_byte_are_closed_at_the_deadline(emulator: Emulator) -> None:
    with ServerThread(emulator, header_timeout=HEADER_TIMEOUT) as base_url:
        silent = [connect(base_url) for _ in range(SILENT)]
        try:

            def wait() -> list[bool]:
                deadline = time.monotonic() + HEADER_TIMEOUT + 3
                return [closed_by_server(sock, max(0.01, deadline - time.monotonic())) for sock in silent]

            latencies, waited = activity_latencies_while(base_url, wait, lead_seconds=0.05)
        finally:
            for sock in silent:
                sock.close()
        assert waited.error is None and waited.result == [True] * SILENT, (
            f"{waited.result.count(False) if waited.result else '?'} silent connections still open"
        )
        assert_loop_free(latencies)


def test_the_default_deadline_and_cap(emulator: Emulator) -> None:
    assert HeaderDeadlineProtocol.header_timeout == 10.0
    assert HeaderDeadlineProtocol.max_per_client == MAX_CONNECTIONS_PER_CLIENT == 256


@pytest.mark.serial  # "answered at once", on the wall clock
def test_one_address_holds_at_most_the_cap_and_one_more_is_answered_503(emulator: Emulator) -> None:
    with ServerThread(emulator, header_timeout=HEADER_TIMEOUT + 1, max_connections_per_client=CAP) as base_url:
        with httpx.Client(base_url=base_url, headers=auth(BETA_KEY), timeout=5) as probe:
            assert probe.get("/v2/team/activity").status_code == 200  # one connection, kept alive
            held = [connect(base_url) for _ in range(CAP - 1)]  # the cap is reached
            try:
                time.sleep(0.2)
                started = time.monotonic()
                refused = httpx.get(f"{base_url}/v2/team/activity", headers=auth(BETA_KEY), timeout=5)
                assert time.monotonic() - started < 1.0, "answered at once"
                assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
                body = refused.json()
                assert body["success"] is False and body["code"] == "SERVICE_UNAVAILABLE"
                assert f"at most {CAP} may be open at once" in body["error"]
                # The connections already open are served meanwhile.
                assert probe.get("/v2/team/activity").status_code == 200
                # Once the silent ones reach the deadline and are closed, the address may connect again.
                assert all(closed_by_server(sock, HEADER_TIMEOUT + 4) for sock in held)
                assert httpx.get(f"{base_url}/v2/team/activity", headers=auth(BETA_KEY)).status_code == 200
            finally:
                for sock in held:
                    sock.close()


async def test_a_websocket_leaves_the_count_of_its_address() -> None:
    """An upgraded connection is no longer an HTTP connection waiting: it does not hold a place."""
    protocol = HeaderDeadlineProtocol.configured(header_timeout=HEADER_TIMEOUT, max_per_client=2)
    async with echo_server(protocol) as url:
        async with (
            websockets.connect(url) as first,
            websockets.connect(url) as second,
            websockets.connect(url) as third,
        ):
            for ws in (first, second, third):
                await ws.send("here")
                assert await ws.recv() == "here"
            assert dict(protocol.open_by_client) == {}
