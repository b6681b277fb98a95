"""PUT `/_emulator/state`: a snapshot that would break a route, a save or the service later is refused now, 400."""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.emulator.test_state_snapshot import AS_ADMIN, SITE, TEAM, client, emulator
from tui.emulator.core.clock import ManualClock
from tui.emulator.jobs.model import CrawlJob
from tui.emulator.service import Emulator
from tui.emulator.state.core_parts import Deferred
from tui.emulator.state.snapshot import prepare
from tui.emulator.state.values import SnapshotError, class_path, named_class

Edit = Callable[[dict[str, Any]], None]


async def exported(service: Emulator, c: httpx.AsyncClient) -> tuple[dict[str, Any], str]:
    """A snapshot holding a running crawl, and the crawl's id."""
    crawl = (await c.post("/v2/crawl", headers=TEAM, json={"url": f"{SITE}/", "limit": 6})).json()
    return (await c.get("/_emulator/state", headers=AS_ADMIN)).json(), crawl["id"]


def crawl_row(snapshot: dict[str, Any], crawl_id: str) -> dict[str, Any]:
    row: dict[str, Any] = snapshot["parts"]["jobs"][f"job:{crawl_id}"]["v"]
    return row


def timeline_interval(value: Any) -> Callable[[dict[str, Any], str], None]:
    def edit(snapshot: dict[str, Any], crawl_id: str) -> None:
        crawl_row(snapshot, crawl_id)["timeline"]["v"]["interval"] = value

    return edit


def created_at(value: Any) -> Callable[[dict[str, Any], str], None]:
    def edit(snapshot: dict[str, Any], crawl_id: str) -> None:
        crawl_row(snapshot, crawl_id)["created_at"] = value

    return edit


def cache_limit(snapshot: dict[str, Any], crawl_id: str) -> None:
    snapshot["parts"]["cache"]["limits"]["max_entries"] = -1


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (timeline_interval(0), "interval"),
        (timeline_interval("x"), "interval"),
        (created_at("yesterday"), "created_at"),
        (cache_limit, "max_entries"),
    ],
)
async def test_a_snapshot_that_would_break_a_route_or_a_save_is_refused_and_changes_nothing(
    edit: Callable[[dict[str, Any], str], None], said: str
) -> None:
    service = emulator(ManualClock())
    async with client(service) as c:
        snapshot, crawl_id = await exported(service, c)
        bad = copy.deepcopy(snapshot)
        edit(bad, crawl_id)
        answer = await c.put("/_emulator/state", headers=AS_ADMIN, content=json.dumps(bad))
        assert answer.status_code == 400, answer.text
        assert answer.json()["code"] == "BAD_SNAPSHOT" and said in answer.json()["error"]
        # Nothing changed, and every route and the next snapshot still work.
        assert (await c.get(f"/v2/crawl/{crawl_id}", headers=TEAM)).status_code == 200
        assert (await c.get("/v2/crawl/active", headers=TEAM)).status_code == 200
        assert (await c.post("/v2/scrape", headers=TEAM, json={"url": f"{SITE}/"})).status_code == 200
        assert (await c.get("/_emulator/state", headers=AS_ADMIN)).status_code == 200


def pruned_unhashable(snapshot: dict[str, Any], crawl_id: str) -> None:
    snapshot["parts"]["activity"]["log"]["pruned"] = [[[1], None, 3]]


def job_entries_unhashable(snapshot: dict[str, Any], crawl_id: str) -> None:
    snapshot["parts"]["activity"]["log"]["job_entries"] = [[1]]


