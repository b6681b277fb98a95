"""What a snapshot reads and restores of an emulated service (the composition root's `Emulator` has it all)."""

from __future__ import annotations

from typing import Protocol

from tui.emulator.browser.sessions import BrowserSessionManager
from tui.emulator.core.activity import ActivityLog
from tui.emulator.core.billing import Billing
from tui.emulator.core.clock import Clock
from tui.emulator.core.ids import SeededIds
from tui.emulator.core.teams import TeamDirectory
from tui.emulator.core.usage import UsageLedger
from tui.emulator.jobs.steering import JobControl
from tui.emulator.jobs.store import JobStore
from tui.emulator.jobs.webhooks import WebhookDispatcher


class Stateful(Protocol):
    """The parts of an emulator that hold state, and where its time and ids come from."""

    @property
    def seed(self) -> int: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def ids(self) -> SeededIds: ...
    @property
    def teams(self) -> TeamDirectory: ...
    @property
    def activity(self) -> ActivityLog: ...
    @property
    def usage(self) -> UsageLedger: ...
    @property
    def billing(self) -> Billing: ...
    @property
    def jobs(self) -> JobStore: ...
    @property
    def webhooks(self) -> WebhookDispatcher: ...
    @property
    def browser(self) -> BrowserSessionManager: ...
    @property
    def job_control(self) -> JobControl: ...
    @property
    def admin_token(self) -> str: ...
