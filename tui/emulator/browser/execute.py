"""Running user code against a session's browser, in a sandbox of its own.

Each execution is a fresh process (nothing is shared between calls or
sessions except the browser itself) in a bubblewrap sandbox (`sandbox.py`)
with the limits of a run (`limits.py`): its working directory and `/tmp` are
size-capped tmpfs mounts of its own, and the rest it sees is read-only. A
python or node process may have been started ahead of time (`spares.py`), but
it serves this one execution only. `python` and `node` get a ready Playwright
`page` (see `runner_python.py`, `runner_node.js`); `bash` gets the browser's
address in AGENT_BROWSER_CDP / CDP_URL and an `agent-browser` command on PATH.

What a run gets from the host is a control directory, read-only inside at
`/run/wds`: the code, and once the job is known the unix socket of its
session's gateway (`CdpGateway.serve_run`), which `cdp_forward.py` offers on
the sandbox's own 127.0.0.1. The runner reports its outcome (`result`,
`error`) as JSON on fd 3. Without bubblewrap, runs see the host's paths and
reach the gateway on the host's loopback with the session's token.

Output: stdout and stderr are each kept up to `output_limit` bytes (1 MiB by
default); the rest is read and dropped, and `truncated` says so. A timeout
kills the whole group (`killed`), and with it the sandbox's PID namespace:
processes the code detached (`setsid`, a double fork) end with the execution.
So does the end of the session (`end_session`). Where the time goes for a
one-line `page.title()`: see `tests/benchmarks/bench_browser.py`.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import sys
import time
import uuid
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from websockets.asyncio.server import Server

from tui.emulator.browser import process
from tui.emulator.browser.backend import BrowserUnavailable, ExecutionOutcome
from tui.emulator.browser.cdp_gateway import CdpGateway
from tui.emulator.browser.confinement import Confinement
from tui.emulator.browser.limits import SPARE_CPU_SECONDS, Kind, run_cpu_seconds
from tui.emulator.browser.node_runtime import NodeRuntime, NodeRuntimeMissing, find_node_runtime, node_paths
from tui.emulator.browser.run_io import Pipe, read_capped, reported_outcome, run_error
from tui.emulator.browser.sandbox import Sandbox
from tui.emulator.browser.spares import SpareRunners, hand_job

LANGUAGES = ("python", "node", "bash")
OUTPUT_LIMIT_BYTES = 1024 * 1024
MIN_TIMEOUT, MAX_TIMEOUT = 1.0, 300.0
FORWARD_PORT = 9222  # in the run's own network namespace: nothing else listens there
CONTROL_INSIDE = Path("/run/wds")
RESULT_FD = 3
# The last argument of a spare runner's command line (the runners ignore it): `ps` shows what it is.
SPARE_MARKER = "wds-spare-runner"
_PACKAGE_DIR = Path(__file__).resolve().parent
_DRAIN_AFTER_EXIT_SECONDS = 2.0
# Variables that look like credentials are not handed to user code.
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)

__all__ = ["LANGUAGES", "CodeRunner", "NodeRuntime", "clamp_timeout", "find_node_runtime"]


def clamp_timeout(timeout: float) -> float:
    """The contract's 1 to 300 s; callers validate, this only keeps the runner safe."""
    return min(max(float(timeout), MIN_TIMEOUT), MAX_TIMEOUT)


