"""Issue 9: connections trickling a request head are closed after the header deadline; others are served."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time

import httpx
import pytest
import websockets

from tests.emulator.echo_websocket import echo_server
from tests.emulator.freeze_probe import activity_latencies_while, assert_loop_free
from tui.emulator.header_deadline import HeaderDeadlineProtocol
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

# They measure how long the event loop stalls, on the wall clock: alone, in the serial pass.
pytestmark = [pytest.mark.socket, pytest.mark.serial]

HEADER_TIMEOUT = 1.0
SLOW_CLIENTS = 50
TRICKLE_GAP = 0.2


def open_slow_clients(base_url: str, count: int = SLOW_CLIENTS) -> list[socket.socket]:
    host, port = base_url.removeprefix("http://").split(":")
    clients = []
    for _ in range(count):
        sock = socket.create_connection((host, int(port)), timeout=5)
        sock.sendall(b"GET /v2/team/activity HTTP/1.1\r\nHost: emulator\r\n")
        clients.append(sock)
    return clients


def trickle_until_closed(clients: list[socket.socket], seconds: float) -> dict[int, float]:
    """Send one header byte per client every TRICKLE_GAP s; when each was closed (s after the start)."""
    started = time.monotonic()
    closed: dict[int, float] = {}
    while len(closed) < len(clients) and time.monotonic() - started < seconds:
        for index, sock in enumerate(clients):
            if index in closed:
                continue
            try:
                sock.sendall(b"X")
                sock.setblocking(False)
                try:
                    if sock.recv(1024) == b"":
                        closed[index] = time.monotonic() - started
                except BlockingIOError:
                    pass
                finally:
                    sock.setblocking(True)
            except OSError:  # reset or broken pipe: the server closed it
                closed[index] = time.monotonic() - started
        time.sleep(TRICKLE_GAP)
    return closed


def test_slow_header_connections_are_closed_at_the_deadline_while_others_are_served(emulator: Emulator) -> None:
    with ServerThread(emulator, header_timeout=HEADER_TIMEOUT) as base_url:
        clients = open_slow_clients(base_url)
        try:
            latencies, trickle = activity_latencies_while(
                base_url, lambda: trickle_until_closed(clients, 10 * HEADER_TIMEOUT), lead_seconds=0.1
            )
        finally:
            for sock in clients:
                sock.close()
        closed = trickle.result
        assert len(closed) == SLOW_CLIENTS, f"{SLOW_CLIENTS - len(closed)} slow clients still connected"
        assert max(closed.values()) < HEADER_TIMEOUT + 2.0, closed
        assert_loop_free(latencies)


def test_the_default_deadline_is_ten_seconds_and_applies_to_the_real_server(emulator: Emulator) -> None:
    assert HeaderDeadlineProtocol.header_timeout == 10.0
    with ServerThread(emulator, header_timeout=HEADER_TIMEOUT) as base_url:
        [sock] = open_slow_clients(base_url, 1)
        with sock:  # sends nothing more: closed at the deadline, never answered
            sock.settimeout(HEADER_TIMEOUT + 3)
            started = time.monotonic()
            assert sock.recv(1024) == b""
            assert HEADER_TIMEOUT - 0.2 < time.monotonic() - started < HEADER_TIMEOUT + 2


def test_a_kept_alive_connection_outlives_the_deadline(emulator: Emulator) -> None:
    with ServerThread(emulator, header_timeout=HEADER_TIMEOUT) as base_url:
        with httpx.Client(base_url=base_url) as client:
            assert client.get("/v2/team/activity").status_code == 401
            time.sleep(HEADER_TIMEOUT + 0.5)  # idle between requests: keep-alive's 75 s rule, not the deadline
            assert client.get("/v2/team/activity").status_code == 401
            assert client.get("/v2/team/activity").status_code == 401
            # The same connection served all three.
            assert len(client._transport._pool.connections) == 1  # type: ignore[attr-defined]


async def test_a_websocket_outlives_the_deadline() -> None:
    async with echo_server(HeaderDeadlineProtocol.with_timeout(HEADER_TIMEOUT)) as url:
        async with websockets.connect(url) as ws:
            await asyncio.sleep(HEADER_TIMEOUT + 0.5)
            await ws.send("still here")
            assert await ws.recv() == "still here"


def test_a_request_head_still_unfinished_after_16_kb_is_refused_and_the_next_caller_served(emulator: Emulator) -> None:
    with ServerThread(emulator, header_timeout=HEADER_TIMEOUT) as base_url:
        host, port = base_url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=5) as sock:
            # A head that never ends: the server must not buffer it without bound.
            sock.sendall(b"GET /v2/team/activity HTTP/1.1\r\nHost: emulator\r\nX-Big: " + b"a" * 20_000)
            answer = b""
            with contextlib.suppress(OSError):
                while chunk := sock.recv(4096):
                    answer += chunk
            # Refused by the server at once (the header deadline would close it unanswered), never
            # handed to the app (which says 401).
            assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
        assert httpx.get(f"{base_url}/v2/team/activity").status_code == 401
