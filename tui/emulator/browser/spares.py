"""Pre-started code runners, so an execution does not wait for interpreter start-up.

Most of a one-line execution is start-up: Python importing Playwright and
starting its Node.js driver (~0.5 s here), or Node.js loading playwright-core
(~0.3 s). A spare runner has done that already and waits on stdin for its one
job (which browser, which code, where to write the result). Each spare serves
exactly one execution and is replaced afterwards: nothing is reused between
executions or sessions, it is only started earlier. At most one spare per
language is kept (Python's costs ~100 MB with its driver, Node's ~50 MB), and
only for languages that have been used.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

from tui.emulator.browser import process

log = logging.getLogger(__name__)

SpawnSpare = Callable[[str], Awaitable[asyncio.subprocess.Process]]


class SpareRunners:
    """At most one waiting runner per language, each used once."""

    def __init__(self, spawn: SpawnSpare) -> None:
        self._spawn = spawn
        self._ready: dict[str, asyncio.subprocess.Process] = {}
        self._starting: dict[str, asyncio.Task[None]] = {}
        self._closed = False

    def take(self, language: str) -> asyncio.subprocess.Process | None:
        """The waiting runner for `language`, if there is a live one (it is no longer spare)."""
        proc = self._ready.pop(language, None)
        if proc is not None and proc.returncode is not None:
            process.unregister(proc.pid)  # died while waiting: start cold instead
            return None
        return proc

    def refill(self, language: str) -> None:
        """Start a spare for `language` in the background unless one exists or is starting."""
        if self._closed or language in self._ready or language in self._starting:
            return
        self._starting[language] = asyncio.create_task(self._start(language), name=f"spare-{language}")

    async def _start(self, language: str) -> None:
        try:
            proc = await self._spawn(language)
        except Exception:  # noqa: BLE001 - a spare is an optimisation; executions start cold instead
            log.warning("could not pre-start a %s runner", language, exc_info=True)
            return
        finally:
            self._starting.pop(language, None)
        if self._closed:
            await process.stop_process_group(proc, grace=0)
        else:
            self._ready[language] = proc

    async def close(self) -> None:
        """Stop every spare (and any being started)."""
        self._closed = True
        for task in list(self._starting.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        spares, self._ready = list(self._ready.values()), {}
        for proc in spares:
            await process.stop_process_group(proc, grace=0)


async def hand_job(proc: asyncio.subprocess.Process, cwd: Path, env: dict[str, str]) -> None:
    """Give a spare runner its job: one JSON line on stdin, then EOF (the code's stdin is empty)."""
    assert proc.stdin is not None
    proc.stdin.write(json.dumps({"cwd": str(cwd), "env": env}).encode() + b"\n")
    with contextlib.suppress(ConnectionError):
        await proc.stdin.drain()
    proc.stdin.close()
