"""Each pane's polls reach the monitor and raise the alerts a person would see: the header count, a toast.

The whole dashboard runs on the seeded emulator with monitoring on (a journal
in a temporary folder) and rules tuned so that one thing the test does fires
one alert; the terminal's notification is caught by the app's `terminal_write`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

from tests.support.crawl_sockets import recorded_client
from tests.support.dashboard import (
    KEY,
    NOW,
    PaneHost,
    SwitchableTransport,
    client_on,
    dashboard,
    emulator_service,
    open_pane,
    seeded_emulator,
    settle,
    wait_until,
)
from tests.support.recording_backend import RecordingBackend
from tests.ui.alerts_helpers import ONE_SEEDED_FAILURE, SEEDED_FAILURE_ENDS, firing, rules
from tui.api.client import WdsClient
from tui.api.webhooks import SIGNATURE_HEADER, sign
from tui.contract.requests import BrowserCreateRequest
from tui.dashboard.features.crawls.pane import CrawlsPane, CrawlTable
from tui.dashboard.features.inbox.service import InboxService
from tui.dashboard.features.sessions.form import SessionCreated
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.dashboard.shell.app import WdsApp
from tui.dashboard.startup.app_factory import make_app
from tui.emulator.core.clock import ManualClock
from tui.emulator.server import running
from tui.emulator.service import Emulator
from tui.monitor.alerts.engine import AlertEngine
from tui.monitor.hub import Monitor

SECRET = "whsec-test-secret"
TABLES = ("activity", "queue_readings", "credit_readings", "usage_snapshots")


def toasts(app: WdsApp) -> list[tuple[str, str, str]]:
    return [(n.title, n.message, n.severity) for n in app._notifications]


def header_text(app: WdsApp) -> str:
    return str(app.header.render())


class MovingClock:
    """The dashboard's clock, moved by the test (the monitor judges time by it)."""

    def __init__(self) -> None:
        self.now = NOW

    def __call__(self):  # type: ignore[no-untyped-def]
        return self.now


async def test_a_failed_job_in_the_activity_pane_fires_an_alert_with_toast_header_count_and_notification(
    tmp_path: Path,
) -> None:
    settings = rules(job_failed=ONE_SEEDED_FAILURE, delivery={"notification": "osc777", "bell": True})
    app = dashboard(seeded_emulator(), monitoring=settings, journal_dir=tmp_path)
    written: list[str] = []
    app.terminal_write = written.append
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: bool(firing(app, "job_failed")), "the job_failed alert")
        [alert] = firing(app, "job_failed")
        assert alert.subject == "fernwood.co" and alert.opens is not None and alert.opens.kind == "job"
        assert alert.sentence.startswith("1 job failed (host fernwood.co) in the last 3 h; last: HTTP 404")
        await pilot.pause()
        assert "▲ 1 alert" in header_text(app)
        assert ("▲ job_failed", alert.sentence, "warning") in toasts(app)
        [codes] = written
        assert codes.startswith("\x1b]777;notify;wds-tui alert: job_failed;1 job failed (host fernwood.co)")
        assert codes.endswith("\x07\x07")  # the notification's end, then the bell


async def test_the_alert_resolves_when_the_window_passes_with_a_quiet_toast(tmp_path: Path) -> None:
    clock = MovingClock()
    app = dashboard(
        seeded_emulator(), clock=clock, monitoring=rules(job_failed=ONE_SEEDED_FAILURE), journal_dir=tmp_path
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: bool(firing(app, "job_failed")), "the job_failed alert")
        clock.now = NOW + timedelta(minutes=SEEDED_FAILURE_ENDS)  # out of the rule's window
        assert app.monitor is not None
        app.monitor.tick()  # what the app's 15-second timer does
        await wait_until(pilot, lambda: app.header.alerts == 0, "the count to drop")
        await wait_until(pilot, lambda: any(t[0].startswith("✓ resolved") for t in toasts(app)), "the resolved toast")
        title, _, severity = toasts(app)[-1]
        assert (title, severity) == ("✓ resolved: job_failed", "information")
        assert "alert" not in header_text(app)


