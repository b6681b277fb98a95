"""Issue 9: crawl plans and batches are computed off the event loop, so other teams are served meanwhile."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

import httpx
import pytest

from tests.emulator.freeze_probe import activity_latencies_while, assert_loop_free
from tests.support.emulator_teams import ALPHA_KEY, auth
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.offload import PAGES, WORKERS, off_loop
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator
from tui.emulator.sites.registry import SiteRegistry

# They measure how long the event loop stalls, on the wall clock: alone, in the serial pass.
pytestmark = pytest.mark.serial

# Each new host is a new synthetic site to build: milliseconds each, seconds for hundreds.
NEW_HOSTS = [f"https://freeze-{i}.example/" for i in range(200)]
# The costliest patterns RE2 still accepts, as many as a crawl may send.
HEAVY_PATTERN = ".{0,100}" * 9


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Poll `condition` (set by worker threads) until it holds; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting for the worker threads"
        await asyncio.sleep(0.01)


@pytest.mark.socket
def test_a_batch_of_hundreds_of_new_sites_leaves_the_loop_free(emulator: Emulator, clock: ManualClock) -> None:
    with ServerThread(emulator) as base_url:

        def bad() -> httpx.Response:
            return httpx.post(
                f"{base_url}/v2/batch/scrape", json={"urls": NEW_HOSTS}, headers=auth(ALPHA_KEY), timeout=120
            )

        latencies, batch = activity_latencies_while(base_url, bad, lead_seconds=0.1, join_seconds=120)
        assert batch.error is None and batch.result.status_code == 200, batch.result
        assert_loop_free(latencies)
        clock.advance(3600)
        status = httpx.get(batch.result.json()["url"], headers=auth(ALPHA_KEY), params={"limit": 1000}).json()
        assert status["status"] == "completed" and status["total"] == len(NEW_HOSTS)


@pytest.mark.socket
def test_a_crawl_with_the_costliest_patterns_leaves_the_loop_free(emulator: Emulator) -> None:
    body = {
        "url": "https://heavy-patterns.example/",
        "crawlEntireDomain": True,
        "includePaths": [HEAVY_PATTERN + f"{i}|/" for i in range(30)],
        "excludePaths": [HEAVY_PATTERN + f"{i}$" for i in range(30)],
    }
    with ServerThread(emulator) as base_url:

        def bad() -> httpx.Response:
            return httpx.post(f"{base_url}/v2/crawl", json=body, headers=auth(ALPHA_KEY), timeout=120)

        latencies, crawl = activity_latencies_while(base_url, bad, lead_seconds=0.1, join_seconds=120)
        assert crawl.error is None and crawl.result.status_code == 200, crawl.result
        assert_loop_free(latencies)


@pytest.mark.socket
def test_a_status_page_of_a_thousand_documents_leaves_the_loop_free(emulator: Emulator, clock: ManualClock) -> None:
    urls = [f"https://lumen-labs.io/blog?page={i}" for i in range(1000)]
    with ServerThread(emulator) as base_url:
        created = httpx.post(
            f"{base_url}/v2/batch/scrape",
            headers=auth(ALPHA_KEY),
            timeout=60,
            json={"urls": urls, "formats": ["markdown", "html", "rawHtml", "links"]},
        )
        clock.advance(36_000)

        def bad() -> list[int]:  # megabytes of documents to render, by four pollers at once
            async def poll() -> list[int]:
                async with httpx.AsyncClient(headers=auth(ALPHA_KEY), timeout=60) as c:
                    pages = await asyncio.gather(
                        *(c.get(created.json()["url"], params={"limit": 1000}) for _ in range(4))
                    )
                return [len(page.json()["data"]) for page in pages]

            return asyncio.run(poll())

        latencies, pages = activity_latencies_while(base_url, bad, lead_seconds=0.05, join_seconds=60)
        assert pages.error is None and pages.result == [1000] * 4
        assert_loop_free(latencies)


async def test_off_loop_returns_raises_and_bounds_its_threads() -> None:
    running = 0
    most = 0
    lock = threading.Lock()
    gate = threading.Event()

    def work(n: int) -> int:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        gate.wait(5)
        with lock:
            running -= 1
        return n * 2

    tasks = [asyncio.create_task(off_loop(work, n)) for n in range(WORKERS * 3)]
    await until(lambda: running >= WORKERS)  # every worker is busy
    await asyncio.sleep(0.05)  # a worker more than the bound would have started by now
    gate.set()
    assert await asyncio.gather(*tasks) == [n * 2 for n in range(WORKERS * 3)]
    assert most == WORKERS

    def fails() -> None:
        raise ValueError("reported to the awaiting request")

    with pytest.raises(ValueError, match="awaiting request"):
        await off_loop(fails)


def test_the_site_registry_keeps_the_most_recent_sites_and_rebuilds_the_rest_identically() -> None:
    registry = SiteRegistry(seed=7, max_sites=3)
    first = registry.site("a.example")
    for host in ("b.example", "c.example", "docs.a.example", "d.example"):
        registry.site(host)
    assert registry.site("docs.a.example") is first  # used recently: kept
    rebuilt = registry.site("b.example")  # dropped when d came: built again, the same
    assert [page.url for page in rebuilt.pages()] == [
        page.url for page in SiteRegistry(seed=7).site("b.example").pages()
    ]


async def test_short_work_does_not_queue_behind_long_work() -> None:
    release = threading.Event()
    started: list[int] = []

    def long(seconds: float) -> bool:
        started.append(1)
        return release.wait(seconds)

    long_work = [asyncio.create_task(off_loop(long, 10)) for _ in range(WORKERS)]
    await until(lambda: len(started) == WORKERS)  # every plans worker is busy
    assert await asyncio.wait_for(off_loop(lambda: "page", lane=PAGES), 5) == "page"
    release.set()
    assert await asyncio.gather(*long_work) == [True] * WORKERS
