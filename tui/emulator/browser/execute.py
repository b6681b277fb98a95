"""Running user code against a session's browser, in a separate process group.

Each execution is a fresh process (nothing is shared between calls or
sessions except the browser itself), in its own working directory, inside a
bubblewrap sandbox where that directory is all it may write (`sandbox.py`);
a python or node process may have been started
ahead of time (`spares.py`), but it serves this one execution only.
`python` and `node` get a ready Playwright `page`
(see `runner_python.py`, `runner_node.js`); `bash` gets the browser's address
in AGENT_BROWSER_CDP / CDP_URL and an `agent-browser` command on PATH.

Output: stdout and stderr are each kept up to `output_limit` bytes (1 MiB by
default); the rest is read and dropped, and `truncated` says so. A timeout
kills the whole group (`killed`), and with it the sandbox's PID namespace:
processes the code detached (`setsid`, a double fork) end with the execution. Where the time goes for a one-line
`page.title()`: see `tests/benchmarks/bench_browser.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from tui.emulator.browser import process
from tui.emulator.browser.backend import BrowserUnavailable, ExecutionOutcome
from tui.emulator.browser.sandbox import Sandbox
from tui.emulator.browser.spares import SpareRunners, hand_job

LANGUAGES = ("python", "node", "bash")
OUTPUT_LIMIT_BYTES = 1024 * 1024
MIN_TIMEOUT, MAX_TIMEOUT = 1.0, 300.0
_PACKAGE_DIR = Path(__file__).resolve().parent
_DRAIN_AFTER_EXIT_SECONDS = 2.0
# Variables that look like credentials are not handed to user code.
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)


@dataclass(frozen=True)
class NodeRuntime:
    """A node binary and the playwright-core package it loads."""

    node: Path
    playwright_core: Path


def find_node_runtime() -> NodeRuntime | None:
    """The node and playwright-core shipped in the `playwright` wheel, else system node with
    a `playwright-core` it can `require`; None when neither exists."""
    try:
        from playwright._impl._driver import compute_driver_executable

        node, cli = compute_driver_executable()
        package = Path(cli).parent
        if Path(node).is_file() and (package / "index.js").is_file():
            return NodeRuntime(Path(node), package)
    except Exception:  # noqa: BLE001 - a wheel without a driver: try the system below
        pass
    system_node = shutil.which("node")
    if system_node is None:
        return None
    probe = subprocess.run(
        [system_node, "-p", "require('path').dirname(require.resolve('playwright-core/package.json'))"],
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )
    if probe.returncode != 0:
        return None
    return NodeRuntime(Path(system_node), Path(probe.stdout.strip()))


def clamp_timeout(timeout: float) -> float:
    """The contract's 1 to 300 s; callers validate, this only keeps the runner safe."""
    return min(max(float(timeout), MIN_TIMEOUT), MAX_TIMEOUT)


async def _read_capped(stream: asyncio.StreamReader, limit: int) -> tuple[bytes, bool]:
    """Everything the stream yields, keeping at most `limit` bytes."""
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