@dataclass(eq=False)  # kept in sets: each run is itself
class _Run:
    """One execution's process and what the host keeps for it."""

    language: str
    run_dir: Path  # the working directory (in a sandbox: a private tmpfs at that path)
    control: Path  # code and the gateway socket; read-only at /run/wds in a sandbox
    confinement: Confinement
    result: Pipe
    proc: asyncio.subprocess.Process | None = None
    endpoint: Server | None = None
    ended_by: str | None = None  # why the emulator stopped it before its end (not the timeout)
    tasks: set[asyncio.Task[object]] = field(default_factory=set)


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
        gateway: CdpGateway | None = None,
    ) -> None:
        self.root = root
        self.output_limit = output_limit
        self.python = python or sys.executable
        self.prewarm = prewarm
        self.sandbox = sandbox if sandbox is not None else Sandbox(None)
        self.gateway = gateway if gateway is not None else CdpGateway()
        self._runs = root / "runs"
        self._control = root / "control"
        self._bin = root / "bin"
        self._compile_cache = root / "node-compile-cache"
        self._spare_runs: dict[int, _Run] = {}
        self._active: dict[str, set[_Run]] = {}
        self._disposals: set[asyncio.Task[None]] = set()
        self.spares = SpareRunners(self._spawn_spare)

    @cached_property
    def node_runtime(self) -> NodeRuntime:
        """The node that runs node code, shown to the sandbox; `BrowserUnavailable` when there is none
        (not cached then: installing one needs no restart)."""
        try:
            runtime = find_node_runtime()
        except NodeRuntimeMissing as missing:
            raise BrowserUnavailable(f"Node.js execution is not available: {missing}.") from None
        self.sandbox.add_runtime(node_paths(runtime))
        return runtime

    def _prepare(self) -> None:
        if self._bin.is_dir():
            return
        for directory in (self._runs, self._control, self._compile_cache, self._bin):
            directory.mkdir(parents=True, exist_ok=True)
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
            WDS_RESULT_FD=str(RESULT_FD),
        )
        if not self.sandbox.isolated:
            # Playwright's driver is node too: both start ~0.1 s faster with a warm cache. Sandboxed
            # runners get none: a cache every session can write would let one session's code run in another's.
            env["NODE_COMPILE_CACHE"] = str(self._compile_cache)
        if language == "node":
            env["WDS_PLAYWRIGHT_CORE"] = str(self.node_runtime.playwright_core)
        return env

    def _job_environment(self, session_id: str, ws_endpoint: str, run: _Run) -> dict[str, str]:
        """What one execution adds: which browser and which code."""
        runner_endpoint = ws_endpoint
        if self.sandbox.own_network:
            ws_endpoint = f"ws://127.0.0.1:{FORWARD_PORT}/devtools/browser/{session_id}"
            # The runner itself skips the forwarder's hop: Playwright hands the URL to the `ws`
            # package, which speaks websocket over a unix socket given as ws+unix://PATH:REQUEST-PATH.
            runner_endpoint = f"ws+unix://{CONTROL_INSIDE / 'cdp.sock'}:/devtools/browser/{session_id}"
        return {
            "WDS_CDP_ENDPOINT": runner_endpoint,
            "CDP_URL": ws_endpoint,
            "AGENT_BROWSER_CDP": ws_endpoint,
            "WDS_CODE_FILE": str(self._inside(run) / "code"),
        }

    def _inside(self, run: _Run) -> Path:
        return CONTROL_INSIDE if self.sandbox.isolated else run.control

    def _command(self, language: str, code_file: Path) -> list[str]:
        if language == "python":
            return [self.python, "-u", str(_PACKAGE_DIR / "runner_python.py")]
        if language == "node":
            return [str(self.node_runtime.node), "--expose-internals", str(_PACKAGE_DIR / "runner_node.js")]
        if language == "bash":
            shell = shutil.which("bash") or "/bin/sh"
            return [shell, str(code_file)]
        raise ValueError(f"Unknown language {language!r}: use one of {', '.join(LANGUAGES)}.")

    def _new_run(self, language: str, cpu_seconds: float, *, spare: bool = False) -> _Run:
        """Directories, result pipe and sandbox of a run that has not started yet."""
        self._prepare()
        name = uuid.uuid4().hex[:16]
        run_dir, control = self._runs / name, self._control / name
        run_dir.mkdir(mode=0o755)
        control.mkdir(mode=0o755)
        command = self._command(language, CONTROL_INSIDE / "code" if self.sandbox.isolated else control / "code")
        if spare:
            command.append(SPARE_MARKER)  # what `ps` shows an operator wondering what this process is
        if self.sandbox.own_network:
            # The run's own 127.0.0.1:9222 leads to its session's browser (see cdp_forward.py).
            command = [
                self.python,
                "-I",
                "-S",
                str(_PACKAGE_DIR / "cdp_forward.py"),
                str(CONTROL_INSIDE / "cdp.sock"),
                str(FORWARD_PORT),
                "--",
                *command,
            ]
        confinement = self.sandbox.confine(
            command,
            kind=Kind.RUN,
            readable=[self._bin],
            mounts={control: CONTROL_INSIDE},
            private=[run_dir],
            cwd=run_dir,
            cpu_seconds=cpu_seconds,
        )
        return _Run(language, run_dir, control, confinement, Pipe.open())

    async def _spawn(self, run: _Run, env: dict[str, str], *, spare: bool) -> None:
        write_fd = run.result.write_fd
        assert write_fd is not None  # a run is spawned once, and its pipe's write end closed only after
        try:
            run.proc = await asyncio.create_subprocess_exec(
                *run.confinement.command,
                cwd=run.run_dir,
                env=env,
                stdin=asyncio.subprocess.PIPE if spare else asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                **run.confinement.spawn_options(fds={RESULT_FD: write_fd}),
            )
        finally:
            run.confinement.started()
            run.result.close_write_end()
        process.register(run.proc.pid)

    async def _spawn_spare(self, language: str) -> asyncio.subprocess.Process:
        """A runner that waits for its job, in the scratch dir (and sandbox) that job will use."""
        run = self._new_run(language, SPARE_CPU_SECONDS, spare=True)
        try:
            await self._spawn(run, {**self._base_environment(language), "WDS_RUNNER_SPARE": "1"}, spare=True)
        except BaseException:
            await self._dispose(run)
            raise
        assert run.proc is not None
        self._spare_runs[run.proc.pid] = run
        return run.proc

    async def run(
        self, session_id: str, ws_endpoint: str, code: str, language: str, timeout: float
    ) -> ExecutionOutcome:
        """Run `code` against `session_id`'s browser; never raises for what the code does."""
        self._command(language, self._control)  # unknown language / no node: refused before anything runs
        timeout = clamp_timeout(timeout)
        warm = self.prewarm and language != "bash"
        proc = self.spares.take(language) if warm else None
        await self._dispose_dead_spares()
        run = self._spare_runs.pop(proc.pid) if proc is not None else self._new_run(language, run_cpu_seconds(timeout))
        self._active.setdefault(session_id, set()).add(run)
        try:
            (run.control / "code").write_text(code, encoding="utf-8")
            run.confinement.give(run.control)
            if self.sandbox.own_network:
                socket = run.control / "cdp.sock"
                run.endpoint = await self.gateway.serve_run(session_id, socket)
                run.confinement.give(socket)
            job_env = self._job_environment(session_id, ws_endpoint, run)
            started = time.perf_counter()
            if run.proc is not None:
                await hand_job(run.proc, run.run_dir, job_env)
            else:
                await self._spawn(run, {**self._base_environment(language), **job_env}, spare=False)
            try:
                return await self._collect(run, timeout, started)
            finally:
                if warm:
                    self.spares.refill(language)
        finally:
            runs = self._active.get(session_id, set())
            runs.discard(run)
            if not runs:
                self._active.pop(session_id, None)
            await self._dispose(run)

    async def end_session(self, session_id: str, reason: str) -> None:
        """Kill every run of the session now (each returns as killed, with `reason` as its error),
        and finish cleaning up after the runs that have ended."""
        for run in list(self._active.get(session_id, ())):
            run.ended_by = reason
            if run.proc is not None:
                process.signal_group(run.proc.pid, signal.SIGKILL)
        await self.settle()

    async def settle(self) -> None:
        """Wait until every ended run's processes are gone and its cgroup and uid given back."""
        while self._disposals:
            await asyncio.gather(*list(self._disposals), return_exceptions=True)

    def spare_directories(self) -> set[Path]:
        """The directories of the spare runners waiting now (for tests and benchmarks)."""
        return {path for run in self._spare_runs.values() for path in (run.run_dir, run.control)}

    async def _dispose_dead_spares(self) -> None:
        """Clean up after spares that died while they waited (`SpareRunners.take` skips them)."""
        for pid, run in list(self._spare_runs.items()):
            if run.proc is not None and run.proc.returncode is not None:
                del self._spare_runs[pid]
                await self._dispose(run)

    async def close(self) -> None:
        """Stop the spare runners, and wait for every ended run's cleanup."""
        await self.spares.close()
        for run in list(self._spare_runs.values()):
            await self._dispose(run)
        self._spare_runs.clear()
        await self.settle()

    async def _dispose(self, run: _Run) -> None:
        """Kill what is left of the run and remove its socket, pipe and directories; its cgroup
        and uid are given back in the background, once every process of it is gone."""
        if run.proc is not None:
            process.signal_group(run.proc.pid, signal.SIGKILL)
            if run.proc.returncode is None:
                await process.wait_exit(run.proc, None)
            process.unregister(run.proc.pid)
        if run.endpoint is not None:
            await self.gateway.close_run(run.endpoint)
        run.result.close()
        for directory in (run.run_dir, run.control):
            shutil.rmtree(directory, ignore_errors=True)
        task = asyncio.create_task(self._release(run), name="release-run")
        self._disposals.add(task)
        task.add_done_callback(self._disposals.discard)

    @staticmethod
    async def _release(run: _Run) -> None:
        # A killed PID namespace empties in a moment; its cgroup says when (cheaper than scanning /proc).
        if run.proc is not None and run.confinement.cgroup is None:
            await process.wait_group_gone(run.proc.pid, timeout=2.0)
        await run.confinement.release_when_empty()

    async def _collect(self, run: _Run, timeout: float, started: float) -> ExecutionOutcome:
        """Wait for the runner (or kill it at the timeout) and gather what it produced."""
        proc = run.proc
        assert proc is not None and proc.stdout is not None and proc.stderr is not None
        readers = (
            asyncio.ensure_future(read_capped(proc.stdout, self.output_limit)),
            asyncio.ensure_future(read_capped(proc.stderr, self.output_limit)),
            asyncio.ensure_future(run.result.read(self.output_limit)),
        )
        try:
            killed = not await process.wait_exit(proc, timeout)
        finally:
            # Kill the whole group even after a normal exit: background children
            # of the code (`sleep 100 &`) would otherwise hold the pipes open.
            process.signal_group(proc.pid, signal.SIGKILL)
            await process.wait_exit(proc, None)
        killed = killed or run.ended_by is not None
        duration_ms = (time.perf_counter() - started) * 1000
        done, pending = await asyncio.wait(readers, timeout=_DRAIN_AFTER_EXIT_SECONDS)
        for reader in pending:  # a descendant escaped the group and holds a pipe
            reader.cancel()
        (stdout, out_cut), (stderr, err_cut), (result, _) = [
            reader.result() if reader in done else (b"", True) for reader in readers
        ]
        reported = reported_outcome(result)
        exit_code = None if killed else proc.returncode
        stderr_text = stderr.decode("utf-8", errors="replace")
        error = run_error(
            reported.get("error"), killed, exit_code, stderr_text, timeout, run.ended_by, run.confinement.limits_hit()
        )
        return ExecutionOutcome(
            stdout=stdout.decode("utf-8", errors="replace"),
            stderr=stderr_text,
            exit_code=exit_code,
            killed=killed,
            error=error,
            result=reported.get("result"),
            truncated=out_cut or err_cut,
            duration_ms=duration_ms,
        )