async def test_a_crawl_cancelled_from_the_crawls_pane_fires_crawl_failed(
    tmp_path: Path, client: WdsClient, clock: ManualClock, emulator: Emulator, transport: SwitchableTransport
) -> None:
    started = await client.crawl.start("https://acme-outdoor.com/", limit=12)
    app = dashboard(emulator, transport, clock=clock.now, monitoring=rules(), journal_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, CrawlsPane)
        table = pane.query_one(CrawlTable)
        await wait_until(pilot, lambda: started.id in table.row_keys, "the crawl's row")
        table.move_cursor(row=table.get_row_index(started.id))
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause(0.2)
        await pilot.press("y")
        await wait_until(pilot, lambda: bool(firing(app, "crawl_failed")), "the crawl_failed alert")
        [alert] = firing(app, "crawl_failed")
        assert alert.subject == started.id and alert.opens is not None and alert.opens.kind == "crawl"
        assert "cancelled" in alert.sentence


async def test_a_crawl_cancelled_elsewhere_is_seen_by_the_crawls_panes_poll(
    tmp_path: Path, client: WdsClient, clock: ManualClock, emulator: Emulator, transport: SwitchableTransport
) -> None:
    started = await client.crawl.start("https://acme-outdoor.com/", limit=12)
    app = dashboard(emulator, transport, clock=clock.now, monitoring=rules(), journal_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, CrawlsPane)
        await wait_until(pilot, lambda: app.monitor is not None, "the monitor")
        await client.crawl.cancel(started.id)
        pane.refresh_data()
        await wait_until(pilot, lambda: bool(firing(app, "crawl_failed")), "the crawl_failed alert")
        assert firing(app, "crawl_failed")[0].subject == started.id


@pytest.fixture
async def browser_emulator(clock: ManualClock, backend: RecordingBackend) -> AsyncIterator[Emulator]:
    emulator = seeded_emulator(clock=clock, browser_backend=backend, history=False)
    yield emulator
    await emulator.aclose()


async def test_a_session_about_to_expire_in_the_sessions_pane_fires_session_expiring(
    tmp_path: Path, browser_emulator: Emulator, clock: ManualClock
) -> None:
    transport = SwitchableTransport(browser_emulator)
    client = client_on(transport)
    session = await client.browser.create(ttl=120)  # ends in 2 minutes
    app = dashboard(
        browser_emulator,
        transport,
        clock=clock.now,
        monitoring=rules(session_expiring={"minutes": 5}),
        journal_dir=tmp_path,
    )
    async with app.run_test(size=(120, 40)) as pilot:
        pane = await open_pane(pilot, SessionsPane)
        # As the new-session form hands it over: the list never says when a session ends, this run knows.
        pane.session_created(SessionCreated(session, BrowserCreateRequest(ttl=120)))
        await wait_until(pilot, lambda: bool(firing(app, "session_expiring")), "the session_expiring alert")
        [alert] = firing(app, "session_expiring")
        assert alert.subject == session.id and alert.opens is not None and alert.opens.kind == "session"
    await client.aclose()


async def test_credits_under_the_rules_share_of_the_plan_fire_from_the_capacity_line(tmp_path: Path) -> None:
    # The seeded team has 98,961 of 100,000 credits left: under 99.5% of the plan.
    settings = rules(credits={"min_remaining_percent": 99.5})
    app = dashboard(seeded_emulator(), monitoring=settings, journal_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: bool(firing(app, "credits")), "the credits alert")
        await pilot.pause()
        assert "▲ 1 alert" in header_text(app)
        assert any(title == "▲ credits" and severity == "error" for title, _, severity in toasts(app))


async def test_an_unverified_webhook_delivery_to_the_inbox_fires_webhook_unverified(tmp_path: Path) -> None:
    emulator = seeded_emulator(clock=ManualClock(NOW))
    webhooks = InboxService("127.0.0.1:0", SecretStr(SECRET))
    transport = SwitchableTransport(emulator)
    app = make_app(
        client_on(transport),
        emulator_service(),
        clock=lambda: NOW,
        refresh=3600,
        webhooks=webhooks,
        monitoring=rules(),
        journal_dir=tmp_path,
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: webhooks.address is not None and app.monitor is not None, "the listener")
        address = webhooks.address
        assert address is not None
        body = json.dumps({"success": True, "type": "crawl.started", "id": "x", "webhookId": "w-1", "data": []})
        async with httpx.AsyncClient() as http:
            signed = await http.post(address, content=body, headers={SIGNATURE_HEADER: sign(body.encode(), SECRET)})
            assert signed.status_code == 200
            await pilot.pause(0.2)
            assert not firing(app, "webhook_unverified")  # a good signature is no alert
            forged = await http.post(address, content=body, headers={SIGNATURE_HEADER: sign(body.encode(), "guess")})
            assert forged.status_code == 200
        await wait_until(pilot, lambda: bool(firing(app, "webhook_unverified")), "the webhook_unverified alert")
        assert app.monitor is not None and app.monitor.stats.webhook_events == {True: 1, False: 1}