class CodeRunner:
    """Runs code for sessions; owns the runners' scratch space under `root`.

    With `prewarm` (the default), a spare runner per used language is started
    ahead of the next execution (see `spares.py`).
    """

    def __init__(
        self,
        root: Path,
        *,
        output_limit: int = OUTPUT_LIMIT_BYTES,
        python: str | None = None,
        prewarm: bool = True,
        sandbox: Sandbox | None = None,
    ) -> None:
        self.root = root
        self.output_limit = output_limit
        self.python = python or sys.executable
        self.prewarm = prewarm
        self.sandbox = sandbox if sandbox is not None else Sandbox(None)
        self._runs = root / "runs"
        self._bin = root / "bin"
        self._compile_cache = root / "node-compile-cache"
        self._spare_dirs: dict[int, Path] = {}
        self.spares = SpareRunners(self._spawn_spare)

    @cached_property
    def node_runtime(self) -> NodeRuntime | None:
        return find_node_runtime()

    def _prepare(self) -> None:
        if self._bin.is_dir():
            return
        self._runs.mkdir(parents=True, exist_ok=True)
        self._compile_cache.mkdir(parents=True, exist_ok=True)
        self._bin.mkdir(parents=True, exist_ok=True)
        wrapper = self._bin / "agent-browser"
        script = _PACKAGE_DIR / "agent_browser.py"
        wrapper.write_text(f'#!/bin/sh\nexec "{self.python}" "{script}" "$@"\n', encoding="utf-8")
        wrapper.chmod(0o755)

    def _base_environment(self, language: str) -> dict[str, str]:
        """What every runner of `language` gets, whatever it runs."""
        env = {name: value for name, value in os.environ.items() if not _SECRET_NAME.search(name)}
        env.update(
            PATH=f"{self._bin}{os.pathsep}{os.environ.get('PATH', os.defpath)}",
            PYTHONUNBUFFERED="1",
            NODE_NO_WARNINGS="1",
        )
        if not self.sandbox.isolated:
            # Playwright's driver is node too: both start ~0.1 s faster with a warm cache. Sandboxed
            # runners get none: a cache every session can write would let one session's code run in another's.
            env["NODE_COMPILE_CACHE"] = str(self._compile_cache)
        if language == "node":
            env["WDS_PLAYWRIGHT_CORE"] = str(self._node().playwright_core)
        return env

    @staticmethod
    def _job_environment(ws_endpoint: str, run_dir: Path) -> dict[str, str]:
        """What one execution adds: which browser, which code, where the outcome goes."""
        return {
            "WDS_CDP_ENDPOINT": ws_endpoint,
            "CDP_URL": ws_endpoint,
            "AGENT_BROWSER_CDP": ws_endpoint,
            "WDS_CODE_FILE": str(run_dir / "code"),
            "WDS_RESULT_FILE": str(run_dir / "result.json"),
        }

    def _node(self) -> NodeRuntime:
        runtime = self.node_runtime
        if runtime is None:
            raise BrowserUnavailable(
                "Node.js execution is not available: the `playwright` package ships no Node.js here and no "
                "system `node` with `playwright-core` was found (`npm install -g playwright-core`)."
            )
        return runtime

    def _command(self, language: str, run_dir: Path) -> list[str]:
        if language == "python":
            return [self.python, "-u", str(_PACKAGE_DIR / "runner_python.py")]
        if language == "node":
            return [str(self._node().node), "--expose-internals", str(_PACKAGE_DIR / "runner_node.js")]
        if language == "bash":
            shell = shutil.which("bash") or "/bin/sh"
            return [shell, str(run_dir / "code")]
        raise ValueError(f"Unknown language {language!r}: use one of {', '.join(LANGUAGES)}.")

    async def _spawn(
        self, command: list[str], cwd: Path, env: dict[str, str], *, spare: bool = False
    ) -> asyncio.subprocess.Process:
        # The run's scratch dir is all the runner may write; it sees the agent-browser wrapper too.
        command = self.sandbox.wrap(command, writable=[cwd], readable=[self._bin], cwd=cwd)
        proc = await asyncio.create_subprocess_exec(
            *command,
            cwd=cwd,
            env=env,
            stdin=asyncio.subprocess.PIPE if spare else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            **process.spawn_options(),
        )
        process.register(proc.pid)
        return proc

    async def _spawn_spare(self, language: str) -> asyncio.subprocess.Process:
        """A runner that waits for its job, in the scratch dir (and sandbox) that job will use."""
        self._prepare()
        run_dir = self._new_run_dir()
        env = {**self._base_environment(language), "WDS_RUNNER_SPARE": "1"}
        try:
            proc = await self._spawn(self._command(language, run_dir), run_dir, env, spare=True)
        except BaseException:
            shutil.rmtree(run_dir, ignore_errors=True)
            raise
        self._spare_dirs[proc.pid] = run_dir
        return proc

    def _new_run_dir(self) -> Path:
        run_dir = self._runs / uuid.uuid4().hex
        run_dir.mkdir(parents=True)
        return run_dir

    async def run(self, ws_endpoint: str, code: str, language: str, timeout: float) -> ExecutionOutcome:
        """Run `code` against the browser at `ws_endpoint`; never raises for what the code does."""
        self._prepare()
        self._command(language, self._runs)  # unknown language / no node: refused before anything runs
        warm = self.prewarm and language != "bash"
        proc = self.spares.take(language) if warm else None
        run_dir = self._spare_dirs.pop(proc.pid) if proc is not None else self._new_run_dir()
        command = self._command(language, run_dir)
        try:
            (run_dir / "code").write_text(code, encoding="utf-8")
            job_env = self._job_environment(ws_endpoint, run_dir)
            started = time.perf_counter()
            if proc is not None:
                try:
                    await hand_job(proc, run_dir, job_env)
                except BaseException:  # cancelled mid-handover: the spare must not linger
                    process.signal_group(proc.pid, signal.SIGKILL)
                    process.unregister(proc.pid)
                    raise
            else:
                proc = await self._spawn(command, run_dir, {**self._base_environment(language), **job_env})
            try:
                return await self._collect(proc, run_dir, clamp_timeout(timeout), started)
            finally:
                if warm:
                    self.spares.refill(language)
        finally:
            shutil.rmtree(run_dir, ignore_errors=True)

    async def close(self) -> None:
        """Stop the spare runners."""
        await self.spares.close()

    async def _collect(
        self, proc: asyncio.subprocess.Process, run_dir: Path, timeout: float, started: float
    ) -> ExecutionOutcome:
        """Wait for the runner (or kill it at the timeout) and gather what it produced."""
        assert proc.stdout is not None and proc.stderr is not None
        readers = (
            asyncio.ensure_future(_read_capped(proc.stdout, self.output_limit)),
            asyncio.ensure_future(_read_capped(proc.stderr, self.output_limit)),
        )
        try:
            killed = not await process.wait_exit(proc, timeout)
        finally:
            # Kill the whole group even after a normal exit: background children
            # of the code (`sleep 100 &`) would otherwise hold the pipes open.
            process.signal_group(proc.pid, signal.SIGKILL)
            await process.wait_exit(proc, None)
            process.unregister(proc.pid)
        duration_ms = (time.perf_counter() - started) * 1000
        done, pending = await asyncio.wait(readers, timeout=_DRAIN_AFTER_EXIT_SECONDS)
        for reader in pending:  # a descendant escaped the group and holds a pipe
            reader.cancel()
        (stdout, out_cut), (stderr, err_cut) = [
            reader.result() if reader in done else (b"", True) for reader in readers
        ]
        reported = self._reported(run_dir)
        exit_code = None if killed else proc.returncode
        stderr_text = stderr.decode("utf-8", errors="replace")
        return ExecutionOutcome(
            stdout=stdout.decode("utf-8", errors="replace"),
            stderr=stderr_text,
            exit_code=exit_code,
            killed=killed,
            error=self._error(reported.get("error"), killed, exit_code, stderr_text, timeout),
            result=reported.get("result"),
            truncated=out_cut or err_cut,
            duration_ms=duration_ms,
        )

    @staticmethod
    def _reported(run_dir: Path) -> dict[str, str | None]:
        """What the runner wrote about the code; empty when it never got that far."""
        with contextlib.suppress(OSError, ValueError):
            data = json.loads((run_dir / "result.json").read_text(encoding="utf-8"))
            if isinstance(data, dict):
                return {key: (str(data[key]) if data.get(key) is not None else None) for key in ("result", "error")}
        return {}

    @staticmethod
    def _error(reported: str | None, killed: bool, exit_code: int | None, stderr: str, timeout: float) -> str | None:
        """The observed service's rule: the exception's message, else why it stopped."""
        if reported:
            return reported
        if killed:
            return f"Execution timed out after {timeout:g} s and was killed."
        if exit_code:
            last_lines = [line for line in stderr.strip().splitlines() if line.strip()]
            return last_lines[-1][:500] if last_lines else "Execution failed"
        return None
