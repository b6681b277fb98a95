"""The alerts screen (A): its sections, ⏎ to what an alert names, a to acknowledge, s to silence; the journal's too.

The seeded emulator's one failed scrape fires `job_failed` when its rule counts
one failure; the journal lives in a temporary folder, so a second dashboard on
the same folder plays "started after `wds-tui watch`".
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList, Static

from tests.support.dashboard import NOW, dashboard, seeded_emulator, wait_until
from tests.ui.alerts_helpers import ONE_SEEDED_FAILURE, firing, rules
from tui.dashboard.features.activity.job_detail import JobDetailScreen
from tui.dashboard.features.alerts.screen import AlertsScreen
from tui.dashboard.keys.keymap import palette_actions
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.dashboard.shell.app import WdsApp
from tui.monitor.alert_notices import alert_id
from tui.monitor.journal import AlertRecord, Journal

FAILED_HOST = "fernwood.co"


def rows(screen: AlertsScreen) -> list[list[str]]:
    table = screen.query_one(LiveTable)
    return [[str(cell) for cell in table.get_row(key)] for key in table.row_keys]


def detail(screen: AlertsScreen) -> str:
    return str(screen.query_one("#alerts-detail", Static).render())


async def open_alerts(pilot, app: WdsApp) -> AlertsScreen:  # type: ignore[no-untyped-def]
    await pilot.press("A")
    await wait_until(pilot, lambda: isinstance(app.screen, AlertsScreen), "the alerts screen")
    screen = app.screen
    assert isinstance(screen, AlertsScreen)
    await pilot.pause()
    return screen


async def test_a_fired_alert_is_listed_and_enter_opens_its_job(tmp_path: Path) -> None:
    app = dashboard(seeded_emulator(), monitoring=rules(job_failed=ONE_SEEDED_FAILURE), journal_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: bool(firing(app, "job_failed")), "the job_failed alert")
        assert any(entry.action == "alerts" for entry in palette_actions(app.screen))  # A is in the palette too
        screen = await open_alerts(pilot, app)
        shown = rows(screen)
        assert shown[0][:2] == ["▲", "firing (1)"]
        fired, rule, subject, what, repeats, source = shown[1]
        assert (fired, rule, subject, repeats, source) == ("12:00:00", "job_failed", FAILED_HOST, "", "this run")
        assert what.startswith("1 job failed (host fernwood.co)")
        assert "job_failed · fernwood.co · fired 12:00:00" in detail(screen)
        [alert] = firing(app, "job_failed")
        assert alert.opens is not None
        assert f"⏎ opens job {alert.opens.id}" in detail(screen)

        await pilot.press("enter")  # the job is found by its id, as g would
        await wait_until(pilot, lambda: isinstance(app.screen, JobDetailScreen), "the job's detail", 10)


async def test_a_acknowledges_and_the_alert_moves_to_its_section(tmp_path: Path) -> None:
    app = dashboard(seeded_emulator(), monitoring=rules(job_failed=ONE_SEEDED_FAILURE), journal_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: bool(firing(app, "job_failed")), "the job_failed alert")
        screen = await open_alerts(pilot, app)
        await pilot.press("a")
        await pilot.pause()
        assert firing(app, "job_failed")[0].acknowledged
        assert rows(screen)[0][:2] == ["●", "acknowledged (1)"]
        assert "a" not in screen.active_bindings or not screen.check_action("acknowledge", ())  # done once
        assert app.header.alerts == 1  # acknowledged still holds: it still counts
        assert any("acknowledged" in n.message for n in app._notifications)


async def test_s_silences_the_subject_for_the_time_chosen(tmp_path: Path) -> None:
    app = dashboard(seeded_emulator(), monitoring=rules(job_failed=ONE_SEEDED_FAILURE), journal_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: bool(firing(app, "job_failed")), "the job_failed alert")
        screen = await open_alerts(pilot, app)
        await pilot.press("s")
        choices = screen.query_one("#alerts-silence", OptionList)
        await wait_until(pilot, lambda: choices.has_focus, "the silence choices")
        labels = [str(choices.get_option_at_index(i).prompt) for i in range(choices.option_count)]
        assert labels[:4] == [f"Silence job_failed for {FAILED_HOST} for {t}" for t in ("30 min", "1 h", "4 h", "24 h")]
        assert labels[4] == "Silence every job_failed alert for 30 min"
        await pilot.press("down", "enter")  # this host, 1 h
        await pilot.pause()
        assert app.monitor is not None
        assert app.monitor.engine.silenced("job_failed", FAILED_HOST)
        assert not app.monitor.engine.silenced("job_failed", "another.example")
        assert any(f"job_failed ({FAILED_HOST}) silenced until 13:00:00" == n.message for n in app._notifications)
        assert screen.query_one(LiveTable).has_focus  # back to the list
        await pilot.press("escape")
        assert not isinstance(app.screen, AlertsScreen)


async def test_a_dashboard_started_later_shows_the_journals_alerts(tmp_path: Path) -> None:
    first = dashboard(seeded_emulator(), monitoring=rules(job_failed=ONE_SEEDED_FAILURE), journal_dir=tmp_path)
    async with first.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: bool(firing(first, "job_failed")), "the job_failed alert")
    # Closed: its journal is written, the alert it left holding marked unwatched (nobody judges it now).
    # The next run counts three failures before an alert (the default).
    second = dashboard(seeded_emulator(), monitoring=rules(), journal_dir=tmp_path)
    async with second.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: second.monitor is not None, "the monitor")
        screen = await open_alerts(pilot, second)
        shown = rows(screen)
        assert shown[0][:2] == ["✓", "resolved (1)"]
        assert shown[1][1:3] == ["job_failed", FAILED_HOST] and shown[1][5] == "journal"
        assert "from the journal" in detail(screen) and "no longer watched" in detail(screen)
        assert not screen.check_action("acknowledge", ())  # only this run's alerts can be acknowledged
        assert screen.check_action("open_alert", ())  # but it opens like the others


async def test_outside_text_in_an_alert_is_shown_as_it_is(tmp_path: Path) -> None:
    sentence = "1 job failed (host [b]x[/b]); last: [@click=app.quit]boom[/] \x1b]52;c;aGk=\x07"
    journal = Journal(tmp_path / "default.sqlite3")
    fired = NOW.timestamp()
    journal.add(
        AlertRecord(
            alert_id("job_failed", "[red]host", NOW),
            "job_failed",
            "firing",
            fired,
            detail={"subject": "[red]host", "sentence": sentence, "repeats": 2},
        )
    )
    journal.close()
    app = dashboard(seeded_emulator(), monitoring=rules(), journal_dir=tmp_path)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_until(pilot, lambda: app.monitor is not None, "the monitor")
        screen = await open_alerts(pilot, app)
        fired_at, _, subject, what, repeats, _ = rows(screen)[1]
        assert subject == "[red]host" and repeats == "×3"
        assert what.startswith("1 job failed (host [b]x[/b]); last: [@click=app.quit]boom[/] ␛]52;c;aGk=␇")
        assert "[@click=app.quit]boom[/]" in detail(screen)
        assert "\x1b" not in detail(screen)


async def test_with_monitoring_off_the_screen_says_so() -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = await open_alerts(pilot, app)
        assert "Monitoring is off" in str(screen.query_one("#alerts-note", Static).render())
        assert rows(screen) == [["No alert has fired.", "", "", "", "", ""]]
        assert app.header.alerts == 0