class LosableTransport(SwitchableTransport):
    """The emulator, until `lost`: then no connection at all (what a service gone away gives)."""

    lost = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.lost:
            raise httpx.ConnectError("Connection refused", request=request)
        return await super().handle_async_request(request)


async def test_the_service_going_away_fires_service_down_after_the_rules_minutes(tmp_path: Path) -> None:
    clock = MovingClock()
    emulator = seeded_emulator()
    transport = LosableTransport(emulator)
    settings = rules(service_down={"minutes": 1})
    app = dashboard(emulator, transport, clock=clock, monitoring=settings, journal_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: app.monitor is not None, "the monitor")
        transport.lost = True
        pane = app.query_one(CrawlsPane)
        pane.refresh_data()
        await wait_until(pilot, lambda: app.banner.showing, "the banner saying the service is lost")
        assert app.monitor is not None and not firing(app, "service_down")  # not for a moment's loss
        clock.now = NOW + timedelta(minutes=2)
        app.monitor.tick()
        await wait_until(pilot, lambda: bool(firing(app, "service_down")), "the service_down alert")
        [alert] = firing(app, "service_down")
        assert alert.subject == "unreachable" and "unreachable for 2 min" in alert.sentence
        await pilot.pause()
        assert "▲ 1 alert" in header_text(app)


async def test_what_the_panes_saw_is_in_the_journal_after_the_run(tmp_path: Path) -> None:
    app = dashboard(seeded_emulator(), monitoring=rules(), journal_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.monitor is not None, "the monitor")
        await settle(pilot)
        stats = app.monitor.stats if app.monitor else None
        assert stats is not None and stats.queue_max == 2 and stats.credits_remaining is not None
        assert stats.tokens_used  # this month's usage, from the usage pane
    with sqlite3.connect(tmp_path / "default.sqlite3") as journal:
        count = {table: journal.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in TABLES}
        failed = journal.execute("SELECT count(*) FROM activity WHERE status = 'failed'").fetchone()[0]
    assert count["activity"] >= 25 and failed >= 1  # the page of entries, the finished states the column read
    assert count["queue_readings"] == count["credit_readings"] == 1 and count["usage_snapshots"] >= 1


@pytest.mark.socket
async def test_a_crawls_end_pushed_over_the_socket_reaches_the_monitor(clock: ManualClock) -> None:
    # The crawls pane alone, polling once an hour: after its first poll, news comes over the socket only.
    emulator = seeded_emulator(seed=5, clock=clock, history=False)
    async with running(emulator) as base_url, recorded_client(base_url, KEY) as (client, recorded):
        crawl_id = (await client.crawl.start("https://acme-outdoor.com/", limit=8)).id
        app = PaneHost(lambda: CrawlsPane(client, interval=3600, clock=clock.now, id="crawls"))
        monitor = Monitor(context=None, engine=AlertEngine(rules().rules, clock.now), clock=clock.now)
        app.monitor = monitor  # type: ignore[attr-defined]  # what tell_monitor looks for on the app
        async with app.run_test(size=(120, 30)) as pilot:
            pane = app.query_one(CrawlsPane)
            await wait_until(pilot, lambda: pane.live.latest(crawl_id) is not None, "the socket's catch-up", 10)
            await client.crawl.cancel(crawl_id)
            await wait_until(pilot, lambda: bool(monitor.engine.firing()), "the crawl_failed alert", 10)
        [alert] = monitor.engine.firing()
        assert (alert.rule, alert.subject) == ("crawl_failed", crawl_id)
    assert recorded.count("GET /v2/crawl/active") == 1  # one poll: the end came over the socket
