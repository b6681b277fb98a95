"""Team activity: recording, the 24-hour window, cursor paging and its guarantees."""

from __future__ import annotations

import base64
import math
import random

import httpx

from tests.support.emulator_teams import ALPHA_KEY, ALPHA_KEY_2, BETA_KEY, auth
from tui.emulator.core.activity import ENDPOINT_KINDS, ActivityLog
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.errors import InvalidRequest
from tui.emulator.http.errors import api_error_for
from tui.emulator.service import Emulator


def fill(emulator: Emulator, team: str, count: int, endpoint: str = "scrape", step: float = 1.0) -> list[str]:
    team_obj = emulator.team_by_name(team)
    assert team_obj is not None
    ids = []
    for i in range(count):
        ids.append(emulator.activity.record(team_obj.id, endpoint, f"https://example.com/{i}").id)
        emulator.clock.advance(step)  # type: ignore[attr-defined]
    return ids


# --- the log itself -----------------------------------------------------------


def walk(log: ActivityLog, team: str, endpoint: str | None = None, limit: int = 7, during=None) -> list[str]:
    """Page through everything; `during(page_number)` may add entries between pages."""
    seen: list[str] = []
    cursor = None
    page_number = 0
    while True:
        page = log.page(team, endpoint=endpoint, limit=limit, cursor=cursor)
        seen.extend(e.id for e in page.entries)
        if during is not None:
            during(page_number)
        page_number += 1
        if not page.has_more:
            assert page.next_cursor is None
            return seen
        cursor = page.next_cursor


def test_paging_yields_every_entry_exactly_once_newest_first(clock: ManualClock) -> None:
    log = ActivityLog(clock)
    ids = []
    for i in range(53):
        ids.append(log.record("t", "scrape", f"u{i}").id)
        clock.advance(10)
    assert walk(log, "t") == ids[::-1]


def test_paging_is_exactly_once_while_entries_keep_arriving(clock: ManualClock) -> None:
    log = ActivityLog(clock)
    rng = random.Random(3)
    before = [log.record("t", rng.choice(["scrape", "map"]), "x").id for _ in range(120)]
    arrived: list[str] = []

    def insert_between_pages(_: int) -> None:
        clock.advance(1)
        for _ in range(rng.randint(1, 9)):
            arrived.append(log.record("t", rng.choice(["scrape", "map"]), "new").id)

    seen = walk(log, "t", limit=10, during=insert_between_pages)
    assert len(seen) == len(set(seen)), "an entry was returned twice"
    assert seen == before[::-1], "the walk must cover exactly the entries that existed when it began"
    assert arrived and not set(arrived) & set(seen)
    # A new walk starts with the newest arrivals.
    assert log.page("t", limit=1).entries[0].id == arrived[-1]


def test_filtered_walk_only_sees_that_endpoint(clock: ManualClock) -> None:
    log = ActivityLog(clock)
    expected = []
    for i in range(40):
        entry = log.record("t", "crawl" if i % 3 == 0 else "scrape", "x")
        if entry.endpoint == "crawl":
            expected.append(entry.id)
    assert walk(log, "t", endpoint="crawl", limit=4) == expected[::-1]


def test_only_the_last_24_hours_are_returned(clock: ManualClock) -> None:
    log = ActivityLog(clock)
    old = log.record("t", "scrape", "old")
    clock.advance(3600)
    recent = [log.record("t", "scrape", f"r{i}").id for i in range(3)]
    clock.advance(23 * 3600 - 1)  # `old` is now 1 s younger than 24 h
    assert old.id in walk(log, "t", limit=2)
    clock.advance(1)  # exactly 24 h: out of the window
    assert walk(log, "t", limit=2) == recent[::-1]
    clock.advance(3600)
    assert walk(log, "t") == []


def test_a_page_touches_only_what_it_returns(clock: ManualClock) -> None:
    """Structural O(page) check: binary-search probes plus returned entries, never a scan."""
    costs = {}
    for size in (1_000, 100_000):
        log = ActivityLog(clock)
        for _ in range(size):
            log.record("t", "scrape", "x")
        page = log.page("t", limit=50)
        for _ in range(5):  # deep in the history, through cursors
            page = log.page("t", limit=50, cursor=page.next_cursor)
        assert len(page.entries) == 50
        costs[size] = log.last_page_reads
        assert log.last_page_reads <= 50 + 2 * (math.ceil(math.log2(size)) + 1)
    # 100x the history costs a handful of extra probes, not 100x the reads.
    assert costs[100_000] - costs[1_000] <= 2 * 8


def test_recording_out_of_time_order_keeps_the_log_sorted(clock: ManualClock) -> None:
    log = ActivityLog(clock)
    first = log.record("t", "scrape", "a")
    late = log.record("t", "scrape", "b", at=first.created_at.replace(year=2020))
    assert late.created_at == first.created_at
    assert walk(log, "t") == [late.id, first.id]


def test_bad_cursors_are_rejected(clock: ManualClock) -> None:
    log = ActivityLog(clock)
    for _ in range(5):
        log.record("t", "scrape", "x")
    page = log.page("t", limit=2)
    for bad in ("not-base64!!", "e30", base64.urlsafe_b64encode(b'{"s": -4, "e": null}').decode(), "AAAA"):
        try:
            log.page("t", cursor=bad)
        except InvalidRequest as exc:
            assert api_error_for(exc).status == 400 and "cursor" in exc.message.lower()
        else:
            raise AssertionError(f"cursor {bad!r} was accepted")
    try:
        log.page("t", endpoint="crawl", cursor=page.next_cursor)
    except InvalidRequest as exc:
        assert api_error_for(exc).status == 400 and "different endpoint" in exc.message
    else:
        raise AssertionError("a cursor of another filter was accepted")


