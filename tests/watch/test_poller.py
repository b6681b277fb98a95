"""The poller on an in-process emulator: what it feeds the monitor, what it asks (and does not ask) again,
and how a failing service is told: as health, in the stats, once per change."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from tests.watch.recording_feed import CountingTransport, RecordingFeed, client_on, seeded
from tui.api.client import WdsClient
from tui.api.resources.jobs import STATUS_KINDS
from tui.emulator.core.clock import ManualClock
from tui.monitor.watch.poller import NOT_OFFERED, Intervals, Poller

MISSING_PAGE = "https://acme-outdoor.com/product/11"


@pytest.fixture
def clock() -> ManualClock:
    from tests.watch.recording_feed import NOW

    return ManualClock(NOW)


@pytest.fixture
def transport(clock: ManualClock) -> CountingTransport:
    return CountingTransport(seeded(clock=clock))


@pytest.fixture
async def client(transport: CountingTransport) -> AsyncIterator[WdsClient]:
    async with client_on(transport) as wds:
        yield wds


async def all_entries(client: WdsClient) -> list[str]:
    return [entry.id async for entry in client.team.iter_activity()]


async def until(predicate: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
    """Wait for `predicate` (the polls run every few hundredths of a second; a loaded machine is slower)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


async def test_the_first_poll_feeds_the_whole_day_then_only_what_is_new(client: WdsClient) -> None:
    feed = RecordingFeed()
    poller = Poller(client, feed)
    await poller.poll_activity()
    (first,) = feed.named("saw_activity")
    day = await all_entries(client)
    assert sorted(entry.id for entry in first[0][0]) == sorted(day)
    assert [entry.created_at for entry in first[0][0]] == sorted(entry.created_at for entry in first[0][0])

    await poller.poll_activity()
    assert len(feed.named("saw_activity")) == 1  # nothing new: nothing fed

    made = await client.scrape.create(MISSING_PAGE)
    await poller.poll_activity()
    fed_activity = feed.named("saw_activity")
    assert len(fed_activity) == 2
    new = fed_activity[1][0][0]
    assert [entry.target for entry in new] == [MISSING_PAGE]
    fed = {args[1]: args[2] for args, _ in feed.named("saw_job")}
    assert made.data is not None and fed[new[0].id].failed


async def test_a_finished_job_is_asked_once_and_every_status_kind_is_asked(
    client: WdsClient, transport: CountingTransport
) -> None:
    feed = RecordingFeed()
    poller = Poller(client, feed)
    await poller.poll_activity()
    entries = feed.named("saw_activity")[0][0][0]
    retrievable = {(entry.endpoint, entry.id) for entry in entries if entry.endpoint in STATUS_KINDS}
    fed = {(args[0], args[1]) for args, _ in feed.named("saw_job")}
    assert fed == retrievable
    unfinished = {(args[0], args[1]) for args, _ in feed.named("saw_job") if not args[2].finished}
    assert poller.jobs.waiting == len(unfinished)

    asked_before = len(transport.paths)
    await poller.poll_activity()
    asked = transport.paths[asked_before:]
    assert asked.count("/v2/team/activity") == 1
    assert len(asked) == 1 + len(unfinished)  # only the jobs still running are asked again
    crawls = [args for args, _ in feed.named("saw_crawl")]
    assert {kind for kind, _, _ in crawls} <= {"crawl", "batch"}
    assert {job_id for _, job_id, _ in crawls} == {
        job_id for kind, job_id in retrievable if kind in ("crawl", "batch_scrape")
    }


async def test_a_429_pauses_the_job_states_for_its_retry_after(clock: ManualClock) -> None:
    transport = CountingTransport(seeded(clock=clock))
    transport.scripted["/v2/scrape/"] = httpx.Response(
        429,
        headers={"Retry-After": "120"},
        json={"success": False, "error": "Too many requests", "code": "RATE_LIMITED"},
    )
    now = [1000.0]
    async with client_on(transport) as client:
        poller = Poller(client, RecordingFeed(), monotonic=lambda: now[0])
        await poller.poll_activity()
        assert 119 <= poller.jobs.paused_for() <= 120
        assert poller.stats.errors["job_status"] == 1
        asked = transport.asked("/v2/scrape/")
        assert asked >= 1
        await poller.poll_activity()  # still paused: no job is asked
        assert transport.asked("/v2/scrape/") == asked
        now[0] += 121
        del transport.scripted["/v2/scrape/"]
        await poller.poll_activity()
        assert transport.asked("/v2/scrape/") > asked
        assert poller.jobs.paused_for() == 0