def rng_word(value: int) -> Callable[[dict[str, Any], str], None]:
    def edit(snapshot: dict[str, Any], crawl_id: str) -> None:
        snapshot["parts"]["ids"]["rng"]["words"][0] = value

    return edit


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (pruned_unhashable, "activity.log.pruned"),
        (job_entries_unhashable, "activity.log.job_entries"),
        (rng_word(-1), "ids.rng.words"),
        (rng_word(2**70), "ids.rng.words"),
    ],
)
async def test_rows_of_the_wrong_shape_are_refused_400_not_500(
    edit: Callable[[dict[str, Any], str], None], said: str
) -> None:
    service = emulator(ManualClock())
    async with client(service) as c:
        snapshot, crawl_id = await exported(service, c)
        edit(snapshot, crawl_id)
        answer = await c.put("/_emulator/state", headers=AS_ADMIN, content=json.dumps(snapshot))
        assert answer.status_code == 400, answer.text
        assert answer.json()["code"] == "BAD_SNAPSHOT" and said in answer.json()["error"]


@pytest.mark.parametrize(
    "body",
    [
        b'{"format": "wds-emulator-state", "version": 1, "seed": ' + b"9" * 5000 + b"}",
        b'{"parts": ' + b"[" * 100_000 + b"}",
        b'{"format": "wds-emulator-state", "version": 1, "seed": NaN}',
        b'{"format": "wds-emulator-state", "version": 1, "seed": Infinity}',
    ],
    ids=["5000 digits", "100k nested", "NaN", "Infinity"],
)
async def test_a_body_the_service_would_not_read_as_json_is_refused_400(body: bytes) -> None:
    service = emulator(ManualClock(), history=False)
    async with client(service) as c:
        answer = await c.put("/_emulator/state", headers=AS_ADMIN, content=body)
        assert answer.status_code == 400, answer.text
        assert answer.json()["code"] == "BAD_REQUEST_INVALID_JSON"


async def test_a_poll_count_that_is_infinite_is_refused_as_a_bad_snapshot() -> None:
    """A state file's rows are read by Python, not over HTTP: an Infinity there reaches the parts."""
    service = emulator(ManualClock(), history=False)
    async with client(service) as c:
        snapshot, crawl_id = await exported(service, c)
    steering = {"mode": {"mode": "clock"}, "polls": float("inf")}
    snapshot["parts"]["progression"] = {"modes": {"teams": {}, "jobs": {crawl_id: steering}}}
    with pytest.raises(SnapshotError, match="parts.progression: cannot convert float infinity"):
        prepare(service, snapshot, reason="test")


async def test_a_team_key_equal_to_the_admin_token_is_refused() -> None:
    service = emulator(ManualClock(), history=False)
    async with client(service) as c:
        snapshot, _ = await exported(service, c)
        snapshot["parts"]["teams"]["intruder"] = {"name": "intruder", "api_keys": [AS_ADMIN["Authorization"][7:]]}
        answer = await c.put("/_emulator/state", headers=AS_ADMIN, content=json.dumps(snapshot))
        assert answer.status_code == 400, answer.text
        assert "a key is this emulator's admin token" in answer.json()["error"]


@pytest.mark.parametrize(
    "named",
    [
        "tui.emulator.http:openapi.BaseModel",
        "tui.emulator.state.values:BaseModel",
        "tui.emulator.state.values:datetime",
    ],
)
def test_a_class_is_read_only_where_it_is_defined_not_through_an_imported_name(named: str) -> None:
    with pytest.raises(SnapshotError, match="not one of the emulator's or the contract's"):
        named_class(named, "jobs['x']")


def test_the_emulators_own_classes_are_still_read() -> None:
    assert named_class(class_path(CrawlJob), "jobs['x']") is CrawlJob


async def test_the_export_writes_its_slow_rows_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    service = emulator(ManualClock())
    loop_thread = threading.get_ident()
    writers: list[int] = []
    write = Deferred.value

    def recorded(self: Deferred) -> Any:
        writers.append(threading.get_ident())
        return write(self)

    monkeypatch.setattr(Deferred, "value", recorded)
    async with client(service) as c:
        await exported(service, c)
        answer = await c.get("/_emulator/state", headers=AS_ADMIN)
    assert answer.status_code == 200 and answer.json()["format"] == "wds-emulator-state"
    assert writers and loop_thread not in writers
