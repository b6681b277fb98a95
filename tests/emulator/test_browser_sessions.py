"""Browser sessions: create, list, delete, lifetimes, profiles, limits and billing."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, ALPHA_KEY_2, BETA_KEY, auth, client_for
from tests.support.recording_backend import RecordingBackend
from tui.emulator.browser.backend import ProfileSpec
from tui.emulator.browser.model import BROWSER_CREDITS_PER_MINUTE
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


async def create(client: httpx.AsyncClient, key: str = ALPHA_KEY, **body: Any) -> httpx.Response:
    body.setdefault("ttl", 600)
    return await client.post("/v2/browser", json=body, headers=auth(key))


async def sessions(client: httpx.AsyncClient, key: str = ALPHA_KEY, **params: str) -> list[dict[str, Any]]:
    r = await client.get("/v2/browser", params=params, headers=auth(key))
    assert r.status_code == 200, r.text
    return r.json()["sessions"]


async def test_create_returns_urls_and_expiry(browser_client: httpx.AsyncClient, backend: RecordingBackend) -> None:
    r = await create(browser_client, ttl=120)
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"success", "id", "cdpUrl", "liveViewUrl", "interactiveLiveViewUrl", "expiresAt"}
    sid = body["id"]
    assert body["success"] is True and UUID_RE.match(sid)
    cdp, view, interact = (
        re.search(r"token=([^&]+)", body[name]).group(1)  # type: ignore[union-attr]
        for name in ("cdpUrl", "liveViewUrl", "interactiveLiveViewUrl")
    )
    assert len({cdp, view, interact}) == 3  # one secret per kind of access (see test_session_secrets.py)
    assert body["cdpUrl"] == f"ws://emulator.test/cdp/{sid}?token={cdp}"
    assert body["liveViewUrl"] == f"http://emulator.test/live/{sid}?token={view}"
    assert body["interactiveLiveViewUrl"] == f"http://emulator.test/live/{sid}?token={interact}&interactive=1"
    assert body["expiresAt"] == "2025-06-15T12:02:00.000Z"
    assert backend.launches == [(sid, None)]


async def test_empty_body_uses_defaults(browser_client: httpx.AsyncClient, clock: ManualClock) -> None:
    r = await browser_client.post("/v2/browser", headers=auth(ALPHA_KEY))
    assert r.status_code == 200
    assert r.json()["expiresAt"] == "2025-06-15T12:10:00.000Z"  # ttl default 600 s (documented choice)
    listed = (await sessions(browser_client))[0]
    assert listed["streamWebView"] is True
    clock.advance(299)
    assert (await sessions(browser_client))[0]["status"] == "active"
    clock.advance(1)  # activityTtl default 300 s
    assert (await sessions(browser_client))[0]["status"] == "destroyed"


async def test_list_shows_fields_and_filters_by_status(browser_client: httpx.AsyncClient, clock: ManualClock) -> None:
    first = (await create(browser_client, streamWebView=False)).json()["id"]
    clock.advance(5)
    second = (await create(browser_client)).json()["id"]
    await browser_client.delete(f"/v2/browser/{first}", headers=auth(ALPHA_KEY))

    listed = await sessions(browser_client)
    assert [s["id"] for s in listed] == [second, first]  # newest first
    assert set(listed[0]) == {
        "id",
        "status",
        "cdpUrl",
        "liveViewUrl",
        "interactiveLiveViewUrl",
        "streamWebView",
        "createdAt",
        "lastActivity",
    }
    assert listed[1]["streamWebView"] is False
    assert listed[0]["createdAt"] == "2025-06-15T12:00:05.000Z"
    assert [s["id"] for s in await sessions(browser_client, status="active")] == [second]
    assert [s["id"] for s in await sessions(browser_client, status="destroyed")] == [first]
    r = await browser_client.get("/v2/browser", params={"status": "error"}, headers=auth(ALPHA_KEY))
    assert r.status_code == 400 and r.json()["details"][0]["path"] == ["status"]


async def test_list_and_delete_are_scoped_to_the_team(browser_client: httpx.AsyncClient) -> None:
    sid = (await create(browser_client, key=BETA_KEY)).json()["id"]
    assert await sessions(browser_client, key=ALPHA_KEY) == []
    assert [s["id"] for s in await sessions(browser_client, key=BETA_KEY)] == [sid]
    r = await browser_client.delete(f"/v2/browser/{sid}", headers=auth(ALPHA_KEY))
    assert r.status_code == 403 and r.json()["code"] == "FORBIDDEN"
    assert (await sessions(browser_client, key=BETA_KEY))[0]["status"] == "active"


async def test_delete_stops_bills_and_closes(
    browser_client: httpx.AsyncClient, backend: RecordingBackend, browser_emulator: Emulator, clock: ManualClock
) -> None:
    alpha = browser_emulator.team_by_name("alpha")
    assert alpha is not None
    sid = (await create(browser_client, key=ALPHA_KEY_2)).json()["id"]
    credits_before = alpha.credits_remaining
    clock.advance(61.5)
    r = await browser_client.delete(f"/v2/browser/{sid}", headers=auth(ALPHA_KEY))
    assert r.status_code == 200
    assert r.json() == {
        "success": True,
        "status": "stopped",
        "sessionDurationMs": 61_500,
        "creditsBilled": 2 * BROWSER_CREDITS_PER_MINUTE,  # two started minutes
    }
    assert backend.closes == [(sid, False)]
    assert alpha.credits_remaining == credits_before - 2 * BROWSER_CREDITS_PER_MINUTE
    assert browser_emulator.usage.credits_in_month(alpha.id, clock.now(), ALPHA_KEY_2) == 2 * BROWSER_CREDITS_PER_MINUTE

    clock.advance(30)
    again = await browser_client.delete(f"/v2/browser/{sid}", headers=auth(ALPHA_KEY))
    assert again.status_code == 200 and again.json() == r.json()  # already destroyed: same answer
    assert len(backend.closes) == 1


async def test_delete_unknown_and_malformed_ids(browser_client: httpx.AsyncClient) -> None:
    r = await browser_client.delete("/v2/browser/3f0b1c2d-1111-4222-8333-444455556666", headers=auth(ALPHA_KEY))
    assert r.status_code == 404
    assert r.json() == {"success": False, "error": "Browser session not found.", "code": "NOT_FOUND"}
    r = await browser_client.delete("/v2/browser/not-a-uuid", headers=auth(ALPHA_KEY))
    assert r.status_code == 400 and r.json()["code"] == "BAD_REQUEST"


async def test_ttl_ends_a_session_even_when_busy(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator, backend: RecordingBackend, clock: ManualClock
) -> None:
    sid = (await create(browser_client, ttl=60, activityTtl=3600)).json()["id"]
    for _ in range(5):
        clock.advance(11.9)
        assert browser_emulator.browser.touch(sid)
    clock.advance(0.5)  # 60 s after creation
    listed = await sessions(browser_client)
    assert listed[0]["status"] == "destroyed"
    assert not browser_emulator.browser.touch(sid)
    session = browser_emulator.browser.list(browser_emulator.team_by_name("alpha").id)[0]  # type: ignore[union-attr]
    assert session.end_reason == "ttl" and session.duration_ms(clock.now()) == 60_000
    await browser_emulator.browser.sweep()  # what the served reaper does; the lazy path scheduled the same
    assert backend.closes and backend.closes[0][0] == sid


async def test_activity_ttl_counts_from_the_last_activity(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator, clock: ManualClock
) -> None:
    sid = (await create(browser_client, ttl=3600, activityTtl=10)).json()["id"]
    clock.advance(9)
    assert browser_emulator.browser.touch(sid)
    clock.advance(9)
    assert (await sessions(browser_client))[0]["status"] == "active"
    assert (await sessions(browser_client))[0]["lastActivity"] == "2025-06-15T12:00:09.000Z"
    clock.advance(1)
    assert (await sessions(browser_client))[0]["status"] == "destroyed"
    assert browser_emulator.browser.get_for_token(sid, "anything") is None


async def test_reaper_closes_expired_browsers(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator, backend: RecordingBackend, clock: ManualClock
) -> None:
    sid = (await create(browser_client, ttl=30)).json()["id"]
    clock.advance(30)
    assert await browser_emulator.browser.sweep() == 1
    assert backend.closes == [(sid, False)]
    assert backend.open_sessions == set()


async def test_token_lookup_for_the_cdp_proxy(browser_client: httpx.AsyncClient, browser_emulator: Emulator) -> None:
    body = (await create(browser_client)).json()
    sid = body["id"]
    token = body["cdpUrl"].split("token=")[1]
    manager = browser_emulator.browser
    assert manager.get_for_token(sid, token) is not None
    assert manager.get_for_token(sid, token + "x") is None
    assert manager.get_for_token("00000000-0000-4000-8000-000000000000", token) is None
    assert manager.handle(sid) is not None and manager.handle(sid).session_id == sid  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("field", "value", "status"),
    [
        ("ttl", 29, 400),
        ("ttl", 30, 200),
        ("ttl", 3600, 200),
        ("ttl", 3601, 400),
        ("ttl", "60", 200),
        ("ttl", 60.5, 400),
        ("activityTtl", 9, 400),
        ("activityTtl", 10, 200),
        ("activityTtl", 3600, 200),
        ("activityTtl", 3601, 400),
        ("streamWebView", "yes", 400),
        ("streamWebView", False, 200),
    ],
)
async def test_create_boundaries(browser_client: httpx.AsyncClient, field: str, value: Any, status: int) -> None:
    r = await browser_client.post("/v2/browser", json={field: value}, headers=auth(ALPHA_KEY))
    assert r.status_code == status, r.text
    if status == 400:
        assert r.json()["code"] == "BAD_REQUEST" and r.json()["details"][0]["path"] == [field]


@pytest.mark.parametrize(
    ("profile", "status"),
    [
        ({"name": ""}, 400),
        ({"name": "p"}, 200),
        ({"name": "p" * 128}, 200),
        ({"name": "p" * 129}, 400),
        ({}, 400),
        ({"name": "p", "saveChanges": "no"}, 400),
        ({"name": "p", "saveChanges": False}, 200),
    ],
)
async def test_profile_boundaries(browser_client: httpx.AsyncClient, profile: dict[str, Any], status: int) -> None:
    r = await create(browser_client, profile=profile)
    assert r.status_code == status, r.text


async def test_malformed_json_on_create(browser_client: httpx.AsyncClient) -> None:
    r = await browser_client.post("/v2/browser", content=b"{ttl: 30}", headers=auth(ALPHA_KEY))
    assert r.status_code == 400 and r.json()["code"] == "BAD_REQUEST_INVALID_JSON"


async def test_one_saver_per_profile(browser_client: httpx.AsyncClient, backend: RecordingBackend) -> None:
    first = await create(browser_client, profile={"name": "shop"})
    assert first.status_code == 200
    second = await create(browser_client, profile={"name": "shop", "saveChanges": True})
    assert second.status_code == 409 and second.json()["code"] == "CONFLICT" and "shop" in second.json()["error"]
    reader = await create(browser_client, profile={"name": "shop", "saveChanges": False})
    assert reader.status_code == 200  # loading without writing is always allowed
    other_team = await create(browser_client, key=BETA_KEY, profile={"name": "shop"})
    assert other_team.status_code == 200  # profiles belong to a team

    alpha_team_id = backend.launches[0][1].name.split("/")[0]  # type: ignore[union-attr]
    assert backend.launches[0][1] == ProfileSpec(f"{alpha_team_id}/shop", True)
    assert backend.launches[1][1] == ProfileSpec(f"{alpha_team_id}/shop", False)

    await browser_client.delete(f"/v2/browser/{first.json()['id']}", headers=auth(ALPHA_KEY))
    assert backend.closes[-1] == (first.json()["id"], True)  # saved back on close
    assert (await create(browser_client, profile={"name": "shop"})).status_code == 200


async def test_saver_lock_is_released_when_the_saver_expires(
    browser_client: httpx.AsyncClient, clock: ManualClock
) -> None:
    assert (await create(browser_client, ttl=30, profile={"name": "p"})).status_code == 200
    assert (await create(browser_client, profile={"name": "p"})).status_code == 409
    clock.advance(30)
    assert (await create(browser_client, profile={"name": "p"})).status_code == 200


async def test_concurrency_limit_is_per_team(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator, clock: ManualClock
) -> None:
    alpha = browser_emulator.team_by_name("alpha")
    assert alpha is not None
    alpha.max_browser_sessions = 2
    ids = [(await create(browser_client, ttl=30)).json()["id"] for _ in range(2)]
    r = await create(browser_client)
    assert r.status_code == 429 and r.json()["code"] == "RATE_LIMITED"
    assert r.json()["error"].startswith("You have reached the maximum number of concurrent browser sessions")
    assert (await create(browser_client, key=BETA_KEY)).status_code == 200
    await browser_client.delete(f"/v2/browser/{ids[0]}", headers=auth(ALPHA_KEY))
    assert (await create(browser_client)).status_code == 200
    assert (await create(browser_client)).status_code == 429
    clock.advance(30)  # the other short one expires
    assert (await create(browser_client)).status_code == 200


async def test_no_credits_is_402(browser_client: httpx.AsyncClient, browser_emulator: Emulator) -> None:
    browser_emulator.team_by_name("alpha").credits_remaining = 0  # type: ignore[union-attr]
    r = await create(browser_client)
    assert r.status_code == 402 and r.json()["code"] == "PAYMENT_REQUIRED"
    assert (await create(browser_client, key=BETA_KEY)).status_code == 200


async def test_without_a_browser_create_is_503_and_list_still_works(client: httpx.AsyncClient) -> None:
    r = await create(client)
    assert r.status_code == 503
    assert r.json()["code"] == "SERVICE_UNAVAILABLE" and "Browser feature not configured" in r.json()["error"]
    assert await sessions(client) == []
    r = await create(client, ttl=5)  # validation still comes first
    assert r.status_code == 400


async def test_launch_failure_is_502_and_frees_the_slot(
    browser_client: httpx.AsyncClient, backend: RecordingBackend, browser_emulator: Emulator
) -> None:
    browser_emulator.team_by_name("alpha").max_browser_sessions = 1  # type: ignore[union-attr]
    backend.fail_launch_with = RuntimeError("chromium crashed")
    r = await create(browser_client, profile={"name": "p"})
    assert r.status_code == 502 and "chromium crashed" in r.json()["error"]
    backend.fail_launch_with = None
    assert (await create(browser_client, profile={"name": "p"})).status_code == 200


async def test_creation_is_recorded_as_activity(browser_client: httpx.AsyncClient) -> None:
    sid = (await create(browser_client)).json()["id"]
    r = await browser_client.get("/v2/team/activity", params={"endpoint": "browser"}, headers=auth(ALPHA_KEY))
    entries = r.json()["data"]
    assert len(entries) == 1 and entries[0]["target"] == sid and entries[0]["endpoint"] == "browser"


async def test_aclose_closes_every_browser(make_emulator, backend: RecordingBackend) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(browser_backend=backend)
    async with client_for(emulator) as c:
        for _ in range(3):
            await create(c)
    await emulator.aclose()
    assert backend.open_sessions == set() and backend.shutdowns == 1
    assert all(s.status == "destroyed" for s in emulator.browser.list(emulator.team_by_name("alpha").id))


async def test_a_session_deleted_while_its_browser_starts_is_closed(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator, backend: RecordingBackend
) -> None:
    import asyncio

    release = asyncio.Event()
    launch = backend.launch

    async def slow_launch(session_id: str, profile: ProfileSpec | None):  # type: ignore[no-untyped-def]
        await release.wait()
        return await launch(session_id, profile)

    backend.launch = slow_launch  # type: ignore[method-assign]
    creating = asyncio.create_task(create(browser_client))
    while not browser_emulator.browser.list(browser_emulator.team_by_name("alpha").id):  # type: ignore[union-attr]
        await asyncio.sleep(0)
    sid = browser_emulator.browser.list(browser_emulator.team_by_name("alpha").id)[0].id  # type: ignore[union-attr]
    assert (await browser_client.delete(f"/v2/browser/{sid}", headers=auth(ALPHA_KEY))).status_code == 200
    release.set()
    r = await creating
    assert r.status_code == 410
    assert backend.open_sessions == set()


async def test_destroyed_sessions_are_listed_for_24_hours_then_forgotten(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator, clock: ManualClock
) -> None:
    old = (await create(browser_client)).json()["id"]
    assert (await browser_client.delete(f"/v2/browser/{old}", headers=auth(ALPHA_KEY))).status_code == 200
    clock.advance(23 * 3600)
    recent = (await create(browser_client)).json()["id"]
    assert (await browser_client.delete(f"/v2/browser/{recent}", headers=auth(ALPHA_KEY))).status_code == 200
    live = (await create(browser_client)).json()["id"]
    browser_emulator.retention.sweep()
    assert {s["id"] for s in await sessions(browser_client)} == {old, recent, live}  # 23 h: still shown
    clock.advance(3600)
    assert browser_emulator.retention.sweep()["browser sessions"] == 1
    assert {s["id"] for s in await sessions(browser_client)} == {recent, live}
    assert (await browser_client.delete(f"/v2/browser/{old}", headers=auth(ALPHA_KEY))).status_code == 404
