"""Retention: what has left the contract's 24-hour windows is dropped, nothing still shown is.

Driven with a manual clock and `Emulator.retention.sweep()`, the step the
served emulator's background loop runs.
"""

from __future__ import annotations

from datetime import timedelta

from tests.support.emulator_teams import ALPHA_KEY, BETA_KEY, auth, client_for
from tui.emulator.core.activity import WINDOW
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.retention import RetentionSweeper
from tui.emulator.service import Emulator

HOUR = 3600.0


def team_id(emulator: Emulator, name: str = "alpha") -> str:
    return emulator.team_by_name(name).id  # type: ignore[union-attr]


async def scrape(c, url: str, key: str = ALPHA_KEY) -> str:  # type: ignore[no-untyped-def]
    r = await c.post("/v2/scrape", json={"url": url}, headers=auth(key))
    assert r.status_code == 200, r.text
    return r.json()["data"]["metadata"]["scrapeId"]


async def test_entries_and_jobs_older_than_the_window_are_dropped_newer_kept(
    emulator: Emulator, clock: ManualClock
) -> None:
    async with client_for(emulator) as c:
        old = await scrape(c, "https://acme-outdoor.com/blog")
        clock.advance(20 * HOUR)
        new = await scrape(c, "https://acme-outdoor.com/pricing")
        clock.advance(4 * HOUR)  # `old` is exactly 24 h old: out of the window; `new` is 4 h old
        dropped = emulator.retention.sweep()
        assert dropped["activity"] == 1 and dropped["jobs"] == 1
        assert emulator.jobs.get(old) is None and emulator.jobs.get(new) is not None
        assert [e.id for e in emulator.activity._all[team_id(emulator)]] == [new]
        assert (await c.get(f"/v2/scrape/{old}", headers=auth(ALPHA_KEY))).status_code == 404
        assert (await c.get(f"/v2/scrape/{new}", headers=auth(ALPHA_KEY))).status_code == 200
        page = (await c.get("/v2/team/activity", headers=auth(ALPHA_KEY))).json()
        assert [e["id"] for e in page["data"]] == [new]


async def test_a_sweep_changes_nothing_a_request_can_see(emulator: Emulator, clock: ManualClock) -> None:
    async with client_for(emulator) as c:
        for hour in range(30):
            await scrape(c, f"https://acme-outdoor.com/{('', 'blog', 'pricing', 'about')[hour % 4]}")
            await scrape(c, "https://docs.northwind.dev/", key=BETA_KEY)
            clock.advance(HOUR)

        async def everything() -> list[object]:
            seen = []
            for key in (ALPHA_KEY, BETA_KEY):
                for endpoint in ("", "&endpoint=scrape", "&endpoint=crawl"):
                    seen.append((await c.get(f"/v2/team/activity?limit=100{endpoint}", headers=auth(key))).json())
            return seen

        before = await everything()
        dropped = emulator.retention.sweep()
        assert dropped["activity"] == 2 * 7 and dropped["jobs"] == 2 * 7  # hours 0-6: 24 h old or more at hour 30
        assert await everything() == before
        # Counting every entry ever recorded is unchanged by dropping.
        assert emulator.activity.count(team_id(emulator)) == 30


async def test_a_job_whose_entry_is_still_listed_is_kept_past_its_own_expiry(
    emulator: Emulator, clock: ManualClock
) -> None:
    async with client_for(emulator) as c:
        await scrape(c, "https://acme-outdoor.com/")
    caller_team = emulator.team_by_name("alpha")
    from tui.contract.requests import ScrapeRequest
    from tui.emulator.core.teams import Caller

    # A job made in the past but listed now (the activity log moves an entry up to the team's newest time).
    job = emulator.jobs.create_scrape(
        Caller(caller_team, ALPHA_KEY),
        ScrapeRequest(url="https://acme-outdoor.com/about"),
        at=clock.now() - timedelta(hours=2),
    )
    clock.advance(23 * HOUR)  # the job is 25 h old; its entry, 23 h: still listed
    emulator.retention.sweep()
    assert emulator.jobs.get(job.id) is not None
    assert job.id in [e.id for e in emulator.activity.page(team_id(emulator), limit=100).entries]
    clock.advance(HOUR)
    emulator.retention.sweep()
    assert emulator.jobs.get(job.id) is None


