"""A latency fault never lets a request body past the 10 MB limit (issue 23 §1 review).

The fault's latency once kept every byte the body sent while it slept, outside the body limit:
300 MB declared grew the server by 300 MB, and its 413 came only after the latency. Over a real
socket, with a rule that holds the request for a minute: a body over the limit is answered 413
at once, and the bytes the server holds for it stay bounded (measured with tracemalloc, which
sees the server thread's allocations: the server runs in this process). And the latency's own
keeping is capped, whatever middleware wraps it.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
import tracemalloc
from collections.abc import Iterator

import httpx
import pytest
from starlette.types import Message, Receive, Scope, Send

from tests.support.emulator_teams import ALPHA_KEY, auth
from tui.emulator.http.body_limit import MAX_BODY_BYTES
from tui.emulator.http.errors import ApiError
from tui.emulator.http.fault_injection import FaultInjectionMiddleware
from tui.emulator.http.fault_rules import rule_from_fields
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

ADMIN = "emu-" + "0f" * 16
LATENCY_MS = 60_000
CHUNK = b"x" * (256 * 1024)
SENT_BYTES = 4 * MAX_BODY_BYTES  # what the client pushes: four times the limit
PROMPT_SECONDS = 15.0  # far below the rule's minute: the 413 did not wait for the latency


@pytest.fixture
def base_url() -> Iterator[str]:
    emulator = Emulator.from_keys({"alpha": [ALPHA_KEY]}, admin_token=ADMIN, history=False)
    with ServerThread(emulator) as url:
        added = httpx.post(
            f"{url}/_emulator/faults",
            json={"method": "POST", "path": "/v2/scrape", "latency": LATENCY_MS},
            headers=auth(ADMIN),
        )
        assert added.status_code == 201, added.text
        yield url


def _push(sock: socket.socket, head: bytes, chunked: bool) -> None:
    """Send `head` then SENT_BYTES of body (chunked or as declared), until done or the server closes."""
    frame = f"{len(CHUNK):x}\r\n".encode() + CHUNK + b"\r\n" if chunked else CHUNK
    try:
        sock.sendall(head)
        for _ in range(SENT_BYTES // len(CHUNK)):
            sock.sendall(frame)
    except OSError:
        pass  # the server answered and closed: the rest is not wanted


def _post_huge(base_url: str, chunked: bool) -> tuple[bytes, float, int]:
    """POST /v2/scrape with a body over the limit: the answer's first bytes, when they came, and
    the most memory (tracemalloc's peak over the baseline) the process held meanwhile."""
    host, port = base_url.removeprefix("http://").split(":")
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {SENT_BYTES}"
    head = (
        f"POST /v2/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ALPHA_KEY}\r\n"
        f"Content-Type: application/json\r\n{framing}\r\n\r\n"
    ).encode()
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        with socket.create_connection((host, int(port)), timeout=PROMPT_SECONDS) as sock:
            started = time.monotonic()
            pusher = threading.Thread(target=_push, args=(sock, head, chunked), daemon=True)
            pusher.start()
            try:
                answer = sock.recv(4096)
            except TimeoutError:
                answer = b""
            elapsed = time.monotonic() - started
            sock.shutdown(socket.SHUT_RDWR)
            pusher.join(PROMPT_SECONDS)
        peak = tracemalloc.get_traced_memory()[1] - baseline
    finally:
        tracemalloc.stop()
    return answer, elapsed, peak


@pytest.mark.socket
def test_a_declared_length_over_the_limit_is_refused_at_once_and_never_kept(base_url: str) -> None:
    answer, elapsed, peak = _post_huge(base_url, chunked=False)
    assert answer.startswith(b"HTTP/1.1 413"), (answer[:80], f"after {elapsed:.1f} s")
    assert b"PAYLOAD_TOO_LARGE" in answer or b"content-length" in answer.lower()
    assert peak < MAX_BODY_BYTES // 2, f"the process grew by {peak / 2**20:.0f} MB while the body was sent"


@pytest.mark.socket
def test_a_chunked_body_over_the_limit_is_refused_during_the_latency_and_kept_bounded(base_url: str) -> None:
    answer, elapsed, peak = _post_huge(base_url, chunked=True)
    assert answer.startswith(b"HTTP/1.1 413"), (answer[:80], f"after {elapsed:.1f} s")
    # Up to the limit is read before the 413 (as any route would), never the 40 MB sent.
    assert peak < 2 * MAX_BODY_BYTES, f"the process grew by {peak / 2**20:.0f} MB while the body was sent"


async def test_the_latency_itself_keeps_at_most_the_limit_whatever_wraps_it() -> None:
    # The middleware alone, without the body limit outside: an endless body during a minute's latency.
    emulator = Emulator.from_keys({"alpha": [ALPHA_KEY]}, admin_token=ADMIN, history=False)
    emulator.faults.add(rule_from_fields({"path": "/v2/scrape", "latency": LATENCY_MS}))
    pulled = 0

    async def endless_body() -> Message:
        nonlocal pulled
        pulled += len(CHUNK)
        return {"type": "http.request", "body": CHUNK, "more_body": True}

    async def never_reached(scope: Scope, receive: Receive, send: Send) -> None:
        raise AssertionError("the route was called")

    async def no_answer(message: Message) -> None:
        raise AssertionError(f"answered {message}")

    middleware = FaultInjectionMiddleware(never_reached, rules=emulator.faults, teams=emulator.teams)
    scope: Scope = {"type": "http", "method": "POST", "path": "/v2/scrape", "headers": []}
    with pytest.raises(ApiError) as refused:
        await asyncio.wait_for(middleware(scope, endless_body, no_answer), PROMPT_SECONDS)
    assert refused.value.status == 413 and refused.value.code == "PAYLOAD_TOO_LARGE"
    assert pulled <= MAX_BODY_BYTES + len(CHUNK)
