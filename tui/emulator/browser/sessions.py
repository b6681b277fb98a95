"""Bookkeeping of browser sessions: lifetimes, limits, profiles, billing.

The manager owns state and rules; the backend (`backend.py`, `chromium.py`) owns
processes. Time rules are applied lazily: whenever a session is looked at,
a session past its `ttl` or `activityTtl` becomes `destroyed` as of the
instant it expired, so tests with a `ManualClock` need no sleeping. In served
mode `reaper_loop` sweeps too, so an expired session's browser is really killed.

Decisions where the contract is silent or ambiguous:
- `ttl` defaults to 600 s (the contract quotes both 600 and 300).
- A session is billed `BROWSER_CREDITS_PER_MINUTE` credits per started minute
  of its life, charged when it ends, to the key that created it.
- Profile names are per team; the backend sees them as `<team id>/<name>`.
"""

from __future__ import annotations

import asyncio
import builtins  # `list` below is a method of the manager: annotations name the type through builtins
import contextlib
import logging
from datetime import datetime, timedelta

from tui.contract.limits import ACTIVITY_TTL_DEFAULT, ACTIVITY_WINDOW_HOURS, TTL_DEFAULT_CANDIDATES
from tui.emulator.browser.access import Access, SessionSecrets
from tui.emulator.browser.backend import (
    BrowserBackend,
    BrowserHandle,
    BrowserUnavailable,
    ExecutionOutcome,
    ProfileBusy,
    ProfileSpec,
)
from tui.emulator.browser.model import BrowserSession, credits_for
from tui.emulator.core.background import Spawn
from tui.emulator.core.billing import Billing
from tui.emulator.core.clock import Clock
from tui.emulator.core.errors import (
    Conflict,
    Forbidden,
    Gone,
    LimitReached,
    NotFound,
    PaymentRequired,
    Unavailable,
    UpstreamFailed,
)
from tui.emulator.core.ids import NewId
from tui.emulator.core.teams import Caller, TeamDirectory

log = logging.getLogger(__name__)

# The contract states two defaults for ttl (600 and 300); the emulator takes the first.
SESSION_TTL_DEFAULT = TTL_DEFAULT_CANDIDATES[0]
REAPER_INTERVAL_SECONDS = 1.0
# Destroyed sessions stay listed as long as the activity shows their calls, then go (`prune`).
SESSION_RETENTION = timedelta(hours=ACTIVITY_WINDOW_HOURS)
START_URL_TIMEOUT_SECONDS = 30.0

SESSION_NOT_FOUND = "Browser session not found."
SESSION_DESTROYED = "Browser session has been destroyed."


