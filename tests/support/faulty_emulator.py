"""The emulator served on a loopback socket, with its fault rules driven through the admin routes.

For tests of any client meeting a faulty service (a 503, a long latency, a reset, a slow body):
`faulty_emulator(keys)` serves an emulator (`ServerThread`) and yields its base URL and its
`Faults`; `Faults.add(**rule)` posts a rule as a tester would (the JSON fields of
`POST /_emulator/faults`), `fired(id)` says how often it fired, `clear()` removes them all.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

ADMIN_TOKEN = "emu-" + "0f" * 16


class Faults:
    """The fault rules of the emulator at `base_url`."""

    def __init__(self, base_url: str) -> None:
        self.http = httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=10)

    def add(self, **rule: Any) -> int:
        """Add a rule; its id."""
        answer = self.http.post("/_emulator/faults", json=rule)
        assert answer.status_code == 201, answer.text
        return int(answer.json()["rule"]["id"])

    def rules(self) -> list[dict[str, Any]]:
        return list(self.http.get("/_emulator/faults").json()["rules"])

    def rule(self, rule_id: int) -> dict[str, Any]:
        return next(rule for rule in self.rules() if rule["id"] == rule_id)

    def fired(self, rule_id: int) -> int:
        """How many requests met rule `rule_id`."""
        return int(self.rule(rule_id)["fired"])

    def clear(self) -> None:
        self.http.delete("/_emulator/faults").raise_for_status()


@contextmanager
def faulty_emulator(keys: dict[str, list[str]], **options: Any) -> Iterator[tuple[str, Faults]]:
    """An emulator with one team per name in `keys` (no seeded history unless asked), served until the block ends."""
    emulator = Emulator.from_keys(keys, **{"admin_token": ADMIN_TOKEN, "history": False, **options})
    with ServerThread(emulator) as base_url:
        faults = Faults(base_url)
        try:
            yield base_url, faults
        finally:
            faults.http.close()
