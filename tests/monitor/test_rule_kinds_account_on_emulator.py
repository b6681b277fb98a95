"""Session, credit, usage and queue rules on a real emulator: its answers fed to a real monitor, on its clock.

The conditions are made by API calls (a session created with a ttl, credits
spent by a batch, an hour of heavy scraping after quiet ones, a long crawl
filling the queue). Where no call can make it, the test says so and uses the
emulator's own state: a team's starting balance, and buying credits.
"""

from __future__ import annotations

from pathlib import Path

from tests.monitor.emulator_watch import Watched, emulator, lifecycle, watching
from tests.support.dashboard import KEY, NOW
from tests.support.recording_backend import RecordingBackend
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.teams import Team
from tui.emulator.service import Emulator
from tui.monitor.alerts.rules import CreditsRule, QueueSaturatedRule, SessionExpiringRule, UsageSpikeRule

SITE = "https://acme-outdoor.com"


async def pages(watched: Watched, count: int) -> list[str]:
    """`count` pages of the site, found by a map call (1 credit), none of them slow."""
    links = [link.url for link in (await watched.client.map(f"{SITE}/")).links]
    return [url for url in links if "/reports/" not in url][:count]


async def test_session_expiring_fires_before_the_ttl_a_create_asked_for_and_resolves_when_it_ends(
    tmp_path: Path,
) -> None:
    rule = SessionExpiringRule(minutes=5, repeat_minutes=2)
    service = emulator(browser_backend=RecordingBackend())  # sessions' bookkeeping, without a Chromium
    async with watching(tmp_path, rule, service) as watched:
        created = await watched.client.browser.create(ttl=600, activity_ttl=3600)
        # The list never says when a session ends: only the create answer does, so the monitor is told.
        watched.monitor.saw_session_created(created, activity_ttl=3600)
        await watched.poll_sessions()
        watched.advance(4)
        await watched.poll_sessions()
        assert watched.said() == []

        watched.advance(1)
        await watched.poll_sessions()
        assert [(each.what, each.subject, each.sentence) for each in watched.said()] == [
            ("fired", created.id, f"browser session {created.id} expires in 5 min (at 12:10 UTC)")
        ]
        watched.advance(2)
        await watched.poll_sessions()
        [repeated] = watched.said()
        assert (repeated.what, repeated.sentence) == (
            "repeated",
            f"browser session {created.id} expires in 3 min (at 12:10 UTC)",
        )

        watched.advance(3)  # its ttl: the service lists it destroyed
        listed = (await watched.client.browser.list()).sessions
        assert [(session.id, str(session.status)) for session in listed] == [(created.id, "destroyed")]
        await watched.poll_sessions()
        assert lifecycle(watched.said()) == [("resolved", created.id)]
        [(name, subject, state, detail)] = await watched.journaled_alerts()
        assert (name, subject, state, detail["repeats"]) == ("session_expiring", created.id, "resolved", 1)


async def test_credits_fire_under_the_share_left_and_resolve_once_credits_are_bought(tmp_path: Path) -> None:
    rule = CreditsRule(min_remaining_percent=20, repeat_minutes=30)
    # A team's balance is the service's to set, not an API call's: this team starts with 40 credits.
    clock = ManualClock(NOW)
    team = Team.named("ops", [KEY], credits_remaining=40)
    service = Emulator(teams=[team], seed=7, clock=clock, history=False)
    async with watching(tmp_path, rule, service) as watched:
        await watched.poll_credits()
        assert watched.said() == []
        batch_id = (await watched.client.batch.create(await pages(watched, 30))).id
        watched.advance(1)
        # The emulator bills a batch's pages when something looks past them (the batches pane's poll here).
        assert (await watched.client.batch.get(batch_id)).status == "completed"

        balance = await watched.client.team.credit_usage()
        assert balance.remaining_credits < 0.2 * 40 and balance.plan_credits == 40
        await watched.poll_credits()
        [fired] = watched.said()
        left = int(balance.remaining_credits)
        assert (fired.what, fired.subject) == ("fired", "remaining")
        assert fired.sentence == f"{left} credits left, {100 * left / 40:.0f}% of the plan's 40"

        watched.advance(30)
        await watched.poll_credits()
        assert lifecycle(watched.said()) == [("repeated", "remaining")]

        team.credits_remaining += 1000  # bought: the service's own business, no API call does it
        await watched.poll_credits()
        assert lifecycle(watched.said()) == [("resolved", "remaining")]
        [(name, subject, state, detail)] = await watched.journaled_alerts()
        assert (name, subject, state, detail["repeats"]) == ("credits", "remaining", "resolved", 1)


