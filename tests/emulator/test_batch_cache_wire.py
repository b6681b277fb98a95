"""The wire shape of a batch URL that a cache-only scrape could not serve (plain httpx, no client)."""

from __future__ import annotations

import httpx

from tests.support.emulator_teams import ALPHA_KEY, auth
from tui.emulator.core.clock import ManualClock

URL = "https://acme-outdoor.com/about"


async def test_a_lockdown_miss_in_a_batch_is_the_single_scrape_404_as_a_document(
    client: httpx.AsyncClient, clock: ManualClock
) -> None:
    single = await client.post("/v2/scrape", json={"url": URL, "lockdown": True}, headers=auth(ALPHA_KEY))
    assert single.status_code == 404
    started = await client.post("/v2/batch/scrape", json={"urls": [URL], "lockdown": True}, headers=auth(ALPHA_KEY))
    job_id = started.json()["id"]
    clock.advance(60)
    status = (await client.get(f"/v2/batch/scrape/{job_id}", headers=auth(ALPHA_KEY))).json()
    assert (status["status"], status["completed"], status["total"], status["creditsUsed"]) == ("completed", 1, 1, 1)
    metadata = status["data"][0]["metadata"]
    assert status["data"][0] == {"metadata": metadata}, "no content: the target was never contacted"
    assert metadata == {
        "sourceURL": URL,
        "url": URL,
        "statusCode": 404,
        "error": single.json()["error"],
        "code": single.json()["code"],
        "cacheState": "miss",
        "creditsUsed": 1,
        "scrapeId": metadata["scrapeId"],
    }
    errors = (await client.get(f"/v2/batch/scrape/{job_id}/errors", headers=auth(ALPHA_KEY))).json()
    assert errors["errors"] == [
        {
            "id": metadata["scrapeId"],
            "timestamp": errors["errors"][0]["timestamp"],
            "url": URL,
            "error": single.json()["error"],
            "code": "SCRAPE_LOCKDOWN_CACHE_MISS",
        }
    ]
