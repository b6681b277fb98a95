"""The emulator's tests' teams, and a caller that speaks plain HTTP to an emulator.

Team `alpha` has two keys, team `beta` one; UNKNOWN_KEY belongs to no team. Tests
talk plain HTTP with httpx (not our client) where they check the wire as any
caller would see it: `client_for` puts one on an emulator in-process, `auth`
makes its bearer header.
"""

from __future__ import annotations

from datetime import UTC, datetime

import httpx

from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator

ALPHA_KEY = "wds-" + "a1" * 16
ALPHA_KEY_2 = "wds-" + "a2" * 16
BETA_KEY = "wds-" + "b1" * 16
UNKNOWN_KEY = "wds-" + "ff" * 16
START = datetime(2025, 6, 15, 12, 0, tzinfo=UTC)


def auth(key: str) -> dict[str, str]:
    """The bearer header for `key`."""
    return {"Authorization": f"Bearer {key}"}


def client_for(emulator: Emulator) -> httpx.AsyncClient:
    """A plain httpx client on `emulator` in-process (over ASGI); the caller closes it."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(emulator)), base_url="http://emulator.test")