async def test_an_unreachable_service_is_health_counted_and_told_once_until_it_recovers(
    client: WdsClient, transport: CountingTransport
) -> None:
    feed = RecordingFeed()
    changes: list[tuple[str, str | None]] = []
    poller = Poller(client, feed, on_change=lambda endpoint, problem: changes.append((endpoint, problem)))
    transport.broken = httpx.ConnectError("connection refused")
    for _ in range(3):
        await poller.poll_sessions()
    assert poller.stats.errors["sessions"] == 3 and poller.stats.polls["sessions"] == 3
    assert [args[0] for args, _ in feed.named("saw_health")] == ["unreachable"] * 3
    assert len(changes) == 1 and changes[0][0] == "sessions" and "reach" in (changes[0][1] or "")
    transport.broken = None
    await poller.poll_sessions()
    assert changes[-1] == ("sessions", None)
    assert feed.named("saw_health")[-1][0][0] == "ok"
    assert len(feed.named("saw_sessions")) == 1


async def test_a_refused_key_is_told_as_refused(transport: CountingTransport) -> None:
    feed = RecordingFeed()
    async with WdsClient(
        "http://emulator.test", "wds-" + "00" * 16, http_client=httpx.AsyncClient(transport=transport), max_retries=0
    ) as stranger:
        await Poller(stranger, feed).poll_credits()
    assert [args[0] for args, _ in feed.named("saw_health")] == ["refused"]


async def test_a_call_the_service_does_not_offer_is_told_once_and_not_asked_again(
    client: WdsClient, transport: CountingTransport
) -> None:
    transport.scripted["/v2/team/queue-status"] = httpx.Response(404, json={"success": False, "error": "Not found"})
    changes: list[tuple[str, str | None]] = []
    poller = Poller(
        client, RecordingFeed(), intervals=Intervals.every(0.01), on_change=lambda *change: changes.append(change)
    )
    running = asyncio.create_task(poller.run())
    await until(lambda: transport.asked("/v2/team/credit-usage") > 3, "the other polls to go on")
    poller.stop()
    await asyncio.wait_for(running, 5)
    assert transport.asked("/v2/team/queue-status") == 1
    assert ("queue", NOT_OFFERED) in changes
    assert transport.asked("/v2/team/credit-usage") > 1  # the others went on


async def test_a_crawl_that_leaves_the_active_list_is_read_once_more_for_its_end(
    client: WdsClient, clock: ManualClock
) -> None:
    feed = RecordingFeed()
    poller = Poller(client, feed)
    crawl = await client.crawl.start("https://acme-outdoor.com/", limit=4)
    await poller.poll_crawls()
    assert [(args[1], args[2].status) for args, _ in feed.named("saw_crawl")] == [(crawl.id, "scraping")]
    clock.advance(600)
    await poller.poll_crawls()
    last = feed.named("saw_crawl")[-1][0]
    assert last[1] == crawl.id and last[2].status == "completed"
    count = len(feed.named("saw_crawl"))
    await poller.poll_crawls()
    assert len(feed.named("saw_crawl")) == count  # gone from the list and read: not asked again


async def test_run_feeds_every_endpoint_and_stop_ends_it(client: WdsClient) -> None:
    feed = RecordingFeed()
    poller = Poller(client, feed, intervals=Intervals.every(0.05))
    running = asyncio.create_task(poller.run())
    wanted = {"saw_activity", "saw_job", "saw_credits", "saw_queue", "saw_token_usage", "saw_sessions", "tick"}
    await until(lambda: wanted <= {name for name, _, _ in feed.calls}, "every feed to be told")
    poller.stop()
    await asyncio.wait_for(running, 5)
    called = {name for name, _, _ in feed.calls}
    assert {"saw_activity", "saw_job", "saw_credits", "saw_queue", "saw_token_usage", "saw_sessions", "tick"} <= called
    assert set(poller.stats.polls) >= {
        "activity",
        "job_status",
        "crawls",
        "credits",
        "queue",
        "token_usage",
        "sessions",
    }
    assert not poller.stats.errors


async def test_a_feed_that_raises_is_told_once_and_the_polls_go_on(client: WdsClient) -> None:
    class Broken(RecordingFeed):
        def saw_credits(self, balance: object) -> None:
            raise ValueError("a bug in the monitor")

    feed = Broken()
    changes: list[tuple[str, str | None]] = []
    poller = Poller(client, feed, intervals=Intervals.every(0.02), on_change=lambda *change: changes.append(change))
    running = asyncio.create_task(poller.run())
    await until(lambda: poller.stats.polls["credits"] > 2 and len(feed.named("saw_sessions")) > 2, "the polls to go on")
    poller.stop()
    await asyncio.wait_for(running, 5)
    assert changes.count(("watch", "ValueError: a bug in the monitor")) == 1
    assert poller.stats.polls["credits"] > 2  # asked again and again, the error told once
    assert len(feed.named("saw_sessions")) > 2
