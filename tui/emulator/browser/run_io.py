"""What a run sends back: its output streams, capped, and its outcome on a pipe of its own.

A run's working directory is a tmpfs of its sandbox, gone with it, so the
runner cannot leave its outcome in a file for the emulator: it writes one JSON
object (`result`, `error`) to fd 3, the write end of a pipe whose read end the
emulator holds (`Pipe`). `run_error` turns what came back, and how the run
ended, into the one error message the caller sees.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os


async def read_capped(stream: asyncio.StreamReader, limit: int) -> tuple[bytes, bool]:
    """Everything the stream yields, keeping at most `limit` bytes; (kept, whether some was dropped)."""
    kept = bytearray()
    truncated = False
    while chunk := await stream.read(64 * 1024):
        room = limit - len(kept)
        if len(chunk) > room:
            truncated = True
            kept += chunk[: max(room, 0)]
        else:
            kept += chunk
    return bytes(kept), truncated


class Pipe:
    """A pipe whose write end a child gets (`write_fd`) and whose read end this process reads once."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd: int | None = read_fd
        self.write_fd: int | None = write_fd
        self._transport: asyncio.ReadTransport | None = None

    @classmethod
    def open(cls) -> Pipe:
        return cls(*os.pipe())

    def close_write_end(self) -> None:
        """Once the child holds its copy: the read end then ends when the child's copies close."""
        if self.write_fd is not None:
            os.close(self.write_fd)
            self.write_fd = None

    async def read(self, limit: int) -> tuple[bytes, bool]:
        """What the child wrote, up to `limit` bytes, once every write end is closed."""
        assert self.read_fd is not None and self.write_fd is None
        fd, self.read_fd = self.read_fd, None
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        self._transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", 0)
        )
        try:
            return await read_capped(reader, limit)
        finally:
            self.close()

    def close(self) -> None:
        self.close_write_end()
        if self._transport is not None:
            self._transport.close()
            self._transport = None
        if self.read_fd is not None:
            os.close(self.read_fd)
            self.read_fd = None


def reported_outcome(data: bytes) -> dict[str, str | None]:
    """The runner's JSON outcome (`result`, `error` as strings), the last line written; empty when
    it never wrote one (code may write to fd 3 too: only the runner's last line counts)."""
    for line in reversed(data.decode("utf-8", errors="replace").splitlines()):
        with contextlib.suppress(ValueError):
            parsed = json.loads(line)
            if isinstance(parsed, dict):
                return {key: (str(parsed[key]) if parsed.get(key) is not None else None) for key in ("result", "error")}
    return {}


def run_error(
    reported: str | None,
    killed: bool,
    exit_code: int | None,
    stderr: str,
    timeout: float,
    ended_by: str | None,
    limits_hit: list[str],
) -> str | None:
    """The observed service's rule: the exception's message, else why it stopped; and the
    sandbox limits it ran into (`Confinement.limits_hit`), which explain a kill nobody asked for."""
    error = _stop_reason(reported, killed, exit_code, stderr, timeout, ended_by)
    if limits_hit and not reported and not killed and exit_code:
        return f"The run was killed: it reached its {' and its '.join(limits_hit)}."
    if limits_hit and error:
        return f"{error} (the run reached its {' and its '.join(limits_hit)})"
    return error


def _stop_reason(
    reported: str | None, killed: bool, exit_code: int | None, stderr: str, timeout: float, ended_by: str | None
) -> str | None:
    if ended_by:
        return ended_by
    if reported:
        return reported
    if killed:
        return f"Execution timed out after {timeout:g} s and was killed."
    if exit_code:
        last_lines = [line for line in stderr.strip().splitlines() if line.strip()]
        return last_lines[-1][:500] if last_lines else "Execution failed"
    return None
