"""`ChromiumBackend`: one headless Chromium process per browser session.

A process per session (rather than a browser context per session) isolates
cookies, storage, caches and crashes completely, and makes a profile simply a
user-data-dir. Each browser runs in a bubblewrap sandbox of its own
(`sandbox.py`) and speaks CDP over `--remote-debugging-pipe`, with no TCP
port: its multiplexer (`cdp_mux.py`) serves every user of the browser, reached
through the backend's token-checked gateway (`cdp_gateway.py`), whose URL is
the handle's `ws_endpoint`. A browser that dies by itself is noticed (its pipe
ends) and its handle says why (`lost`).

A session without a profile keeps nothing: its profile directory is a
size-capped tmpfs of its sandbox. A profile's working copy is bound from the
host, owned by the sandbox's uid, and written back when the session saves it.
Closing a session kills its running `execute`s first (`CodeRunner.end_session`).

Everything the backend writes lives under one temp root it owns (sessions'
user-data-dirs, runners' scratch space, and saved profiles unless a
`profiles_dir` is given); `shutdown()` kills every browser and removes it, and
a new backend removes the roots of emulators that died (`temp_roots.py`).
The sandbox hides it, `profiles_dir`, the dashboard's config and `hidden_paths`.

With a site resolver (`set_site_resolver`, which the emulator calls), every
browser's http(s) requests to non-loopback hosts are answered by the emulator's
synthetic sites (`site_interception.py`), turned on before `launch` returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shutil
from pathlib import Path

import websockets

from tui.emulator.browser import process
from tui.emulator.browser.backend import (
    BrowserBackend,
    BrowserHandle,
    BrowserStartFailed,
    BrowserUnavailable,
    ExecutionOutcome,
    NoBrowserBackend,
    ProfileSpec,
    SiteResolver,
)
from tui.emulator.browser.cdp_gateway import CdpGateway
from tui.emulator.browser.chromium_process import CHROMIUM_FLAGS, RunningBrowser, start_browser, stop, watch_exit
from tui.emulator.browser.confinement import Confinement
from tui.emulator.browser.execute import OUTPUT_LIMIT_BYTES, CodeRunner
from tui.emulator.browser.limits import Kind, SandboxLimits
from tui.emulator.browser.locate import find_chromium
from tui.emulator.browser.profiles import ProfileStore
from tui.emulator.browser.sandbox import Sandbox, dashboard_config_dir
from tui.emulator.browser.site_interception import InterceptionFailed, SiteInterceptor
from tui.emulator.browser.temp_roots import make_root, remove_dead_roots

log = logging.getLogger(__name__)

CLOSE_GRACE_SECONDS = 3.0
_ENDED = {
    "deleted": "was deleted",
    "ttl": "reached its ttl",
    "activityTtl": "reached its activityTtl",
    "shutdown": "ended with the emulator",
    "browser exited": "lost its browser",
}


class ChromiumBackend:
    """Starts a Chromium per session, runs code against it, and stops it (see module doc)."""

    available = True
    unavailable_reason = ""

    def __init__(
        self,
        binary: Path | None = None,
        *,
        profiles_dir: Path | None = None,
        temp_parent: Path | None = None,
        close_grace: float = CLOSE_GRACE_SECONDS,
        output_limit: int | None = None,
        prewarm: bool = True,
        extra_args: tuple[str, ...] = (),
        site_resolver: SiteResolver | None = None,
        sandbox: Sandbox | None = None,
        hidden_paths: tuple[Path, ...] = (),
        limits: SandboxLimits | None = None,
    ) -> None:
        self.binary = binary if binary is not None else find_chromium()
        self.close_grace = close_grace
        self.extra_args = extra_args
        self._profiles_dir = profiles_dir
        self._temp_parent = temp_parent
        self._output_limit = output_limit
        self.prewarm = prewarm
        self._root: Path | None = None
        self._profiles: ProfileStore | None = None
        self._runner: CodeRunner | None = None
        self._running: dict[str, RunningBrowser] = {}
        self._gateway = CdpGateway()
        self._site_resolver = site_resolver
        self._sandbox = sandbox
        self._hidden_paths = hidden_paths
        self._limits = limits
        remove_dead_roots(temp_parent)

    def set_site_resolver(self, resolver: SiteResolver | None) -> None:
        """Answer browsers launched from now on from `resolver` instead of the network (None: stop)."""
        self._site_resolver = resolver

    # --- the temp root, made on first use -----------------------------------------

    @property
    def root(self) -> Path:
        """The backend's temp root (created on first use, removed by `shutdown`)."""
        if self._root is None:
            self._root = make_root(self._temp_parent)
        return self._root

    @property
    def sandbox(self) -> Sandbox:
        """What browsers and runners run in (see `sandbox.py`): the emulator's own paths hidden."""
        if self._sandbox is None:
            # The dashboard's config (it may hold the service's API key) is none of user code's business.
            hidden = [self.root, dashboard_config_dir(), *self._hidden_paths]
            if self._profiles_dir is not None:
                hidden.append(self._profiles_dir)
            # Chromium's own directory (Playwright's build lives in the home directory) is shown too.
            binary = Path(self.binary).resolve()
            limits = self._limits if self._limits is not None else SandboxLimits.from_environment()
            self._sandbox = Sandbox.from_environment(hidden, limits=limits, runtime=[binary.parent])
        return self._sandbox

    @property
    def profiles(self) -> ProfileStore:
        if self._profiles is None:
            self._profiles = ProfileStore(self._profiles_dir or self.root / "profiles")
        return self._profiles

    @property
    def runner(self) -> CodeRunner:
        if self._runner is None:
            output_limit = OUTPUT_LIMIT_BYTES if self._output_limit is None else self._output_limit
            self._runner = CodeRunner(
                self.root, output_limit=output_limit, prewarm=self.prewarm, sandbox=self.sandbox, gateway=self._gateway
            )
        return self._runner

    def running_pids(self) -> list[int]:
        """Process ids of the browsers this backend is running now."""
        return [running.process.pid for running in self._running.values()]

    # --- the protocol ----------------------------------------------------------------

    async def launch(self, session_id: str, profile: ProfileSpec | None) -> BrowserHandle:
        """Start a browser for `session_id`, on a copy of `profile` when given."""
        if session_id in self._running:
            raise ValueError(f"Session {session_id} already has a browser.")
        user_data_dir = self.root / "sessions" / session_id
        user_data_dir.parent.mkdir(parents=True, exist_ok=True)
        if profile is not None:
            self.profiles.check_out(profile.name, session_id, profile.save_changes, user_data_dir)
        else:
            user_data_dir.mkdir()
        try:
            running = await self._start(session_id, user_data_dir, profile)
        except BaseException:
            if profile is not None:
                self.profiles.release(profile.name, session_id)
            shutil.rmtree(user_data_dir, ignore_errors=True)
            raise
        self._running[session_id] = running
        return running.handle

    async def close(self, handle: BrowserHandle, save_profile: bool) -> None:
        """Stop the session's browser; with `save_profile` (and a saving profile) write it back."""
        handle.closed.set()
        running = self._running.pop(handle.session_id, None)
        if running is None:
            return
        running.closing = True
        if running.watcher is not None:
            running.watcher.cancel()
        if self._runner is not None:  # nothing started for the session outlives it
            ended = _ENDED.get(handle.end_reason or "", "ended")
            await self._runner.end_session(
                handle.session_id, f"The browser session {ended} while the code ran, so the run was killed."
            )
        profile = running.profile
        saving = save_profile and profile is not None and profile.save_changes
        try:
            if running.interceptor is not None:
                await running.interceptor.aclose()
            if saving:
                # Browser.close is a clean shutdown: cookies and localStorage get flushed.
                await self._request_close(handle.ws_endpoint)
                await process.wait_exit(running.process, self.close_grace)
        finally:
            await stop(running, self.close_grace)
            self._gateway.remove(handle.session_id)
            if profile is not None and saving and running.process.returncode is not None:
                await asyncio.to_thread(self.profiles.check_in, profile.name, handle.session_id, handle.user_data_dir)
            else:
                if profile is not None:
                    self.profiles.release(profile.name, handle.session_id)
                await asyncio.to_thread(shutil.rmtree, handle.user_data_dir, True)

    async def execute(self, handle: BrowserHandle, code: str, language: str, timeout: float) -> ExecutionOutcome:
        """Run code against the session's browser in a separate process (see `execute.py`)."""
        outcome = await self.runner.run(handle.session_id, handle.ws_endpoint, code, language, timeout)
        running = self._running.get(handle.session_id)
        if outcome.error and running is not None and running.watcher is not None:
            if not process.pid_running(running.process.pid):
                # The code failed because the browser is gone: let the watcher say so on the handle.
                await asyncio.wait({running.watcher}, timeout=2.0)
        return outcome

    async def shutdown(self) -> None:
        """Kill every browser this backend started and remove its temp root."""
        running = list(self._running.values())
        await asyncio.gather(*(self.close(item.handle, save_profile=False) for item in running), return_exceptions=True)
        if self._runner is not None:
            await self._runner.close()
        await self._gateway.aclose()
        if self._root is not None:
            await asyncio.to_thread(shutil.rmtree, self._root, True)
            self._root = None
            self._runner = None
            if self._profiles_dir is None:
                self._profiles = None

    # --- internals -----------------------------------------------------------------------

    def _confine(self, user_data_dir: Path, profile: ProfileSpec | None) -> Confinement:
        args = [str(self.binary), *CHROMIUM_FLAGS, *self.extra_args, f"--user-data-dir={user_data_dir}"]
        if self.sandbox.isolated or os.geteuid() == 0:
            # Chromium's own sandbox refuses to run as root, and needs namespaces bubblewrap already made.
            args.append("--no-sandbox")
        args.append("about:blank")
        # A profile's copy is written back when the session saves it: it is bound from the host.
        # Without a profile nothing outlives the browser: its profile is a size-capped tmpfs of its own.
        confinement = self.sandbox.confine(
            args,
            kind=Kind.BROWSER,
            writable=[user_data_dir] if profile is not None else [],
            private=[] if profile is not None else [user_data_dir],
        )
        if profile is not None:
            confinement.give(user_data_dir)
        return confinement

    async def _start(self, session_id: str, user_data_dir: Path, profile: ProfileSpec | None) -> RunningBrowser:
        confinement = self._confine(user_data_dir, profile)
        try:
            running = await start_browser(confinement, session_id, user_data_dir, profile)
        except BaseException:
            confinement.release()  # a no-op when start_browser released it already
            raise
        mux = running.mux
        assert mux is not None  # start_browser returns only once the browser answered on its pipe
        try:
            running.handle.ws_endpoint = await self._gateway.add(session_id, mux)
            running.handle.open_cdp = mux.connect
            running.watcher = asyncio.create_task(watch_exit(running))
            if self._site_resolver is not None:
                running.interceptor = await SiteInterceptor.start(mux.connect, self._site_resolver, label=session_id)
        except BaseException as exc:
            self._gateway.remove(session_id)
            await stop(running, grace=0.5)
            if isinstance(exc, InterceptionFailed):
                raise BrowserStartFailed(f"Chromium started but {exc}") from None
            raise
        return running

    @staticmethod
    async def _request_close(ws_endpoint: str) -> None:
        """Ask the browser to close itself over CDP; it may drop the connection instead of replying."""
        with contextlib.suppress(OSError, TimeoutError, websockets.ConnectionClosed, websockets.InvalidHandshake):
            async with websockets.connect(ws_endpoint, open_timeout=2, close_timeout=1, max_size=None) as ws:
                await ws.send(json.dumps({"id": 1, "method": "Browser.close"}))
                await asyncio.wait_for(ws.recv(), 2)


def browser_backend_from_environment(
    *, hidden_paths: tuple[Path, ...] = (), limits: SandboxLimits | None = None, prewarm: bool = True
) -> BrowserBackend:
    """A `ChromiumBackend` when a browser is found, else a `NoBrowserBackend` saying how to install one."""
    try:
        binary = find_chromium()
    except BrowserUnavailable as exc:
        return NoBrowserBackend(str(exc))
    return ChromiumBackend(binary, hidden_paths=hidden_paths, limits=limits, prewarm=prewarm)