class BrowserSessionManager:
    """All browser sessions of an emulator, and the rules they live by."""

    def __init__(
        self,
        backend: BrowserBackend,
        *,
        clock: Clock,
        new_id: NewId,
        teams: TeamDirectory,
        billing: Billing,
        spawn: Spawn,
    ) -> None:
        self._clock = clock
        self._new_id = new_id
        self._teams = teams
        self._billing = billing
        # Closing an expired session's browser needs the event loop: it runs as a task.
        self._spawn = spawn
        self.backend = backend
        self._sessions: dict[str, BrowserSession] = {}
        self._by_job: dict[str, str] = {}
        self._savers: dict[tuple[str, str], str] = {}

    # --- lookups ---------------------------------------------------------------

    def get(self, caller: Caller, session_id: str) -> BrowserSession:
        """The caller's session (`NotFound` if unknown, `Forbidden` if another team's), with expiry applied."""
        self.expire_due()
        session = self._sessions.get(session_id)
        if session is None:
            raise NotFound(SESSION_NOT_FOUND)
        if session.team_id != caller.team.id:
            raise Forbidden("This browser session belongs to a different team.")
        return session

    def list(self, team_id: str, status: str | None = None) -> list[BrowserSession]:
        """The team's sessions, newest first, optionally only `active` or `destroyed` ones."""
        self.expire_due()
        found = [s for s in self._sessions.values() if s.team_id == team_id and status in (None, s.status)]
        return sorted(found, key=lambda s: s.created_at, reverse=True)

    def bound_session(self, job_id: str) -> BrowserSession | None:
        """The session bound to a scrape job by interact, if one was ever created."""
        self.expire_due()
        session_id = self._by_job.get(job_id)
        return self._sessions.get(session_id) if session_id else None

    def active_count(self, team_id: str) -> int:
        return sum(1 for s in self._sessions.values() if s.team_id == team_id and s.active)

    # --- for the CDP proxy and live view (helper C) -------------------------------

    def get_for_token(self, session_id: str, token: str, access: Access = Access.CDP) -> BrowserSession | None:
        """The active session if `token` grants `access` to it, else None (see `browser.access`)."""
        self.expire_due()
        session = self._sessions.get(session_id)
        if session is None or not session.active:
            return None
        return session if session.secrets.grants(token, access) else None

    def touch(self, session_id: str) -> bool:
        """Note activity on a session (resets its activityTtl); False when it is not active."""
        self.expire_due()
        session = self._sessions.get(session_id)
        if session is None or not session.active:
            return False
        session.last_activity = self._clock.now()
        return True

    def ended_for_token(self, session_id: str, token: str, access: Access = Access.CDP) -> bool:
        """Whether `token` grants `access` to a session that has ended (the proxy answers 410, not 403)."""
        self.expire_due()
        session = self._sessions.get(session_id)
        return session is not None and not session.active and session.secrets.grants(token, access)

    def handle(self, session_id: str) -> BrowserHandle | None:
        """The running browser of an active session."""
        self.expire_due()
        session = self._sessions.get(session_id)
        return session.handle if session is not None and session.active else None

    # --- lifecycle ---------------------------------------------------------------

    async def create(
        self,
        caller: Caller,
        *,
        base_url: str,
        ttl: int | None = None,
        activity_ttl: int | None = None,
        stream_web_view: bool = True,
        profile_name: str | None = None,
        save_profile: bool = True,
        bound_job_id: str | None = None,
        start_url: str | None = None,
    ) -> BrowserSession:
        """Start a session. Refused with `PaymentRequired` without credits, `LimitReached` at the
        team's limit, `Conflict` for a second saver of a profile, `Unavailable` when no browser
        can be started, `UpstreamFailed` when starting fails."""
        team = caller.team
        self.expire_due()
        if team.credits_remaining <= 0:
            raise PaymentRequired("Insufficient credits to start a browser session. Add credits and retry.")
        if self.active_count(team.id) >= team.max_browser_sessions:
            raise LimitReached(
                "You have reached the maximum number of concurrent browser sessions "
                f"({team.max_browser_sessions}). Stop a session or wait for one to expire."
            )
        lock_key = (team.id, profile_name) if profile_name is not None and save_profile else None
        if lock_key is not None and lock_key in self._savers:
            raise Conflict(
                f"Profile '{profile_name}' is already in use by another session that saves changes to it. "
                "Stop that session, or open this one with saveChanges: false."
            )
        now = self._clock.now()
        session = BrowserSession(
            id=self._new_id(),
            team_id=team.id,
            api_key=caller.api_key,
            secrets=SessionSecrets.new(),
            base_url=base_url.rstrip("/"),
            created_at=now,
            last_activity=now,
            ttl=ttl or SESSION_TTL_DEFAULT,
            activity_ttl=activity_ttl or ACTIVITY_TTL_DEFAULT,
            stream_web_view=stream_web_view,
            profile_name=profile_name,
            save_profile=bool(profile_name) and save_profile,
            bound_job_id=bound_job_id,
        )
        # Reserve the slot and the profile before awaiting the launch, so that
        # concurrent creates cannot both slip under the limits.
        self._sessions[session.id] = session
        if lock_key is not None:
            self._savers[lock_key] = session.id
        profile = ProfileSpec(f"{team.id}/{profile_name}", save_profile) if profile_name else None
        try:
            session.handle = await self.backend.launch(session.id, profile)
        except BrowserUnavailable as exc:
            self._forget(session)
            raise Unavailable(str(exc)) from None
        except ProfileBusy as exc:  # the backend's own guard, e.g. a profile held by another process
            self._forget(session)
            raise Conflict(str(exc)) from None
        except Exception as exc:  # a browser that fails to start is the "browser service failed" case
            self._forget(session)
            log.exception("browser launch failed")
            raise UpstreamFailed(f"Browser service failed to start a session: {exc}") from None
        if not session.active:  # deleted or shut down while its browser was starting
            await self._close_browser(session)
            raise Gone(SESSION_DESTROYED)
        if bound_job_id is not None:
            self._by_job[bound_job_id] = session.id
        if start_url is not None:
            await self._open(session, start_url)
        return session

    async def delete(self, caller: Caller, session_id: str) -> BrowserSession:
        """Stop the caller's session; deleting one that already ended is not an error."""
        session = self.get(caller, session_id)
        if session.active:
            await self.destroy(session, "deleted")
        return session

    async def destroy(self, session: BrowserSession, reason: str, at: datetime | None = None) -> None:
        """End a session now (or as of `at`), bill it and close its browser."""
        if session.active:
            self._finish(session, at or self._clock.now(), reason)
        await self._close_browser(session)

    async def execute(self, session: BrowserSession, code: str, language: str, timeout: float) -> ExecutionOutcome:
        """Run code in an active session (`Gone` once destroyed, `Unavailable` without a browser)."""
        if not session.active:
            raise Gone(SESSION_DESTROYED)
        if session.handle is None:
            raise Unavailable("The browser of this session is still starting; retry in a moment.")
        session.last_activity = self._clock.now()
        handle = session.handle
        try:
            outcome = await self.backend.execute(handle, code, language, timeout)
        except BrowserUnavailable as exc:
            raise Unavailable(str(exc)) from None
        except Exception as exc:
            if handle.lost:
                self.expire_due()
                raise Gone(SESSION_DESTROYED) from None
            log.exception("browser execution failed")
            raise UpstreamFailed(f"Browser service failed to run the code: {exc}") from None
        if handle.lost:  # the browser died under the code: its error is the browser's, not the code's
            self.expire_due()
            raise Gone(SESSION_DESTROYED)
        if session.active:
            session.last_activity = self._clock.now()
        return outcome

    # --- expiry ----------------------------------------------------------------------

    def expire_due(self) -> builtins.list[BrowserSession]:
        """Mark every session past its ttl/activityTtl destroyed (as of its expiry instant).

        Closing their browsers needs the event loop: it is scheduled when a loop runs,
        and `aclose()` closes whatever is left.
        """
        expired = self._mark_expired()
        if any(s.handle is not None for s in expired):
            with contextlib.suppress(RuntimeError):  # no running loop: aclose() closes them
                self._spawn(self._close_all(expired))
        return expired

    async def sweep(self) -> int:
        """Expire due sessions and close every ended session's browser now; returns how many ended."""
        expired = self._mark_expired()
        await self._close_all([s for s in self._sessions.values() if not s.active and s.handle is not None])
        return len(expired)

    def _mark_expired(self) -> builtins.list[BrowserSession]:
        now = self._clock.now()
        expired = []
        for session in self._sessions.values():
            if session.active and session.handle is not None and session.handle.lost:
                log.warning("browser session %s destroyed: %s", session.id, session.handle.lost)
                self._finish(session, now, "browser exited")
                expired.append(session)
            elif session.active:
                due, reason = session.due_at()
                if now >= due:
                    self._finish(session, due, reason)
                    expired.append(session)
        return expired

    def prune(self) -> int:
        """Forget sessions destroyed more than 24 hours ago (their browsers closed); how many.

        The list shows destroyed sessions as the activity shows their calls: for 24 hours.
        """
        cutoff = self._clock.now() - SESSION_RETENTION
        gone = [
            s
            for s in self._sessions.values()
            if not s.active and s.handle is None and s.destroyed_at is not None and s.destroyed_at <= cutoff
        ]
        for session in gone:
            del self._sessions[session.id]
        gone_ids = {s.id for s in gone}
        for job_id in [job for job, sid in self._by_job.items() if sid in gone_ids]:
            del self._by_job[job_id]
        return len(gone)

    async def reaper_loop(self) -> None:
        """Served mode: end expired sessions promptly so their browsers do not linger."""
        while True:
            await self.sweep()
            await asyncio.sleep(REAPER_INTERVAL_SECONDS)

    async def aclose(self) -> None:
        """Emulator shutdown: end every session and stop the backend."""
        now = self._clock.now()
        for session in self._sessions.values():
            if session.active:
                self._finish(session, now, "shutdown")
        await self._close_all(list(self._sessions.values()))
        await self.backend.shutdown()

    # --- internals -----------------------------------------------------------------------

    def _finish(self, session: BrowserSession, at: datetime, reason: str) -> None:
        session.status = "destroyed"
        session.destroyed_at = at
        session.end_reason = reason
        session.credits_billed = credits_for(session.duration_ms(at))
        team = self._teams.get(session.team_id)
        if team is not None:
            self._billing.charge(team, session.api_key, session.credits_billed, at=at)
        self._release_profile(session)

    def _forget(self, session: BrowserSession) -> None:
        self._sessions.pop(session.id, None)
        self._release_profile(session)

    def _release_profile(self, session: BrowserSession) -> None:
        if session.profile_name is not None:
            key = (session.team_id, session.profile_name)
            if self._savers.get(key) == session.id:
                del self._savers[key]

    async def _close_all(self, sessions: builtins.list[BrowserSession]) -> None:
        for session in sessions:
            await self._close_browser(session)

    async def _close_browser(self, session: BrowserSession) -> None:
        handle, session.handle = session.handle, None
        if handle is None:
            return
        handle.end_reason = session.end_reason
        try:
            await self.backend.close(handle, save_profile=session.save_profile)
        except Exception:
            log.exception("closing the browser of session %s failed", session.id)

    async def _open(self, session: BrowserSession, url: str) -> None:
        """Point a scrape-bound session's page at the scraped URL; a failure leaves it on a blank page."""
        assert session.handle is not None
        code = f"await page.goto({url!r})"
        try:
            outcome = await self.backend.execute(session.handle, code, "python", START_URL_TIMEOUT_SECONDS)
        except Exception as exc:
            log.warning("could not open %s in session %s: %s", url, session.id, exc)
            return
        if outcome.error:
            log.warning("could not open %s in session %s: %s", url, session.id, outcome.error)
