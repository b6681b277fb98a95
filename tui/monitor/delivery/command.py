"""The operator's own command, run for each alert: the notice as JSON on stdin, a time limit, capped output.

The command is an argv list, never a shell line: a host name in an alert cannot
become a second command. It runs in its own process group, so a time limit
kills what it started too (a `sh -c` and its children), not only itself. Its
stdout and stderr are read up to a cap and the rest is drained, so a chatty
command neither fills the memory nor blocks on a full pipe.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from dataclasses import dataclass
from enum import StrEnum

DEFAULT_TIMEOUT = 10.0
"""Seconds a command may run."""
DEFAULT_OUTPUT_CAP = 8192
"""Bytes of stdout and of stderr kept."""


class CommandResult(StrEnum):
    """How a run ended."""

    OK = "ok"
    EXIT_CODE = "exit code"
    TIMED_OUT = "timed out"
    NOT_FOUND = "not found"


@dataclass(frozen=True)
class CommandOutcome:
    """One run of the command: how it ended, its exit code, what it printed (capped) and how long it took."""

    result: CommandResult
    program: str
    returncode: int | None = None
    stdout: bytes = b""
    stderr: bytes = b""
    seconds: float = 0.0
    problem: str = ""

    @property
    def ok(self) -> bool:
        return self.result is CommandResult.OK

    @property
    def message(self) -> str:
        """One line for a log or a toast."""
        if self.result is CommandResult.OK:
            return f"alert command {self.program} ran in {self.seconds:.1f} s"
        if self.result is CommandResult.EXIT_CODE:
            said = _first_line(self.stderr) or _first_line(self.stdout)
            return f"alert command {self.program} exited with {self.returncode}" + (f": {said}" if said else "")
        if self.result is CommandResult.TIMED_OUT:
            return f"alert command {self.program} was stopped after {self.seconds:.1f} s (its time limit)"
        return f"alert command {self.program} could not be started: {self.problem}"


def _first_line(output: bytes) -> str:
    text = output.decode("utf-8", "replace").strip()
    line = text.splitlines()[0] if text else ""
    return "".join(ch for ch in line if ch.isprintable())[:200]


async def _read_capped(stream: asyncio.StreamReader | None, cap: int) -> bytes:
    """At most `cap` bytes of `stream`; whatever follows is read and thrown away until it ends."""
    if stream is None:
        return b""
    kept = bytearray()
    while chunk := await stream.read(65536):
        if len(kept) < cap:
            kept += chunk[: cap - len(kept)]
    return bytes(kept)


def _kill_group(process: asyncio.subprocess.Process) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # it ended on its own between the time limit and here


async def run_command(
    argv: list[str], stdin: bytes, *, timeout: float = DEFAULT_TIMEOUT, output_cap: int = DEFAULT_OUTPUT_CAP
) -> CommandOutcome:
    """Run `argv` with `stdin` on its standard input; never raises for what the command does."""
    program = os.path.basename(argv[0]) if argv else "(none)"
    if not argv:
        return CommandOutcome(CommandResult.NOT_FOUND, program, problem="no command is configured")
    started = time.monotonic()
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,  # its own process group, which the time limit kills whole
        )
    except (FileNotFoundError, PermissionError, NotADirectoryError) as error:
        return CommandOutcome(CommandResult.NOT_FOUND, program, problem=error.strerror or str(error))

    async def feed() -> None:
        assert process.stdin is not None
        try:
            process.stdin.write(stdin)
            await process.stdin.drain()
            process.stdin.close()
        except (BrokenPipeError, ConnectionResetError):
            pass  # a command that reads nothing is free to close its stdin

    async def converse() -> tuple[bytes, bytes]:
        _, out, err = await asyncio.gather(
            feed(), _read_capped(process.stdout, output_cap), _read_capped(process.stderr, output_cap)
        )
        await process.wait()
        return out, err

    try:
        out, err = await asyncio.wait_for(converse(), timeout)
    except TimeoutError:
        _kill_group(process)
        await process.wait()
        return CommandOutcome(CommandResult.TIMED_OUT, program, process.returncode, seconds=time.monotonic() - started)
    except asyncio.CancelledError:
        _kill_group(process)
        raise
    seconds = time.monotonic() - started
    result = CommandResult.OK if process.returncode == 0 else CommandResult.EXIT_CODE
    return CommandOutcome(result, program, process.returncode, out, err, seconds)