async def test_a_job_never_listed_is_dropped_at_its_expiry(emulator: Emulator, clock: ManualClock) -> None:
    from tui.contract.requests import ScrapeRequest
    from tui.emulator.core.teams import Caller

    caller = Caller(emulator.team_by_name("alpha"), ALPHA_KEY)  # type: ignore[arg-type]
    job = emulator.jobs.create_scrape(caller, ScrapeRequest(url="https://acme-outdoor.com/"), record=False)
    clock.advance(24 * HOUR - 1)
    emulator.retention.sweep()
    assert emulator.jobs.get(job.id) is not None
    clock.advance(1)
    emulator.retention.sweep()
    assert emulator.jobs.get(job.id) is None


async def test_paging_across_a_sweep_neither_skips_nor_repeats(emulator: Emulator, clock: ManualClock) -> None:
    async with client_for(emulator) as c:
        for _ in range(12):
            await scrape(c, "https://acme-outdoor.com/")
            clock.advance(2 * HOUR)
        first = (await c.get("/v2/team/activity?limit=3", headers=auth(ALPHA_KEY))).json()
        emulator.retention.sweep()
        second = (await c.get(f"/v2/team/activity?limit=3&cursor={first['cursor']}", headers=auth(ALPHA_KEY))).json()
        ids = [e["id"] for e in first["data"] + second["data"]]
        assert len(ids) == len(set(ids)) == 6
        listed = [e.id for e in emulator.activity._all[team_id(emulator)]][::-1]
        assert ids == listed[:6]


def test_seeded_history_past_the_window_is_dropped_by_the_first_sweep(make_emulator, clock: ManualClock) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(history=True)
    entries = emulator.activity._all[team_id(emulator)]
    visible = [e for e in entries if e.created_at > clock.now() - WINDOW]
    assert len(visible) < len(entries)
    emulator.retention.sweep()
    assert emulator.activity._all[team_id(emulator)] == visible
    for entry in visible:
        if entry.endpoint in ("scrape", "crawl", "batch_scrape", "agent", "extract"):
            assert emulator.jobs.get(entry.id) is not None


async def test_finished_webhook_deliveries_are_forgotten_after_a_day(emulator: Emulator, clock: ManualClock) -> None:
    team = emulator.team_by_name("alpha")
    delivery = emulator.webhooks.enqueue(
        team,
        "job-1",
        "crawl.started",
        "https://hooks.example/x",  # type: ignore[arg-type]
        clock.now(),
        [],
    )
    delivery.state = "delivered"
    emulator.webhooks._pending.remove(delivery)
    pending = emulator.webhooks.enqueue(
        team,
        "job-2",
        "crawl.completed",
        "https://hooks.example/x",  # type: ignore[arg-type]
        clock.now(),
        [],
    )
    clock.advance(24 * HOUR + 1)
    emulator.retention.sweep()
    assert emulator.webhooks.log == [pending]


async def test_the_sweeper_runs_every_step_and_survives_a_failing_one() -> None:
    import asyncio

    sweeper = RetentionSweeper(interval=0.01)
    calls: list[str] = []

    def failing() -> int:
        calls.append("failing")
        raise RuntimeError("boom")

    sweeper.add("ok", lambda: calls.append("ok") or 1)  # type: ignore[func-returns-value]
    sweeper.add("failing", failing)
    task = asyncio.create_task(sweeper.run_loop())
    for _ in range(500):  # a poll with a deadline: under load 0.1 s may hold fewer than two sweeps
        if calls.count("failing") >= 2:
            break
        await asyncio.sleep(0.01)
    task.cancel()
    assert calls.count("failing") >= 2  # it went on after the first failure


