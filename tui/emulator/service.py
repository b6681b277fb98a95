"""The composition root: builds every part of one emulated service and wires them together.

Each part gets only what it uses, in its constructor; this is the one module
that knows them all. Nothing here reads the wall clock or the environment:
time comes from `clock`, ids and keys from a generator seeded with `seed`,
so tests are deterministic. The HTTP skin over these parts is
`tui.emulator.http.app.create_app(emulator)`.
"""

from __future__ import annotations

from typing import Any

import httpx

from tui.emulator.admin.guard import new_admin_token
from tui.emulator.browser.backend import BrowserBackend, NoBrowserBackend
from tui.emulator.browser.sessions import BrowserSessionManager
from tui.emulator.core.activity import ActivityEntry, ActivityLog
from tui.emulator.core.background import BackgroundTasks
from tui.emulator.core.billing import Billing
from tui.emulator.core.clock import Clock, SystemClock
from tui.emulator.core.ids import SeededIds
from tui.emulator.core.retention import RetentionSweeper
from tui.emulator.core.teams import Caller, Team, TeamDirectory
from tui.emulator.core.usage import UsageLedger
from tui.emulator.history import HistorySeeder
from tui.emulator.http.app import create_app
from tui.emulator.http.fault_rules import FaultRules
from tui.emulator.jobs.steering import JobControl
from tui.emulator.jobs.store import JobStore
from tui.emulator.jobs.webhooks import WebhookDispatcher
from tui.emulator.sites.registry import SiteRegistry
from tui.emulator.sites.site_server import site_resolver
from tui.emulator.support.desk import SupportDesk
from tui.emulator.traffic import TrafficGenerator

# The base URL of the live traffic's in-process client (never resolved: the transport is the app).
INTERNAL_BASE_URL = "http://emulator.internal"


class Emulator:
    """One emulated service: its teams, stores and background loops, built and wired."""

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
        admin_token: str | None = None,
    ) -> None:
        self.seed = seed
        self.live = live
        # Seconds added before every API answer (`--latency`), to show a slow service.
        self.latency = latency
        # The admin prefix's token: given (tests, `$WDS_EMULATOR_ADMIN_TOKEN`) or fresh and unguessable.
        self.admin_token = admin_token or new_admin_token()
        self.clock: Clock = clock or SystemClock()
        # Fault rules requests may meet, with dice seeded like everything else (`/_emulator/faults`).
        self.faults = FaultRules.seeded(seed)
        self.ids = SeededIds(seed)
        self.teams = TeamDirectory(teams if teams is not None else [Team.named("default", [self.ids.new_api_key()])])
        if webhook_secret is not None:
            for team in self.teams.values():
                if team.webhook_secret is None:
                    team.webhook_secret = webhook_secret
        new_id = self.ids.new_id
        self.activity = ActivityLog(self.clock)
        self.usage = UsageLedger(self.clock)
        self.billing = Billing(self.activity, self.usage, self.clock, new_id)
        self.background = BackgroundTasks()
        self.sites = SiteRegistry(seed)

        self.browser = BrowserSessionManager(
            browser_backend or NoBrowserBackend(),
            clock=self.clock,
            new_id=new_id,
            teams=self.teams,
            billing=self.billing,
            spawn=self.background.spawn,
        )
        self.background.add(self.browser.reaper_loop)
        # Sessions' browsers see this emulator's synthetic sites instead of the network
        # (wired here, the one place every backend passes through; test doubles may lack it).
        set_site_resolver = getattr(self.browser.backend, "set_site_resolver", None)
        if set_site_resolver is not None:
            set_site_resolver(site_resolver(self.sites))

        self.webhooks = WebhookDispatcher(clock=self.clock, new_id=new_id, teams=self.teams)
        self.jobs = JobStore(
            sites=self.sites,
            clock=self.clock,
            new_id=new_id,
            billing=self.billing,
            webhooks=self.webhooks,
            new_ids=self.ids.new_ids,
        )
        # The tester's control of job states (`/_emulator/...progression`): new jobs and status polls go through it.
        self.job_control = JobControl(store=self.jobs, webhooks=self.webhooks, teams=self.teams, clock=self.clock)
        self.jobs.steer_with(self.job_control)
        self.background.add(self.webhooks.run_loop)
        self.background.add(self.jobs.running_batches.run_loop)  # running batches scraped (and billed) as time passes
        self.support = SupportDesk(jobs=self.jobs, sites=self.sites, clock=self.clock, new_id=new_id)
        self.traffic = TrafficGenerator(
            self.teams, seed, open_client=self._in_process_client, speed=getattr(self.clock, "speed", 1.0)
        )
        if live:
            self.background.add(self.traffic.run)
        # Activity first: a job is kept while its activity entry is listed.
        self.retention = RetentionSweeper()
        self.retention.add("activity", self.activity.prune)
        self.retention.add("jobs", lambda: self.jobs.prune(self.activity.lists))
        self.retention.add("webhook deliveries", self.webhooks.prune)
        self.retention.add("steered jobs", self.job_control.prune)
        self.retention.add("browser sessions", self.browser.prune)
        self.background.add(self.retention.run_loop)
        if history:
            HistorySeeder(
                clock=self.clock,
                teams=self.teams,
                usage=self.usage,
                billing=self.billing,
                jobs=self.jobs,
                sites=self.sites,
                new_id=new_id,
            ).seed(seed)

    @classmethod
    def from_keys(cls, keys: dict[str, list[str]], **kw: Any) -> Emulator:
        """An emulator with one team per name, each accepting the given keys."""
        return cls(teams=[Team.named(name, team_keys) for name, team_keys in keys.items()], **kw)

    def _in_process_client(self) -> httpx.AsyncClient:
        """A client that sends requests through this emulator's own app, without a socket."""
        transport = httpx.ASGITransport(app=create_app(self))
        return httpx.AsyncClient(transport=transport, base_url=INTERNAL_BASE_URL)

    # --- conveniences for tools and tests ------------------------------------------

    def team_by_key(self, key: str) -> Team | None:
        """The team that owns `key`, if any."""
        return self.teams.by_key(key)

    def team_by_name(self, name: str) -> Team | None:
        """The team called `name`, if any."""
        return self.teams.by_name(name)

    def record_call(
        self, caller: Caller, endpoint: str, target: str, job_id: str | None = None, credits: int = 0
    ) -> ActivityEntry:
        """Record one API call now: its activity entry and the credits it used."""
        return self.billing.record_call(caller, endpoint, target, job_id=job_id, credits=credits)

    def charge(self, team: Team, api_key: str, credits: int) -> None:
        """Bill credits to a team now."""
        self.billing.charge(team, api_key, credits)

    # --- serving -------------------------------------------------------------------

    def start_background(self) -> None:
        """Start the background loops: the session reaper, webhook deliveries, live traffic (live mode)."""
        self.background.start()

    async def aclose(self) -> None:
        """Stop background tasks and close every browser and HTTP client the emulator started."""
        await self.background.cancel_all()
        await self.browser.aclose()
        await self.webhooks.aclose()
