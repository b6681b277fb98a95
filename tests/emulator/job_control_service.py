"""A served emulator for the job-control tests: teams `alpha` and `beta`, a manual clock, the admin token.

`served()` runs it on a loopback port (its webhook and batch loops running, as
`wds-tui emulator` runs them); `admin(...)` calls an admin route and checks the status.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx

from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, START
from tui.emulator.core.clock import ManualClock
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

ADMIN_TOKEN = "emu-" + "c0" * 16
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
SITE = "https://acme-outdoor.com/"


@dataclass
class Served:
    base_url: str
    emulator: Emulator
    clock: ManualClock


def new_emulator(clock: ManualClock) -> Emulator:
    return Emulator.from_keys(
        {"alpha": [ALPHA_KEY], "beta": [BETA_KEY]}, seed=7, clock=clock, history=False, admin_token=ADMIN_TOKEN
    )


@contextlib.contextmanager
def served() -> Iterator[Served]:
    """The emulator on a loopback port for the block."""
    clock = ManualClock(START)
    emulator = new_emulator(clock)
    with ServerThread(emulator) as base_url:
        yield Served(base_url, emulator, clock)


async def admin(
    http: httpx.AsyncClient, method: str, path: str, body: Any = None, *, status: int = 200
) -> dict[str, Any]:
    """Call an admin route with the admin token; its JSON, once its status is `status`."""
    answer = await http.request(method, path, json=body, headers=ADMIN)
    assert answer.status_code == status, answer.text
    return dict(answer.json())
