"""A real HTTP server on a real socket that answers the way a hostile or broken service would.

Only what the emulator must never do lives here: bombs, endless or huge bodies,
JSON nested past any parser, broken compression, answers missing their fields.
An ordinary faulty service (a 503, a 429, a long latency, a trickling body, a
reset) is the emulator with fault rules: tests/support/faulty_emulator.py.

The first segment of the path picks the behaviour, so one server serves them
all: a client made with base URL `http://127.0.0.1:PORT/deep` meets the
deep JSON on every call (`/deep/v2/team/activity`, `/deep/v2/map`, ...).

- `deep`: a 200 whose JSON is nested 100,000 levels deep.
- `bomb`: a 200 with `Content-Encoding: gzip` that inflates to `BOMB_BYTES`.
- `deflatebomb`: a 200 with `Content-Encoding: deflate`, half a megabyte
  that inflates to `DEFLATE_BOMB_BYTES` of zeros.
- `cutgzip`: the `ok` answer gzipped without the stream's last bytes (its
  checksum and length), so the JSON inflated is whole but the stream is not.
- `huge`: a 200 without a length that sends `BOMB_BYTES` of spaces as they are.
- `spaces`: the same with `SPACES_BYTES`, under the cap of a map of 20,000 links.
- `bigmap`: a valid map of `BIG_MAP_LINKS` long links, 6 MiB: more than any
  answer but a map may be.
- `nolinks`: a 200 `{"success": true}`: every required list missing.
- `gzip`, `deflate`, `rawdeflate`: the `ok` answer compressed (deflate as
  the standard says, zlib-wrapped, and raw as some servers send it).
- `ok`: valid, empty answers (`links`, `data`, ...).

Run in a thread with its own event loop (`HostileServer.start()` as a context
manager), so sync tests, async tests and child processes can all use it.
"""

from __future__ import annotations

import asyncio
import json
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

BOMB_BYTES = 200 * 1024 * 1024
DEFLATE_BOMB_BYTES = 500 * 1024 * 1024
SPACES_BYTES = 40 * 1024 * 1024
DEEP_LEVELS = 100_000
OK_BODY = {"success": True, "links": [], "data": [], "cursor": None, "has_more": False, "crawls": []}


