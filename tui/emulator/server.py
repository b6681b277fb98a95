"""Serving the emulator on uvicorn: blocking, embedded in an event loop, or in a thread.

All three bind the socket themselves (port 0 picks a free port, and the real
one is known before the first request), start the emulator's background
loops once the server listens, and stop them and close every browser on exit.

The emulator runs code in browsers for anyone who can reach it, so binding a
non-loopback address is refused unless the caller opts in with `allow_remote`.

Slow or idle clients: a request's head must arrive within `header_timeout`
(10 s, `header_deadline`), from a new connection's opening too, an idle
kept-alive connection is closed after `KEEP_ALIVE_SECONDS`, a request head is
at most 16 KB, and a body at most 10 MB (`http.body_limit`). One client address
may hold at most `max_connections_per_client` connections (256,
`header_deadline`); one more is answered 503 at once. uvicorn's
`limit_concurrency` is left off: it counts every address's idle connections
together, so a few hundred idle sockets would turn every other caller away.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import threading
from collections.abc import AsyncIterator, Callable, Generator
from types import TracebackType

import uvicorn

from tui.contract.loopback import is_loopback
from tui.emulator.header_deadline import (
    HEADER_MAX_BYTES,
    HEADER_TIMEOUT_SECONDS,
    MAX_CONNECTIONS_PER_CLIENT,
    HeaderDeadlineProtocol,
)
from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator

KEEP_ALIVE_SECONDS = 75
GRACEFUL_SHUTDOWN_SECONDS = 3
STARTUP_TIMEOUT_SECONDS = 10.0


class RemoteBindRefused(ValueError):
    """Binding a non-loopback address without `allow_remote`."""


def check_host(host: str, allow_remote: bool) -> None:
    """Refuse a non-loopback host unless `allow_remote` (raises `RemoteBindRefused`)."""
    if not allow_remote and not is_loopback(host):
        raise RemoteBindRefused(
            f"Refusing to listen on {host}: the emulator runs code in browsers for anyone who can reach it, "
            "so it binds loopback addresses only. Pass --allow-remote (allow_remote=True) if you really "
            "want it reachable from other machines."
        )


def bind_socket(host: str, port: int) -> socket.socket:
    """A bound (not yet listening) TCP socket for `host`:`port`; `OSError` says why not."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


def base_url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


class _EmbeddedServer(uvicorn.Server):
    """A uvicorn server that leaves signal handling to its host program."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


def _server_for(
    emulator: Emulator,
    header_timeout: float = HEADER_TIMEOUT_SECONDS,
    max_connections_per_client: int | None = MAX_CONNECTIONS_PER_CLIENT,
) -> _EmbeddedServer:
    config = uvicorn.Config(
        create_app(emulator),
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        # Pollers come back every 5-60 s; uvicorn's 5 s default closed their
        # connections just before each poll, so every poll paid for a new one.
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        # uvicorn has no header-read timeout or per-address cap of its own (see header_deadline).
        http=HeaderDeadlineProtocol.configured(header_timeout, max_connections_per_client),
        h11_max_incomplete_event_size=HEADER_MAX_BYTES,
    )
    return _EmbeddedServer(config)


@contextlib.asynccontextmanager
async def running(
    emulator: Emulator,
    host: str = "127.0.0.1",
    port: int = 0,
    allow_remote: bool = False,
    sock: socket.socket | None = None,
    header_timeout: float = HEADER_TIMEOUT_SECONDS,
    max_connections_per_client: int | None = MAX_CONNECTIONS_PER_CLIENT,
) -> AsyncIterator[str]:
    """Serve `emulator` in the current event loop while the block runs; yields the base URL.

    `sock`: a socket bound (and maybe listening) already, e.g. handed over by a
    parent process; `host` and `port` are then ignored. `header_timeout`: seconds
    a client has to send a request's head before its connection is closed.
    `max_connections_per_client`: open connections one address may hold (None: no cap).
    """
    if sock is None:
        check_host(host, allow_remote)
        sock = bind_socket(host, port)
    url = base_url_of(sock)
    server = _server_for(emulator, header_timeout, max_connections_per_client)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        async with asyncio.timeout(STARTUP_TIMEOUT_SECONDS):
            while not server.started:
                if task.done():
                    task.result()  # surfaces the startup failure
                    raise RuntimeError("the emulator's server stopped during startup")
                await asyncio.sleep(0.01)
        emulator.start_background()
        yield url
    finally:
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError, SystemExit):
            await task
        await emulator.aclose()
        sock.close()


def serve(
    emulator: Emulator,
    host: str = "127.0.0.1",
    port: int = 0,
    allow_remote: bool = False,
    on_ready: Callable[[str], None] | None = None,
    sock: socket.socket | None = None,
) -> None:
    """Serve until SIGINT/SIGTERM (blocking). `on_ready(base_url)` runs once the socket listens.

    `sock`: serve on this already bound socket instead of binding `host`:`port`.
    """

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        async with running(emulator, host, port, allow_remote, sock) as url:
            if on_ready is not None:
                on_ready(url)
            await stop.wait()

    if sock is None:
        check_host(host, allow_remote)
    asyncio.run(main())


class ServerThread:
    """The emulator served from a background thread, for synchronous tests and tools.

    `with ServerThread(emulator) as base_url: ...` or `start()` / `stop()`.
    """

    def __init__(
        self,
        emulator: Emulator,
        host: str = "127.0.0.1",
        port: int = 0,
        allow_remote: bool = False,
        header_timeout: float = HEADER_TIMEOUT_SECONDS,
        max_connections_per_client: int | None = MAX_CONNECTIONS_PER_CLIENT,
    ):
        self.emulator = emulator
        self._host, self._port, self._allow_remote = host, port, allow_remote
        self._header_timeout = header_timeout
        self._max_connections_per_client = max_connections_per_client
        self.base_url: str | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def start(self) -> str:
        """Start serving and return the base URL (raises whatever prevented startup)."""
        check_host(self._host, self._allow_remote)
        self._thread = threading.Thread(target=self._run, name="wds-emulator", daemon=True)
        self._thread.start()
        if not self._ready.wait(STARTUP_TIMEOUT_SECONDS):
            raise TimeoutError("the emulator did not start within 10 s")
        if self._error is not None:
            raise self._error
        assert self.base_url is not None
        return self.base_url

    def stop(self) -> None:
        """Stop serving, close browsers, and wait for the thread to end."""
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(STARTUP_TIMEOUT_SECONDS)
        self._thread = None

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # reported to start(); the thread must not die silently
            self._error = exc
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        async with running(
            self.emulator,
            self._host,
            self._port,
            self._allow_remote,
            header_timeout=self._header_timeout,
            max_connections_per_client=self._max_connections_per_client,
        ) as url:
            self.base_url = url
            self._ready.set()
            await self._stop.wait()

    def __enter__(self) -> str:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