# --- over HTTP ------------------------------------------------------------------


async def test_activity_route_pages_with_opaque_cursor(client: httpx.AsyncClient, emulator: Emulator) -> None:
    ids = fill(emulator, "alpha", 5)
    r = await client.get("/v2/team/activity", params={"limit": 2}, headers=auth(ALPHA_KEY))
    assert r.status_code == 200
    body = r.json()
    assert body["success"] is True and body["has_more"] is True
    assert [e["id"] for e in body["data"]] == ids[::-1][:2]
    entry = body["data"][0]
    assert set(entry) == {"id", "endpoint", "api_version", "created_at", "target"}
    assert entry["api_version"] == "v2" and entry["created_at"].endswith("Z") and entry["endpoint"] == "scrape"
    cursor = body["cursor"]
    assert isinstance(cursor, str) and "=" not in cursor and "+" not in cursor and "/" not in cursor

    collected = [e["id"] for e in body["data"]]
    while cursor is not None:
        r = await client.get("/v2/team/activity", params={"limit": 2, "cursor": cursor}, headers=auth(ALPHA_KEY))
        collected += [e["id"] for e in r.json()["data"]]
        cursor = r.json()["cursor"]
        assert (cursor is None) == (r.json()["has_more"] is False)
    assert collected == ids[::-1]


async def test_activity_default_limit_is_50_and_bounds_are_1_to_100(
    client: httpx.AsyncClient, emulator: Emulator
) -> None:
    fill(emulator, "alpha", 120, step=0.1)
    r = await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))
    assert len(r.json()["data"]) == 50
    for limit, status, count in ((1, 200, 1), (100, 200, 100), (0, 400, None), (101, 400, None)):
        r = await client.get("/v2/team/activity", params={"limit": limit}, headers=auth(ALPHA_KEY))
        assert r.status_code == status, limit
        if count is not None:
            assert len(r.json()["data"]) == count
        else:
            assert r.json()["code"] == "BAD_REQUEST" and r.json()["details"][0]["path"] == ["limit"]
    r = await client.get("/v2/team/activity", params={"limit": "many"}, headers=auth(ALPHA_KEY))
    assert r.status_code == 400


async def test_activity_endpoint_filter_and_bad_values(client: httpx.AsyncClient, emulator: Emulator) -> None:
    fill(emulator, "alpha", 3, endpoint="scrape")
    crawl_ids = fill(emulator, "alpha", 2, endpoint="crawl")
    r = await client.get("/v2/team/activity", params={"endpoint": "crawl"}, headers=auth(ALPHA_KEY))
    assert [e["id"] for e in r.json()["data"]] == crawl_ids[::-1]
    for kind in ENDPOINT_KINDS:
        r = await client.get("/v2/team/activity", params={"endpoint": kind}, headers=auth(ALPHA_KEY))
        assert r.status_code == 200, kind
    r = await client.get("/v2/team/activity", params={"endpoint": "scrapes"}, headers=auth(ALPHA_KEY))
    assert r.status_code == 400 and r.json()["code"] == "BAD_REQUEST"
    r = await client.get("/v2/team/activity", params={"cursor": "garbage"}, headers=auth(ALPHA_KEY))
    assert r.status_code == 400 and r.json()["code"] == "BAD_REQUEST" and "cursor" in r.json()["error"].lower()


async def test_activity_is_scoped_to_the_callers_team(client: httpx.AsyncClient, emulator: Emulator) -> None:
    alpha_ids = fill(emulator, "alpha", 3)
    beta_ids = fill(emulator, "beta", 2)
    r = await client.get("/v2/team/activity", headers=auth(ALPHA_KEY_2))
    assert [e["id"] for e in r.json()["data"]] == alpha_ids[::-1]
    r = await client.get("/v2/team/activity", headers=auth(BETA_KEY))
    assert [e["id"] for e in r.json()["data"]] == beta_ids[::-1]
    # A cursor is only a position: another team using it still sees only its own entries.
    r = await client.get("/v2/team/activity", params={"limit": 1}, headers=auth(ALPHA_KEY))
    r = await client.get("/v2/team/activity", params={"cursor": r.json()["cursor"]}, headers=auth(BETA_KEY))
    assert {e["id"] for e in r.json()["data"]} <= set(beta_ids)


async def test_activity_window_over_http(client: httpx.AsyncClient, emulator: Emulator, clock: ManualClock) -> None:
    fill(emulator, "alpha", 2)
    clock.advance(24 * 3600)
    r = await client.get("/v2/team/activity", headers=auth(ALPHA_KEY))
    assert r.json() == {"success": True, "data": [], "cursor": None, "has_more": False}


async def test_record_call_records_activity_and_usage(emulator: Emulator) -> None:
    team = emulator.team_by_name("alpha")
    assert team is not None
    from tui.emulator.core.teams import Caller

    before = team.credits_remaining
    entry = emulator.record_call(Caller(team, ALPHA_KEY_2), "map", "https://example.com", credits=3)
    assert entry.endpoint == "map" and entry.target == "https://example.com" and entry.api_key == ALPHA_KEY_2
    assert team.credits_remaining == before - 3
    assert emulator.usage.credits_in_month(team.id, emulator.clock.now(), ALPHA_KEY_2) == 3
    job_entry = emulator.record_call(Caller(team, ALPHA_KEY), "crawl", "https://x.dev", job_id="job-1")
    assert job_entry.id == "job-1"
