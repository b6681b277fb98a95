"""Every route under the admin prefix, gathered from the modules that serve them."""

from __future__ import annotations

from typing import Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from tui.emulator.admin import faults, job_control, state
from tui.emulator.admin.guard import ADMIN_PREFIX
from tui.emulator.http.fault_rules import FaultRules
from tui.emulator.state.stateful import Stateful

# What each admin path is for: `GET /_emulator/` answers it, so a tester with curl finds the rest.
ADMIN_INDEX: dict[str, str] = {**faults.INDEX, **state.INDEX, **job_control.INDEX}


class AdminParts(Stateful, Protocol):
    """What the admin routes reach of an emulated service: its stores (`Stateful`) and its fault rules."""

    @property
    def faults(self) -> FaultRules:
        """The fault rules requests may meet (`/_emulator/faults`, `--fault`)."""


def admin_routes(service: AdminParts) -> list[BaseRoute]:
    """The admin routes over `service`."""

    async def index(request: Request) -> JSONResponse:
        return JSONResponse({"success": True, "prefix": ADMIN_PREFIX + "/", "routes": ADMIN_INDEX})

    return [
        Route(ADMIN_PREFIX + "/", index, methods=["GET"]),
        *faults.routes(service),
        *state.routes(service),
        *job_control.routes(service),
    ]
