"""Whatever a sender does, the listener answers, keeps a row, and writes nothing to the terminal.

On real loopback sockets: deep JSON, a failure of our own while reading a
delivery, a burst of connections while the listener is busy, a dashboard
loop that is busy while deliveries arrive, and (in a child process, whose
stdout and stderr are the terminal's) all of that plus broken clients and a
close with connections still open, which must leave both streams empty.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import textwrap
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from tui.dashboard.features.inbox import listener as listener_module
from tui.dashboard.features.inbox.listener import WebhookListener
from tui.dashboard.features.inbox.store import Inbox

pytestmark = pytest.mark.socket
ROOT = Path(__file__).resolve().parents[2]
DEEP = b"[" * 200_000 + b"]" * 200_000


@pytest.fixture
async def listener() -> AsyncIterator[WebhookListener]:
    server = WebhookListener(Inbox(None), "127.0.0.1", 0, head_seconds=2.0)
    await server.start()
    yield server
    await server.close()


def host_port(listener: WebhookListener) -> tuple[str, int]:
    host, port = listener.address.removeprefix("http://").rstrip("/").rsplit(":", 1)
    return host, int(port)


async def test_deep_json_is_answered_400_and_kept_as_a_row(listener: WebhookListener) -> None:
    async with httpx.AsyncClient() as client:
        answer = await client.post(listener.address, content=DEEP)
    assert answer.status_code == 400 and "nested too deeply" in answer.json()["error"]
    [row] = listener.inbox.rows
    assert row.event is None and "nested too deeply" in (row.latest.problem or "")


async def test_a_failure_of_our_own_is_answered_500_and_kept_as_a_row(
    listener: WebhookListener, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("a bug of ours")

    monkeypatch.setattr(listener_module, "check_delivery", broken)
    async with httpx.AsyncClient() as client:
        answer = await client.post(listener.address, content=b'{"type": "crawl.page"}')
    assert answer.status_code == 500
    [row] = listener.inbox.rows
    assert row.event is None and "KeyError" in (row.latest.problem or "")
    assert row.latest.body == b'{"type": "crawl.page"}'  # kept, to look at


async def test_a_burst_of_connections_is_queued_while_the_listener_is_busy(
    listener: WebhookListener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """asyncio's default backlog (100) refused the rest of a burst while the listener was busy."""
    release = threading.Event()
    stuck = threading.Event()
    real_check = listener_module.check_delivery

    def slow_check(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        stuck.set()
        release.wait(10)  # the listener stops accepting while it is stuck here
        return real_check(*args, **kwargs)

    monkeypatch.setattr(listener_module, "check_delivery", slow_check)
    host, port = host_port(listener)
    client = httpx.AsyncClient()
    first = asyncio.create_task(client.post(listener.address, content=b"{}"))
    assert await asyncio.to_thread(stuck.wait, 10), "the first delivery never reached the check"

    def connect_all(count: int) -> list[socket.socket]:
        connected = []
        for _ in range(count):
            sock = socket.socket()
            sock.settimeout(0.5)  # a handshake the kernel refuses to queue is retried after 1 s
            try:
                sock.connect((host, port))
                connected.append(sock)
            except OSError:
                sock.close()
        return connected

    try:
        connected = await asyncio.to_thread(connect_all, 400)
        assert len(connected) == 400
    finally:
        release.set()
        for sock in connected:
            sock.close()
        await first
        await client.aclose()


async def test_deliveries_are_answered_while_the_dashboards_loop_is_busy(listener: WebhookListener) -> None:
    """The listener does not wait for the loop the dashboard draws on: it answers on its own thread."""
    answers: list[int] = []

    def send_all() -> None:
        with httpx.Client() as client:
            for number in range(20):
                body = json.dumps({"type": "crawl.page", "id": "j", "webhookId": f"w{number}", "data": []})
                answers.append(client.post(listener.address, content=body).status_code)

    sender = threading.Thread(target=send_all)
    sender.start()
    sender.join(timeout=10)  # blocks this loop, as a long redraw would block the dashboard's
    assert answers == [200] * 20
    await asyncio.sleep(0)  # the loop runs again: the deliveries reach the inbox
    assert len(listener.inbox.rows) == 20


CHILD = textwrap.dedent(
    """
    import asyncio, json, socket
    import httpx
    from tui.dashboard.features.inbox import listener as listener_module
    from tui.dashboard.features.inbox.listener import WebhookListener
    from tui.dashboard.features.inbox.store import Inbox

    DEEP = b"[" * 200_000 + b"]" * 200_000

    async def main():
        server = WebhookListener(Inbox("whsec-child"), "127.0.0.1", 0, head_seconds=0.5)
        address = await server.start()
        host, port = address.removeprefix("http://").rstrip("/").rsplit(":", 1)
        async with httpx.AsyncClient() as client:
            assert (await client.post(address, content=DEEP)).status_code == 400
            assert (await client.post(address, content=b"{not json")).status_code == 400
            real = listener_module.check_delivery
            listener_module.check_delivery = lambda *a, **k: 1 / 0
            assert (await client.post(address, content=b"{}")).status_code == 500
            listener_module.check_delivery = real
        for raw in (b"GARBAGE\\r\\n\\r\\n", b"POST / HTTP/1.1\\r\\nContent-Length: 10\\r\\n\\r\\nabc",
                    b"POST / HTTP/1.1\\r\\nHost: x\\r\\n"):
            reader, writer = await asyncio.open_connection(host, int(port))
            writer.write(raw)
            await writer.drain()
            writer.transport.abort()  # gone mid-request: a reset
        idle = [await asyncio.open_connection(host, int(port)) for _ in range(5)]  # open when the listener closes
        slow = socket.create_connection((host, int(port)))
        slow.sendall(b"POST / HTTP/1.1\\r\\nHost: x\\r\\n")
        await asyncio.sleep(1.0)  # the slow one's head deadline passes
        await server.close()
        for _, writer in idle:
            writer.close()
        slow.close()
        assert len(server.inbox.rows) == 3, server.inbox.rows
        assert server.loop_errors == 0

    asyncio.run(main())
    """
)


def test_nothing_reaches_the_terminal_whatever_the_senders_do() -> None:
    """The child's stdout and stderr are what a terminal would show behind the dashboard: both stay empty."""
    child = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout == "" and child.stderr == ""


def test_connections_leave_no_garbage_cycles() -> None:
    """A burst's connections are freed as they close, not left to the cyclic collector (whose pauses stop the UI).

    CPython 3.11's socket transport keeps a cycle through a private attribute
    that `_break_transport_cycle` clears: this pins that it still does.
    """
    import gc

    def post_all(address: str) -> None:
        host, port = address.removeprefix("http://").rstrip("/").rsplit(":", 1)
        for number in range(20):  # plain sockets: the client side makes no transports of its own
            with socket.create_connection((host, int(port))) as sock:
                body = json.dumps({"type": "crawl.page", "id": "j", "webhookId": f"w{number}", "data": []}).encode()
                sock.sendall(
                    b"POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s"
                    % (len(body), body)
                )
                while sock.recv(4096):
                    pass

    async def burst() -> None:
        server = WebhookListener(Inbox(None))
        address = await server.start()
        await asyncio.to_thread(post_all, address)
        await server.close()

    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        asyncio.run(burst())
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage if type(o).__name__ == "_SelectorSocketTransport"]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == []
