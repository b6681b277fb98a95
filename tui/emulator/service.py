"""The emulator's state: teams and keys, and the stores every route works on.

One `Emulator` object holds everything (teams, activity, usage, jobs, browser
sessions); the ASGI app built by `tui.emulator.http.app.create_app` is a thin HTTP
skin over it. Nothing here reads the wall clock or the environment: time comes
from `clock`, randomness from `rng` (seeded), so tests are deterministic.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import uuid
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tui.emulator.core.activity import ActivityEntry, ActivityLog
from tui.emulator.core.clock import Clock, SystemClock
from tui.emulator.core.usage import UsageLedger

if TYPE_CHECKING:
    from tui.emulator.browser.backend import BrowserBackend

log = logging.getLogger(__name__)

# Team ids are derived from team names so that the same CLI flags give the same ids.
_TEAM_NAMESPACE = uuid.UUID("6f1c1b8e-4a35-4c1e-9d7e-2a8f0f6b7c11")
DEFAULT_CREDITS = 100_000


@dataclass
class Team:
    """A customer account: its keys, its webhook secret and its limits."""

    id: str
    name: str
    api_keys: list[str]
    webhook_secret: str | None = None
    max_browser_sessions: int = 5
    credits_remaining: int = DEFAULT_CREDITS

    @classmethod
    def named(cls, name: str, api_keys: list[str], **kw: Any) -> Team:
        """A team whose id is derived from its name (stable across runs)."""
        return cls(id=str(uuid.uuid5(_TEAM_NAMESPACE, name)), name=name, api_keys=list(api_keys), **kw)


@dataclass(frozen=True)
class Caller:
    """Who made a request: the team and the exact key it used."""

    team: Team
    api_key: str


BackgroundLoop = Callable[[], Coroutine[Any, Any, None]]


@dataclass
class _Background:
    loops: list[BackgroundLoop] = field(default_factory=list)
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    started: bool = False


class Emulator:
    """All state of one emulated service."""

    def __init__(
        self,
        *,
        teams: list[Team] | None = None,
        seed: int = 0,
        clock: Clock | None = None,
        webhook_secret: str | None = None,
        browser_backend: BrowserBackend | None = None,
        live: bool = False,
        latency: float = 0.0,
        history: bool = True,
    ) -> None:
        self.seed = seed
        self.clock: Clock = clock or SystemClock()
        self.rng = random.Random(seed)
        self.live = live
        # Seconds added before every API answer (`--latency`), to show a slow service.
        self.latency = latency
        self.teams: dict[str, Team] = {}
        self._team_by_key: dict[str, Team] = {}
        for team in teams if teams is not None else [self._default_team()]:
            self.add_team(team)
        if webhook_secret is not None:
            for team in self.teams.values():
                if team.webhook_secret is None:
                    team.webhook_secret = webhook_secret
        self.activity = ActivityLog(self.clock)
        self.usage = UsageLedger(self.clock)
        self._background = _Background()

        from tui.emulator.browser.backend import NoBrowserBackend
        from tui.emulator.browser.sessions import BrowserSessionManager

        self.browser = BrowserSessionManager(self, browser_backend or NoBrowserBackend())
        self.add_background(self.browser.reaper_loop)
        # Sessions' browsers see this emulator's synthetic sites instead of the network
        # (wired here, the one place every backend passes through; test doubles may lack it).
        set_site_resolver = getattr(self.browser.backend, "set_site_resolver", None)
        if set_site_resolver is not None:
            from tui.emulator.sites.site_server import site_resolver

            set_site_resolver(site_resolver(self))
        self.jobs: Any = None
        self.webhooks: Any = None
        self.support: Any = None
        self._sites: Any = None
        self._attach_job_side()
        if live:
            from tui.emulator.traffic import TrafficGenerator

            self.add_background(TrafficGenerator(self).run)
        if history:
            from tui.emulator.history import seed_history

            seed_history(self)

    # --- teams and keys ---------------------------------------------------

    @classmethod
    def from_keys(cls, keys: dict[str, list[str]], **kw: Any) -> Emulator:
        """An emulator with one team per name, each accepting the given keys."""
        return cls(teams=[Team.named(name, team_keys) for name, team_keys in keys.items()], **kw)

    def add_team(self, team: Team) -> Team:
        """Register a team; a key may belong to one team only."""
        if not team.api_keys:
            raise ValueError(f"team {team.name!r} needs at least one API key")
        for key in team.api_keys:
            owner = self._team_by_key.get(key)
            if owner is not None and owner.id != team.id:
                raise ValueError(f"an API key is given to both team {owner.name!r} and team {team.name!r}")
        self.teams[team.id] = team
        for key in team.api_keys:
            self._team_by_key[key] = team
        return team

    def team_by_key(self, key: str) -> Team | None:
        return self._team_by_key.get(key)

    def team_by_name(self, name: str) -> Team | None:
        return next((team for team in self.teams.values() if team.name == name), None)

    def _default_team(self) -> Team:
        return Team.named("default", ["wds-" + "%032x" % self.rng.getrandbits(128)])

    # --- ids, calls and credits ---------------------------------------------

    def new_id(self) -> str:
        """A UUID4 string drawn from the seeded generator."""
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def record_call(
        self, caller: Caller, endpoint: str, target: str, job_id: str | None = None, credits: int = 0
    ) -> ActivityEntry:
        """Record one API call: its activity entry and the credits it used."""
        now = self.clock.now()
        entry = self.activity.record(
            caller.team.id, endpoint, target, job_id=job_id or self.new_id(), api_key=caller.api_key, at=now
        )
        if credits:
            self.charge(caller.team, caller.api_key, credits, at=now)
        return entry

    def charge(self, team: Team, api_key: str, credits: int, at: datetime | None = None) -> None:
        """Bill credits to a team (usage history + remaining balance)."""
        if credits <= 0:
            return
        self.usage.record(team.id, api_key, credits, at or self.clock.now())
        team.credits_remaining = max(0, team.credits_remaining - credits)

    # --- the job side (jobs, synthetic sites, webhooks) ---------------------

    def _attach_job_side(self) -> None:
        """Build the job store, webhook dispatcher and support desk.

        Imported here, not at the top: those modules import this one.
        """
        from tui.emulator.jobs.store import JobStore
        from tui.emulator.support.desk import SupportDesk
        from tui.emulator.jobs.webhooks import WebhookDispatcher

        self.jobs = JobStore(self)
        self.webhooks = WebhookDispatcher(self)
        self.support = SupportDesk(self)

    def site(self, host: str) -> Any:
        """The synthetic site served for `host` (built once, deterministic from the seed)."""
        if self._sites is None:
            from tui.emulator.sites.site import SiteRegistry

            self._sites = SiteRegistry(self.seed)
        return self._sites.site(host)

    # --- background work ------------------------------------------------------

    def add_background(self, loop: BackgroundLoop) -> None:
        """Register a loop that runs while the emulator is served (never under ASGITransport tests)."""
        self._background.loops.append(loop)
        if self._background.started:
            self.spawn(loop())

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run `coro` as a task that `aclose()` cancels; needs a running event loop."""
        task = asyncio.get_running_loop().create_task(coro)
        self._background.tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._background.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("emulator background task failed", exc_info=task.exception())

    def start_background(self) -> None:
        """Start the registered loops: the session reaper, live traffic (live mode), deliveries."""
        if self._background.started:
            return
        self._background.started = True
        for loop in self._background.loops:
            self.spawn(loop())

    async def aclose(self) -> None:
        """Stop background tasks and close every browser the emulator started."""
        tasks = list(self._background.tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._background.tasks.difference_update(tasks)
        self._background.started = False
        await self.browser.aclose()
        await self.webhooks.aclose()