async def test_credits_fire_when_the_period_is_projected_over_budget_and_resolve_as_the_pace_slows(
    tmp_path: Path,
) -> None:
    rule = CreditsRule(budget=50, min_remaining_percent=None, repeat_minutes=60)
    async with watching(tmp_path, rule) as watched:
        batch_id = (await watched.client.batch.create(await pages(watched, 30))).id
        watched.advance(1)
        assert (await watched.client.batch.get(batch_id)).status == "completed"  # billed as it is looked at
        await watched.poll_credits()
        balance = await watched.client.team.credit_usage()
        used = (balance.plan_credits or 0) - balance.remaining_credits
        assert 30 < used < 50, "under the budget so far, but half the month is gone"
        [fired] = watched.said()
        assert (fired.what, fired.subject) == ("fired", "budget")
        # June 15th, 12:01: 48% of the month has passed, so the month's use is projected at twice what is used.
        assert fired.sentence.startswith("credits this period projected at ")
        assert fired.sentence.endswith(f", over the budget of 50 ({used:.0f} used by 12:01 UTC)")

        watched.advance(60)
        await watched.poll_credits()
        assert lifecycle(watched.said()) == [("repeated", "budget")]

        watched.advance(8 * 24 * 60)  # a week later nothing more is used: the projection falls under 50
        await watched.poll_credits()
        assert lifecycle(watched.said()) == [("resolved", "budget")]
        assert [row[:3] for row in await watched.journaled_alerts()] == [("credits", "budget", "resolved")]


async def test_usage_spike_fires_on_an_hour_of_ten_times_the_usual_credits_and_resolves_the_hour_after(
    tmp_path: Path,
) -> None:
    rule = UsageSpikeRule(factor=3, min_hours=3, repeat_minutes=20)
    async with watching(tmp_path, rule) as watched:
        urls = await pages(watched, 30)
        await watched.poll_usage()  # 12:00, after the map call: the first reading, where the counting starts
        for hour in range(3):  # three quiet hours: 2 scrapes each
            for url in urls[2 * hour : 2 * hour + 2]:
                await watched.client.scrape.create(url)
            watched.advance(50)
            await watched.poll_usage()
            watched.advance(10)
        assert watched.said() == []

        for url in urls[6:26]:  # 15:00: twenty pages in one hour
            await watched.client.scrape.create(url)
        watched.advance(10)
        await watched.poll_usage()
        [fired] = watched.said()
        assert (fired.what, fired.subject) == ("fired", "team")
        assert fired.sentence.startswith(
            "20 credits used by the team in the hour from 15:00 UTC, 10.0x the median of 2"
        )

        watched.advance(20)
        await watched.poll_usage()
        assert lifecycle(watched.said()) == [("repeated", "team")]

        watched.advance(40)  # 16:10: a quiet hour again
        await watched.client.scrape.create(urls[26])
        await watched.poll_usage()
        assert lifecycle(watched.said()) == [("resolved", "team")]
        [(name, subject, state, detail)] = await watched.journaled_alerts()
        assert (name, subject, state, detail["repeats"]) == ("usage_spike", "team", "resolved", 1)


async def test_queue_saturated_fires_while_a_long_crawl_keeps_pages_waiting_and_resolves_when_it_is_cancelled(
    tmp_path: Path,
) -> None:
    rule = QueueSaturatedRule(minutes=10, repeat_minutes=5)
    async with watching(tmp_path, rule) as watched:
        crawl_id = (await watched.client.crawl.start(f"{SITE}/", limit=30, delay=60)).id  # a page a minute
        await watched.poll_queue()
        watched.advance(9)
        await watched.poll_queue()
        assert watched.said() == []

        watched.advance(1)
        await watched.poll_queue()
        queue = await watched.client.team.queue_status()
        [fired] = watched.said()
        assert (fired.what, fired.subject) == ("fired", "queue")
        assert fired.sentence == (
            f"the queue has been saturated for 10 min: 2 of 2 workers busy, {queue.waiting_jobs_in_queue} jobs waiting"
        )
        watched.advance(5)
        await watched.poll_queue()
        assert lifecycle(watched.said()) == [("repeated", "queue")]

        await watched.client.crawl.cancel(crawl_id)
        await watched.poll_queue()
        assert lifecycle(watched.said()) == [("resolved", "queue")]
        [(name, subject, state, detail)] = await watched.journaled_alerts()
        assert (name, subject, state, detail["repeats"]) == ("queue_saturated", "queue", "resolved", 1)
