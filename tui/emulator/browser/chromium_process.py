"""One Chromium process: its flags, starting it on a DevTools pipe, and noticing when it ends.

`ChromiumBackend` (`chromium.py`) decides what a session's browser gets (its
sandbox, profile, gateway, interception); this module owns the process: it
starts the confined command with the DevTools pipe on fds 3 and 4, waits for
the first CDP answer (or reports the browser's stderr if it exits first),
keeps the tail of its stderr, and marks the handle `lost` when the browser
ends by itself.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from tui.emulator.browser import process
from tui.emulator.browser.backend import BrowserHandle, BrowserStartFailed, ProfileSpec
from tui.emulator.browser.cdp_mux import CdpMultiplexer, CdpPipe
from tui.emulator.browser.confinement import Confinement
from tui.emulator.browser.site_interception import SiteInterceptor

# Keep a fresh browser off the network: no first-run UI, no component or
# variation downloads, no sync, no QUIC probing, no crash reporting.
CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--disable-gpu",
    "--disable-breakpad",
    "--disable-crash-reporter",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-field-trial-config",
    "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication",
    "--metrics-recording-only",
    "--no-service-autorun",
    "--mute-audio",
    # A fixed cookie-encryption key, so a profile copied between sessions stays readable.
    "--password-store=basic",
    "--use-mock-keychain",
    # The HTTP cache lives in the sandbox's size-capped profile directory: keep it well inside.
    "--disk-cache-size=67108864",
    # CDP over fds 3 and 4, no TCP port: the backend's gateway (with a token) is the only way in.
    "--remote-debugging-pipe",
)
START_TIMEOUT_SECONDS = 20.0
_STDERR_TAIL_LINES = 40


@dataclass
class RunningBrowser:
    """What the backend keeps about one session's browser."""

    handle: BrowserHandle
    process: asyncio.subprocess.Process
    profile: ProfileSpec | None
    confinement: Confinement
    stderr_tail: collections.deque[str] = field(default_factory=lambda: collections.deque(maxlen=_STDERR_TAIL_LINES))
    drain: asyncio.Task[None] | None = None
    interceptor: SiteInterceptor | None = None
    watcher: asyncio.Task[None] | None = None
    closing: bool = False
    mux: CdpMultiplexer | None = None


async def start_browser(
    confinement: Confinement, session_id: str, user_data_dir: Path, profile: ProfileSpec | None
) -> RunningBrowser:
    """Start the confined Chromium and wait for its first CDP answer over the pipe.

    BrowserStartFailed (with its stderr) when it exits first or does not answer in time;
    the process is stopped then. The caller owns the result (and `confinement`) otherwise.
    """
    to_browser_read, to_browser_write = os.pipe()
    from_browser_read, from_browser_write = os.pipe()
    try:
        proc = await asyncio.create_subprocess_exec(
            *confinement.command,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            **confinement.spawn_options(fds={3: to_browser_read, 4: from_browser_write}),
        )
    except BaseException:
        for fd in (to_browser_write, from_browser_read):
            os.close(fd)
        raise
    finally:
        confinement.started()
        os.close(to_browser_read)  # the browser's ends: only the browser may hold them, so its exit ends the pipe
        os.close(from_browser_write)
    process.register(proc.pid)
    running = RunningBrowser(
        handle=BrowserHandle(session_id=session_id, ws_endpoint="", pid=proc.pid, user_data_dir=user_data_dir),
        process=proc,
        profile=profile,
        confinement=confinement,
    )
    # Chromium keeps writing to stderr; a full pipe would stall it.
    running.drain = asyncio.create_task(_drain(running))
    try:
        running.mux = CdpMultiplexer(await CdpPipe.open(from_browser_read, to_browser_write), label=session_id)
        await _until_ready(running)
    except BaseException as exc:
        await stop(running, grace=0.5)
        if isinstance(exc, TimeoutError):
            raise BrowserStartFailed(
                f"Chromium did not answer on its DevTools pipe within {START_TIMEOUT_SECONDS:g} s."
            ) from None
        raise
    return running


async def stop(running: RunningBrowser, grace: float) -> None:
    """Stop the browser's process group, its pipe and stderr reader, and release its sandbox."""
    if running.watcher is not None:
        running.watcher.cancel()
    await process.stop_process_group(running.process, grace)
    if running.mux is not None:
        await running.mux.aclose()
    if running.drain is not None:
        running.drain.cancel()
    await running.confinement.release_when_empty()


async def _until_ready(running: RunningBrowser) -> None:
    """Wait for the browser's first CDP answer; BrowserStartFailed (with its stderr) if it exits first."""
    assert running.mux is not None
    answer = asyncio.create_task(running.mux.call("Browser.getVersion", timeout=START_TIMEOUT_SECONDS))
    exited = asyncio.create_task(running.process.wait())
    try:
        await asyncio.wait({answer, exited}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        exited.cancel()
    if answer.done() and not answer.cancelled() and answer.exception() is None:
        return
    answer.cancel()
    with contextlib.suppress(BaseException):
        await answer
    await process.wait_exit(running.process, 5.0)
    if running.process.returncode is None:
        raise TimeoutError
    if running.drain is not None:
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(asyncio.shield(running.drain), 2.0)
    tail = "\n".join(running.stderr_tail)
    raise BrowserStartFailed(f"Chromium exited with status {running.process.returncode} before starting:\n{tail}")


async def _drain(running: RunningBrowser) -> None:
    stream = running.process.stderr
    assert stream is not None
    while line := await stream.readline():
        running.stderr_tail.append(line.decode(errors="replace").rstrip())


async def watch_exit(running: RunningBrowser) -> None:
    """Notice a browser that ends by itself (killed by hand, crashed, over its memory limit):
    say why on its handle.

    The end of the DevTools pipe is the first sign; the handle is marked at once, so that
    connections through the proxy end as "session destroyed", not as a reason to reconnect.
    """
    assert running.mux is not None
    exited = asyncio.create_task(running.process.wait())
    pipe_end = asyncio.create_task(running.mux.closed.wait())
    try:
        await asyncio.wait({pipe_end, exited}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        pipe_end.cancel()
        exited.cancel()
    if running.closing:
        return
    status = running.process.returncode
    tail = "; ".join(line for line in list(running.stderr_tail)[-3:] if line)
    hits = running.confinement.limits_hit()
    running.handle.lost = (
        "Chromium exited unexpectedly"
        + (f" (status {status})" if status is not None else " (its DevTools pipe closed)")
        + (f" after reaching its {' and its '.join(hits)}" if hits else "")
        + (f": {tail}" if tail else "")
    )
    running.handle.closed.set()