@cache
def gzip_bomb() -> bytes:
    """`BOMB_BYTES` of spaces, gzipped (about 200 KB), made once per process."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    block = b" " * (1024 * 1024)
    parts = [packer.compress(block) for _ in range(BOMB_BYTES // len(block))]
    parts.append(packer.flush())
    return b"".join(parts)


@cache
def deflate_bomb() -> bytes:
    """`DEFLATE_BOMB_BYTES` of zeros, deflated as the standard says (zlib-wrapped): about 0.5 MB."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS)
    block = bytes(1024 * 1024)
    parts = [packer.compress(block) for _ in range(DEFLATE_BOMB_BYTES // len(block))]
    parts.append(packer.flush())
    return b"".join(parts)


BIG_MAP_LINKS = 6_000


@cache
def big_map() -> bytes:
    links = [{"url": f"https://example.com/{n:06d}/" + "a" * 1_000, "title": f"page {n}"} for n in range(BIG_MAP_LINKS)]
    return json.dumps({"success": True, "links": links, "data": links}).encode()


def _head(status: str, headers: dict[str, str]) -> bytes:
    lines = [f"HTTP/1.1 {status}", *(f"{name}: {value}" for name, value in headers.items()), "", ""]
    return "\r\n".join(lines).encode()


def _json_answer(body: bytes) -> bytes:
    headers = {"Content-Type": "application/json", "Content-Length": str(len(body)), "Connection": "close"}
    return _head("200 OK", headers) + body


class HostileServer:
    """The server; `base_url(behaviour)` is the base URL a client uses to meet that behaviour."""

    def __init__(self) -> None:
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.Server | None = None

    def base_url(self, behaviour: str) -> str:
        return f"http://127.0.0.1:{self.port}/{behaviour}"

    @classmethod
    @contextmanager
    def start(cls) -> Iterator[HostileServer]:
        """Serve on a free port in a thread until the block ends."""
        server = cls()
        ready = threading.Event()
        thread = threading.Thread(target=server._run, args=(ready,), name="hostile-server", daemon=True)
        thread.start()
        if not ready.wait(10):
            raise RuntimeError("the hostile server did not start")
        try:
            yield server
        finally:
            assert server._loop is not None
            server._loop.call_soon_threadsafe(server._loop.stop)
            thread.join(10)

    def _run(self, ready: threading.Event) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)  # this thread's own
        self._loop = loop
        self._server = loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        ready.set()
        try:
            loop.run_forever()
        finally:
            self._server.close()
            # connections still being served (a huge body) end now, inside the loop
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            request_line, *header_lines = head.decode("latin-1").split("\r\n")
            length = 0
            for line in header_lines:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            if length:
                await reader.readexactly(length)
            path = request_line.split(" ")[1]
            await self._answer(path.split("/")[1], writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the client gave up: what a hostile server hopes for
        except asyncio.CancelledError:
            pass  # the server is stopping; ending quietly spares asyncio's stream callback a traceback
        finally:
            writer.close()

    async def _answer(self, behaviour: str, writer: asyncio.StreamWriter) -> None:
        if behaviour == "deep":
            nested = b"[" * DEEP_LEVELS + b"]" * DEEP_LEVELS
            writer.write(_json_answer(b'{"success": true, "links": ' + nested + b', "data": ' + nested + b"}"))
        elif behaviour in ("bomb", "deflatebomb"):
            bomb, encoding = (gzip_bomb(), "gzip") if behaviour == "bomb" else (deflate_bomb(), "deflate")
            headers = {
                "Content-Type": "application/json",
                "Content-Encoding": encoding,
                "Content-Length": str(len(bomb)),
                "Connection": "close",
            }
            writer.write(_head("200 OK", headers))
            await self._send_in_chunks(writer, bomb)
        elif behaviour == "cutgzip":
            packer = zlib.compressobj(6, zlib.DEFLATED, zlib.MAX_WBITS | 16)
            body = (packer.compress(json.dumps(OK_BODY).encode()) + packer.flush())[:-8]  # CRC32 and size cut
            headers = {"Content-Encoding": "gzip", "Content-Length": str(len(body)), "Connection": "close"}
            writer.write(_head("200 OK", headers) + body)
        elif behaviour in ("huge", "spaces"):
            writer.write(_head("200 OK", {"Content-Type": "application/json", "Connection": "close"}))
            block = b" " * (1024 * 1024)
            for _ in range((BOMB_BYTES if behaviour == "huge" else SPACES_BYTES) // len(block)):
                writer.write(block)
                await writer.drain()
        elif behaviour in ("gzip", "deflate", "rawdeflate"):
            wbits = {"gzip": zlib.MAX_WBITS | 16, "deflate": zlib.MAX_WBITS, "rawdeflate": -zlib.MAX_WBITS}[behaviour]
            packer = zlib.compressobj(6, zlib.DEFLATED, wbits)
            body = packer.compress(json.dumps(OK_BODY).encode()) + packer.flush()
            encoding = "gzip" if behaviour == "gzip" else "deflate"
            headers = {"Content-Encoding": encoding, "Content-Length": str(len(body)), "Connection": "close"}
            writer.write(_head("200 OK", headers) + body)
        elif behaviour == "bigmap":
            writer.write(_json_answer(big_map()))
        elif behaviour == "nolinks":
            writer.write(_json_answer(b'{"success": true}'))
        else:
            writer.write(_json_answer(json.dumps(OK_BODY).encode()))
        await writer.drain()

    @staticmethod
    async def _send_in_chunks(writer: asyncio.StreamWriter, data: bytes) -> None:
        for start in range(0, len(data), 64 * 1024):
            writer.write(data[start : start + 64 * 1024])
            await writer.drain()