def test_the_scrape_cache_keeps_at_most_its_bound_newest_first() -> None:
    from datetime import UTC, datetime

    from tui.emulator.jobs.scrape_cache import ScrapeCache

    cache = ScrapeCache(max_entries=3)
    at = datetime(2025, 6, 15, tzinfo=UTC)
    for n in range(5):
        cache.put("t", f"https://a.com/{n}", {"metadata": {}}, at)
    cache.put("t", "https://a.com/2", {"metadata": {}}, at)  # stored again: now the newest
    cache.put("t", "https://a.com/5", {"metadata": {}}, at)
    assert [cache.get("t", f"https://a.com/{n}") is not None for n in range(6)] == [
        False,
        False,
        True,
        False,
        True,
        True,
    ]


def test_the_site_registry_keeps_the_recently_used_sites_and_rebuilds_the_same_site() -> None:
    from tui.emulator.sites.registry import SiteRegistry

    registry = SiteRegistry(seed=3, max_sites=2)
    first = registry.site("one.com")
    registry.site("two.com")
    assert registry.site("one.com") is first  # used again: kept
    registry.site("three.com")  # two.com, the least recently used, goes
    assert len(registry._sites) == 2 and "two.com" not in registry._sites
    again = registry.site("two.com")
    assert [p.url for p in again.pages()] == [p.url for p in SiteRegistry(seed=3).site("two.com").pages()]


def test_a_scaled_clock_runs_faster_and_the_cli_builds_one(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from tui.emulator.cli import build_parser
    from tui.emulator.core import clock as clock_module
    from tui.emulator.core.clock import ScaledClock

    ticks = iter([100.0, 110.0])
    monkeypatch.setattr(clock_module.time, "monotonic", lambda: next(ticks))
    scaled = ScaledClock(96)
    start = scaled._start
    assert scaled.now() - start == timedelta(seconds=10 * 96)
    assert build_parser().parse_args(["--clock-speed", "96"]).clock_speed == 96
    assert build_parser().parse_args([]).clock_speed == 1.0
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--clock-speed", "0"])


def test_live_traffic_follows_the_clocks_speed(make_emulator) -> None:  # type: ignore[no-untyped-def]
    from tui.emulator.core.clock import ScaledClock

    assert make_emulator(clock=ScaledClock(96)).traffic._speed == 96
    assert make_emulator().traffic._speed == 1.0


async def test_a_dropped_crawl_or_batch_still_answers_job_expired(emulator: Emulator, clock: ManualClock) -> None:
    async with client_for(emulator) as c:
        crawl = await c.post(
            "/v2/crawl", json={"url": "https://acme-outdoor.com/", "limit": 2}, headers=auth(ALPHA_KEY)
        )
        batch = await c.post("/v2/batch/scrape", json={"urls": ["https://acme-outdoor.com/"]}, headers=auth(ALPHA_KEY))
        crawl_id, batch_id = crawl.json()["id"], batch.json()["id"]
        clock.advance(25 * HOUR)
        emulator.retention.sweep()
        assert emulator.jobs.get(crawl_id) is None and emulator.jobs.get(batch_id) is None
        for path in (f"/v2/crawl/{crawl_id}", f"/v2/batch/scrape/{batch_id}"):
            r = await c.get(path, headers=auth(ALPHA_KEY))
            assert r.status_code == 404 and r.json()["error"] == "Job expired.", r.text
        # Another team, or the wrong kind, learns nothing of the id.
        other = await c.get(f"/v2/crawl/{crawl_id}", headers=auth(BETA_KEY))
        wrong_kind = await c.get(f"/v2/batch/scrape/{crawl_id}", headers=auth(ALPHA_KEY))
        assert other.json()["error"] == wrong_kind.json()["error"] == "Job not found."
