"""Interact replays a scrape in a real browser: the synthetic sites answer the session's requests.

Through the whole emulator app (routes, manager, backend, Chromium): the page a
first interact call opens is the scraped page (same title, same HTML), executed
code can visit the rest of the made-up site over https, a missing page answers
404, and pages on 127.0.0.1 still come from the real server. Nothing leaves
the machine: the synthetic hosts never reach DNS.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.browser.proxied_sessions import Serve
from tui.emulator.browser.chromium import ChromiumBackend
from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator

pytestmark = pytest.mark.browser

KEY = "wds-" + "d4" * 16
HEADERS = {"Authorization": f"Bearer {KEY}"}
HOST = "northwind.dev"


@pytest.fixture
async def api(backend: ChromiumBackend, serve: Serve) -> AsyncIterator[tuple[Emulator, httpx.AsyncClient]]:
    # The backend is built without a resolver: the emulator wires its sites in by itself.
    emulator = Emulator.from_keys({"delta": [KEY]}, browser_backend=backend, history=False)
    host = await serve(create_app(emulator))
    async with httpx.AsyncClient(base_url=f"http://{host}", headers=HEADERS, timeout=90) as client:
        yield emulator, client
    await emulator.aclose()


async def scrape(client: httpx.AsyncClient, url: str) -> dict[str, Any]:
    response = await client.post("/v2/scrape", json={"url": url, "formats": ["markdown", "rawHtml"]})
    assert response.status_code == 200, response.text
    return response.json()["data"]


async def interact(client: httpx.AsyncClient, job_id: str, code: str, language: str = "python") -> dict[str, Any]:
    response = await client.post(f"/v2/scrape/{job_id}/interact", json={"code": code, "language": language})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body.get("error") is None, body
    return body


async def test_the_first_interact_opens_the_scraped_page(api: tuple[Emulator, httpx.AsyncClient]) -> None:
    _, client = api
    document = await scrape(client, f"https://{HOST}/blog")
    job_id = document["metadata"]["scrapeId"]
    opened = await interact(client, job_id, "[page.url(), await page.title()]", language="node")
    assert json.loads(opened["result"]) == [f"https://{HOST}/blog", document["metadata"]["title"]]
    # The browser got the very HTML the scrape returned as rawHtml.
    again = await interact(client, job_id, "await page.evaluate('document.documentElement.outerHTML')", "node")
    assert again["sessionId"] == opened["sessionId"]
    assert "<h1>" in again["result"] and document["metadata"]["title"] in again["result"]
    served = await interact(
        client, job_id, f"r = await page.goto('https://{HOST}/blog')\nprint(await r.text(), end='')"
    )
    assert served["stdout"] == document["rawHtml"]


async def test_executed_code_visits_the_rest_of_the_site_over_https(
    api: tuple[Emulator, httpx.AsyncClient], site: str
) -> None:
    _, client = api
    job_id = (await scrape(client, f"https://{HOST}/"))["metadata"]["scrapeId"]
    about = await scrape(client, f"https://{HOST}/about")
    docs = await scrape(client, f"https://docs.{HOST}/quickstart")
    missing = await scrape(client, f"https://{HOST}/no-such-page")
    assert missing["metadata"]["statusCode"] == 404
    code = "\n".join(
        f"r = await page.goto({url!r})\nprint(r.status, await page.title(), sep='|')"
        for url in (
            f"https://{HOST}/about",
            f"https://docs.{HOST}/quickstart",
            f"https://{HOST}/no-such-page",
            f"{site}/title/Served%20for%20real",
        )
    )
    code += f"\nr = await page.goto('https://{HOST}/robots.txt')\nprint(r.status, r.headers['content-type'], sep='|')"
    code += "\nprint('Disallow: /admin' in await r.text())"
    body = await interact(client, job_id, code)
    assert body["stdout"].splitlines() == [
        f"200|{about['metadata']['title']}",
        f"200|{docs['metadata']['title']}",
        f"404|{missing['metadata']['title']}",
        "200|Served for real",  # loopback pages are not intercepted
        "200|text/plain; charset=utf-8",
        "True",
    ]
    # bash's agent-browser drives the same browser, so it sees the same site.
    cli = await interact(client, job_id, f"agent-browser open https://{HOST}/about && agent-browser get title", "bash")
    assert cli["stdout"].splitlines()[-1] == about["metadata"]["title"]


async def test_a_client_side_page_renders_later_and_a_slow_page_times_out(
    api: tuple[Emulator, httpx.AsyncClient],
) -> None:
    emulator, client = api
    slow = next(page.url for page in emulator.sites.site(HOST).pages() if page.section == "reports")
    session = (await client.post("/v2/browser", json={"ttl": 120})).json()
    code = f"""
r = await page.goto('https://{HOST}/products')
print(await page.inner_text('main h1'), 'h2' in await page.inner_html('main'))
await page.wait_for_selector('main h2', timeout=10_000)
print('rendered')
try:
    await page.goto({slow!r}, timeout=1_500)
except Exception as exc:
    print(type(exc).__name__)
"""
    executed = await client.post(f"/v2/browser/{session['id']}/execute", json={"code": code, "language": "python"})
    body = executed.json()
    # At first only the "Loading…" placeholder; the site's script fills in the sections later.
    assert body["stdout"].splitlines() == [
        f"Products | {emulator.sites.site(HOST).brand} False",
        "rendered",
        "TimeoutError",
    ]
