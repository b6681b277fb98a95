"""Every route under the admin prefix, gathered from the modules that serve them."""

from __future__ import annotations

from typing import Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from tui.emulator.admin import faults, job_control, state
from tui.emulator.admin.guard import ADMIN_PREFIX
from tui.emulator.core.clock import Clock
from tui.emulator.core.teams import TeamDirectory
from tui.emulator.http.fault_rules import FaultRules
from tui.emulator.jobs.steering import JobControl
from tui.emulator.jobs.store import JobStore
from tui.emulator.state.stateful import Stateful

# What each admin path is for: `GET /_emulator/` answers it, so a tester with curl finds the rest.
ADMIN_INDEX: dict[str, str] = {**faults.INDEX}
state.register(ADMIN_INDEX)


class AdminParts(Stateful, Protocol):
    """What the admin routes reach of an emulated service (the composition root's `Emulator` has it all)."""

    @property
    def clock(self) -> Clock: ...
    @property
    def teams(self) -> TeamDirectory: ...
    @property
    def jobs(self) -> JobStore: ...
    @property
    def job_control(self) -> JobControl: ...
    @property
    def faults(self) -> FaultRules: ...


def admin_routes(service: AdminParts) -> list[BaseRoute]:
    """The admin routes over `service`."""

    async def index(request: Request) -> JSONResponse:
        return JSONResponse({"success": True, "prefix": ADMIN_PREFIX + "/", "routes": ADMIN_INDEX})

    return [
        Route(ADMIN_PREFIX + "/", index, methods=["GET"]),
        *faults.routes(service),
        *state.routes(service),
        *job_control.routes(service, ADMIN_INDEX),
    ]
