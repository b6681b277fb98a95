"""Seeded history (deterministic, job-backed) and the live traffic generator."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from tests.support.emulator_teams import ALPHA_KEY, auth, client_for
from tui.emulator.core.activity import ENDPOINT_KINDS, WINDOW
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator
from tui.emulator.traffic import TrafficGenerator


def history(emulator: Emulator, team: str = "alpha") -> list[tuple[str, str, str, str]]:
    team_id = emulator.team_by_name(team).id  # type: ignore[union-attr]
    entries = emulator.activity._all[team_id]
    return [(e.id, e.endpoint, e.target, e.created_at.isoformat()) for e in entries]


def test_same_seed_same_history_other_seed_other_history(make_emulator, clock: ManualClock) -> None:  # type: ignore[no-untyped-def]
    first, second = make_emulator(history=True), make_emulator(history=True)
    assert history(first) == history(second)
    assert history(make_emulator(history=True, seed=8)) != history(first)


def test_history_is_a_day_and_a_half_of_every_kind(make_emulator, clock: ManualClock) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(history=True)
    entries = history(emulator)
    assert 200 <= len(entries) <= 330
    kinds = Counter(kind for _, kind, _, _ in entries)
    assert set(kinds) >= set(ENDPOINT_KINDS) - {"llmstxt", "deep_research"}
    times = [t for *_, t in entries]
    assert times == sorted(times)
    oldest = emulator.activity._all[emulator.team_by_name("alpha").id][0].created_at  # type: ignore[union-attr]
    assert clock.now() - oldest > WINDOW  # some of it has already left the 24 h window


def test_retrievable_entries_are_backed_by_jobs_of_the_team(make_emulator) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(history=True)
    alpha = emulator.team_by_name("alpha")
    job_kinds = {
        "scrape": "scrape",
        "crawl": "crawl",
        "batch_scrape": "batch_scrape",
        "agent": "agent",
        "extract": "agent",
    }
    backed = 0
    for entry_id, kind, _target, _ in history(emulator):
        if kind in job_kinds:
            job = emulator.jobs.get(entry_id)
            assert job is not None and job.kind == job_kinds[kind] and job.team_id == alpha.id
            backed += 1
    assert backed > 100


async def test_a_seeded_crawl_opens_through_its_retrieval_endpoint(make_emulator) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(history=True)
    # The newest: crawls older than a day have expired, as the service's do.
    crawl_id = [entry_id for entry_id, kind, _, _ in history(emulator) if kind == "crawl"][-1]
    async with client_for(emulator) as c:
        r = await c.get(f"/v2/crawl/{crawl_id}", headers=auth(ALPHA_KEY))
        assert r.status_code == 200 and r.json()["status"] in ("completed", "failed")


def test_seeded_usage_matches_seeded_activity(make_emulator, clock: ManualClock) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(history=True)
    alpha = emulator.team_by_name("alpha")
    this_month = emulator.usage.credits_in_month(alpha.id, clock.now())
    assert this_month > 0
    assert alpha.credits_remaining < 100_000  # seeded calls were billed


def test_traffic_is_deterministic_from_the_seed(make_emulator) -> None:  # type: ignore[no-untyped-def]
    first = make_emulator().traffic
    second = make_emulator().traffic
    assert [first.next_call() for _ in range(20)] == [second.next_call() for _ in range(20)]
    other = make_emulator(seed=99).traffic
    assert [other.next_call() for _ in range(20)] != [make_emulator().traffic.next_call() for _ in range(20)]


async def test_traffic_goes_through_the_api_like_any_caller(emulator: Emulator, clock: ManualClock) -> None:
    generator = emulator.traffic
    before = sum(emulator.activity.count(t.id) for t in emulator.teams.values())
    async with generator.client() as client:
        for _ in range(8):
            response = await generator.tick(client)
            assert response.status_code == 200, response.text
            clock.advance(5)
    after = sum(emulator.activity.count(t.id) for t in emulator.teams.values())
    assert after == before + 8
    used = sum(emulator.usage.credits_in_month(t.id, clock.now()) for t in emulator.teams.values())
    assert used > 0


def test_live_mode_registers_the_generator_but_starts_nothing_by_itself(make_emulator) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(live=True)
    assert any(getattr(loop, "__self__", None).__class__ is TrafficGenerator for loop in emulator.background.loops)
    assert not emulator.background.tasks


async def test_window_moves_with_the_clock_over_http(make_emulator, clock: ManualClock) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(history=True)
    async with client_for(emulator) as c:
        seen = 0
        cursor = None
        while True:
            params = {"limit": 100, **({"cursor": cursor} if cursor else {})}
            body = (await c.get("/v2/team/activity", params=params, headers=auth(ALPHA_KEY))).json()
            seen += len(body["data"])
            cursor = body["cursor"]
            if cursor is None:
                break
        clock.advance(timedelta(hours=12).total_seconds())
        body = (await c.get("/v2/team/activity", params={"limit": 100}, headers=auth(ALPHA_KEY))).json()
        assert isinstance(body["data"], list)
    total = len(history(emulator))
    assert 0 < seen < total
