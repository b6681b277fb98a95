"""Authentication, endpoint by endpoint: an unknown key is 401 `AuthenticationError` through the
client; a missing bearer is 401 on the wire; the key never shows in an error."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tests.contract.service import SITE, UNKNOWN_ID, Service
from tests.support.emulator_teams import ALPHA_KEY, ALPHA_KEY_2, UNKNOWN_KEY
from tui.api.client import WdsClient
from tui.api.errors import AuthenticationError

Call = Callable[[WdsClient], Awaitable[Any]]

# method, path (as sent raw), and the client call that reaches it
ENDPOINTS: list[tuple[str, str, Call]] = [
    ("GET", "/v2/team/token-usage/historical", lambda c: c.team.token_usage_historical(by_api_key=True)),
    ("GET", "/v2/team/activity", lambda c: c.team.activity(endpoint="crawl", limit=10)),
    ("GET", "/v2/team/activity", lambda c: c.team.iter_activity().to_list()),
    ("GET", "/v2/team/queue-status", lambda c: c.team.queue_status()),
    ("GET", "/v2/concurrency-check", lambda c: c.team.concurrency_check()),
    ("GET", "/v2/team/credit-usage", lambda c: c.team.credit_usage()),
    ("POST", "/v2/support/docs-search", lambda c: c.support.docs_search("how do I crawl?")),
    ("POST", "/v2/support/ask", lambda c: c.support.ask("why did my crawl fail?")),
    ("POST", "/v2/browser", lambda c: c.browser.create(ttl=60)),
    ("GET", "/v2/browser", lambda c: c.browser.list(status="active")),
    ("DELETE", f"/v2/browser/{UNKNOWN_ID}", lambda c: c.browser.delete(UNKNOWN_ID)),
    ("POST", f"/v2/browser/{UNKNOWN_ID}/execute", lambda c: c.browser.execute(UNKNOWN_ID, "1")),
    ("POST", f"/v2/scrape/{UNKNOWN_ID}/interact", lambda c: c.scrape.interact(UNKNOWN_ID, code="1")),
    ("DELETE", f"/v2/scrape/{UNKNOWN_ID}/interact", lambda c: c.scrape.stop_interaction(UNKNOWN_ID)),
    ("POST", "/v2/batch/scrape", lambda c: c.batch.create([f"{SITE}/about"])),
    ("GET", f"/v2/batch/scrape/{UNKNOWN_ID}", lambda c: c.batch.get(UNKNOWN_ID)),
    ("POST", "/v2/map", lambda c: c.map(SITE)),
    ("POST", "/v2/crawl/params-preview", lambda c: c.crawl.params_preview(SITE, "only the blog")),
    ("GET", "/v2/crawl/active", lambda c: c.crawl.active()),
    ("POST", "/v2/crawl", lambda c: c.crawl.start(SITE, limit=2)),
    ("GET", f"/v2/crawl/{UNKNOWN_ID}", lambda c: c.crawl.get(UNKNOWN_ID)),
    ("POST", "/v2/scrape", lambda c: c.scrape.create(f"{SITE}/about")),
    ("GET", f"/v2/scrape/{UNKNOWN_ID}", lambda c: c.scrape.get(UNKNOWN_ID)),
    ("GET", f"/v2/extract/{UNKNOWN_ID}", lambda c: c.extract.get(UNKNOWN_ID)),
]
IDS = [f"{method} {path.replace(UNKNOWN_ID, '{id}')}" for method, path, _ in ENDPOINTS]
IDS[2] += " (iter_activity)"


@pytest.mark.parametrize(("method", "path", "call"), ENDPOINTS, ids=IDS)
async def test_an_unknown_key_is_401(service: Service, method: str, path: str, call: Call) -> None:
    before = service.sent
    with pytest.raises(AuthenticationError) as info:
        await call(service.client(UNKNOWN_KEY))
    assert info.value.status == 401 and info.value.message == "Unauthorized: Invalid token"
    assert service.sent == before + 1, "a 401 is not retried"
    assert UNKNOWN_KEY not in str(info.value) and UNKNOWN_KEY not in repr(info.value)
    assert service.emulator.activity.count(service.team().id) == 0, "a refused call is not recorded"


@pytest.mark.parametrize(("method", "path"), [(method, path) for method, path, _ in ENDPOINTS], ids=IDS)
async def test_a_missing_bearer_is_401(service: Service, method: str, path: str) -> None:
    response = await service.raw(method, path, json={} if method == "POST" else None, key=None)
    assert response.status_code == 401
    assert response.json()["error"] == "Unauthorized"


async def test_every_key_of_a_team_acts_for_that_team(service: Service) -> None:
    """The second key of `alpha` sees what the first one made: requests are scoped to the key's team."""
    started = await service.client(ALPHA_KEY).crawl.start(SITE, limit=2)
    assert (await service.client(ALPHA_KEY_2).crawl.get(started.id)).total == 2
