"""Live traffic: a small, seeded generator of API calls that keeps the demo moving.

It is a caller like any other: it sends real HTTP requests to the emulator's
own ASGI app (in-process, with a team's key), so activity, usage and jobs
change exactly as they would for an outside client. Only served in live mode.
The composition root hands it the way in (`open_client`): the generator never
builds the app itself.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Any

import httpx

from tui.emulator.core.teams import TeamDirectory

log = logging.getLogger(__name__)

TRAFFIC_HOSTS = ("acme-outdoor.com", "docs.northwind.dev", "blog.lumen-labs.io", "shop.fernwood.co")
PAUSE_SECONDS = (2.0, 7.0)


class TrafficGenerator:
    """Sends a plausible call every few seconds on behalf of a seeded choice of teams and keys."""

    def __init__(
        self, teams: TeamDirectory, seed: int, open_client: Callable[[], httpx.AsyncClient], speed: float = 1.0
    ) -> None:
        self._teams = teams
        # Pauses are in emulator time: with a clock run faster (`--clock-speed`), calls come faster
        # too, so a simulated day carries a day's traffic.
        self._speed = speed
        self._rng = random.Random(f"wds-emulator-traffic:{seed}")
        self._open_client = open_client

    def next_call(self) -> tuple[str, str, dict[str, Any]]:
        """(api key, path, JSON body) of the next call; deterministic from the seed."""
        rng = self._rng
        team = rng.choice(sorted(self._teams.values(), key=lambda t: t.name))
        key = rng.choice(team.api_keys)
        host = rng.choice(TRAFFIC_HOSTS)
        kind = rng.choices(("scrape", "map", "crawl", "batch"), (6, 3, 2, 1))[0]
        if kind == "scrape":
            return key, "/v2/scrape", {"url": f"https://{host}/{rng.choice(('', 'blog', 'pricing', 'about'))}"}
        if kind == "map":
            return key, "/v2/map", {"url": f"https://{host}", "limit": rng.choice((50, 200, 1000))}
        if kind == "crawl":
            return key, "/v2/crawl", {"url": f"https://{host}", "limit": rng.randint(5, 25)}
        urls = [f"https://{host}/{path}" for path in rng.sample(("", "blog", "pricing", "about", "docs"), 3)]
        return key, "/v2/batch/scrape", {"urls": urls}

    async def tick(self, client: httpx.AsyncClient) -> httpx.Response:
        """Send the next call through `client` (an httpx client on the emulator's own app)."""
        key, path, body = self.next_call()
        return await client.post(path, json=body, headers={"Authorization": f"Bearer {key}"})

    def client(self) -> httpx.AsyncClient:
        """An in-process client on the emulator's app, as the generator uses it."""
        return self._open_client()

    async def run(self) -> None:
        """Send a call every few seconds until cancelled."""
        async with self.client() as client:
            while True:
                await asyncio.sleep(self._rng.uniform(*PAUSE_SECONDS) / self._speed)
                try:
                    response = await self.tick(client)
                except Exception:
                    log.exception("a live traffic call failed")
                    continue
                if response.status_code >= 400:
                    log.debug("live traffic answered %s: %s", response.status_code, response.text[:200])
