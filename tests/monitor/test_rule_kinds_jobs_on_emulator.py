"""Job, crawl and batch rules on a real emulator: its answers fed to a real monitor, on the emulator's clock.

Each condition is made by API calls (scrapes of pages the site does not have, a
crawl robots.txt forbids, a cancelled crawl, a crawl paced by its `delay`, a
batch with missing and too-slow pages); each alert fires once naming what
triggered it, repeats after `repeat_minutes` while it holds, resolves when it
ends, and is in the journal's `alerts` table.
"""

from __future__ import annotations

from pathlib import Path

from tests.monitor.emulator_watch import lifecycle, watching
from tui.monitor.alerts.rules import BatchFailedRule, CrawlEndedRule, CrawlStalledRule, JobFailedRule

SITE = "https://acme-outdoor.com"
MISSING = ("product/11", "gone/3141", "old-pricing")
"""Pages the synthetic site does not have: each scrape of one answers 404."""


async def test_job_failed_fires_on_three_404s_of_one_host_repeats_and_resolves_once_they_leave_the_window(
    tmp_path: Path,
) -> None:
    rule = JobFailedRule(count=3, window_minutes=10, repeat_minutes=4)
    async with watching(tmp_path, rule) as watched:
        client = watched.client
        await client.scrape.create(f"{SITE}/")  # a good page: no failure
        for path in MISSING[:2]:
            await client.scrape.create(f"{SITE}/{path}")
        await watched.poll_jobs()
        assert watched.said() == [], "two failures are under the rule's count"

        watched.advance(1)
        await client.scrape.create(f"{SITE}/{MISSING[2]}")
        await watched.poll_jobs()
        [fired] = watched.said()
        assert (fired.what, fired.subject) == ("fired", "acme-outdoor.com")
        assert fired.sentence.startswith("3 jobs failed (host acme-outdoor.com) in the last 10 min")
        assert "last: HTTP 404" in fired.sentence
        assert watched.monitor.stats.failures == {"scrape": 3}

        watched.advance(2)
        await watched.poll_jobs()  # the same failed jobs listed again: they count once
        assert watched.said() == []
        watched.advance(2)
        await watched.poll_jobs()  # nothing new: the monitor's timer judges the rules again
        watched.tick()
        assert lifecycle(watched.said()) == [("repeated", "acme-outdoor.com")]

        watched.advance(6)  # the first two failures are 11 minutes old: out of the window
        watched.tick()
        assert lifecycle(watched.said()) == [("resolved", "acme-outdoor.com")]
        [(name, subject, state, detail)] = await watched.journaled_alerts()
        assert (name, subject, state, detail["repeats"]) == ("job_failed", "acme-outdoor.com", "resolved", 1)
        assert detail["sentence"].startswith("3 jobs failed (host acme-outdoor.com)")


async def test_crawl_failed_fires_for_a_crawl_robots_txt_forbids_and_for_a_cancelled_one(tmp_path: Path) -> None:
    rule = CrawlEndedRule(window_minutes=30, repeat_minutes=10)
    async with watching(tmp_path, rule) as watched:
        client = watched.client
        forbidden = (await client.crawl.start(f"{SITE}/admin")).id  # robots.txt disallows /admin
        cancelled = (await client.crawl.start(f"{SITE}/", limit=20)).id
        await watched.poll_crawl(forbidden)
        await watched.poll_crawl(cancelled)
        assert watched.said() == [], "both crawls are running"

        watched.clock.advance(2)  # two emulator seconds: the forbidden start has failed, 4 pages are done
        await client.crawl.cancel(cancelled)
        await watched.poll_crawl(forbidden)
        await watched.poll_crawl(cancelled)
        fired = {each.subject: each for each in watched.said()}
        assert {each.what for each in fired.values()} == {"fired"}
        assert fired[forbidden].sentence == f"crawl {forbidden} failed at 12:00 UTC"
        assert fired[cancelled].sentence == f"crawl {cancelled} cancelled at 12:00 UTC after 4 of 20 pages"

        watched.advance(5)
        await watched.poll_crawl(forbidden)  # ended crawls polled again: said once
        assert watched.said() == []
        watched.advance(5)
        watched.tick()
        assert set(lifecycle(watched.said())) == {("repeated", cancelled), ("repeated", forbidden)}

        watched.advance(21)  # half an hour after they ended
        watched.tick()
        assert set(lifecycle(watched.said())) == {("resolved", cancelled), ("resolved", forbidden)}
        rows = {(subject, state) for name, subject, state, _ in await watched.journaled_alerts()}
        assert rows == {(forbidden, "resolved"), (cancelled, "resolved")}
        assert watched.monitor.stats.jobs == {("crawl", "failed"): 1, ("crawl", "cancelled"): 1}


async def test_crawl_stalled_fires_while_a_delayed_crawl_has_no_new_page_and_resolves_when_one_comes(
    tmp_path: Path,
) -> None:
    rule = CrawlStalledRule(minutes=10, repeat_minutes=3)
    async with watching(tmp_path, rule) as watched:
        # `delay` (seconds between requests) is the crawl option that paces a crawl: 15 minutes a page.
        crawl_id = (await watched.client.crawl.start(f"{SITE}/", limit=3, delay=900)).id
        await watched.poll_crawl(crawl_id)
        watched.advance(9)
        await watched.poll_crawl(crawl_id)
        assert watched.said() == []

        watched.advance(1)
        await watched.poll_crawl(crawl_id)
        assert [(each.what, each.sentence) for each in watched.said()] == [
            ("fired", f"crawl {crawl_id} has had no new page for 10 min (0 of 3 pages)")
        ]
        watched.advance(3)
        await watched.poll_crawl(crawl_id)
        [repeated] = watched.said()
        assert (repeated.what, repeated.sentence) == (
            "repeated",
            f"crawl {crawl_id} has had no new page for 13 min (0 of 3 pages)",
        )

        watched.advance(2)  # 15 minutes: the first page is in
        status = await watched.client.crawl.get(crawl_id)
        assert status.completed == 1
        await watched.poll_crawl(crawl_id)
        assert lifecycle(watched.said()) == [("resolved", crawl_id)]
        [(name, subject, state, detail)] = await watched.journaled_alerts()
        assert (name, subject, state, detail["repeats"]) == ("crawl_stalled", crawl_id, "resolved", 1)
        await watched.client.crawl.cancel(crawl_id)


async def test_batch_failed_counts_missing_pages_and_pages_that_left_no_document(tmp_path: Path) -> None:
    rule = BatchFailedRule(max_failed_percent=25, window_minutes=20, repeat_minutes=5)
    async with watching(tmp_path, rule) as watched:
        client = watched.client
        links = [link.url for link in (await client.map(f"{SITE}/")).links]
        # The site's annual reports are slower than a scrape's default timeout: they time out.
        slow = next(url for url in links if "/reports/" in url)
        good = [url for url in links if "/reports/" not in url][:2]
        batch_id = (await client.batch.create([*good, f"{SITE}/{MISSING[0]}", slow])).id
        await watched.poll_batch(batch_id)
        assert watched.said() == []

        watched.advance(2)
        status = await client.batch.get(batch_id)
        assert (status.status, status.completed, status.total, len(status.data)) == ("completed", 4, 4, 3)
        await watched.poll_batch(batch_id)
        [fired] = watched.said()
        assert (fired.what, fired.subject) == ("fired", batch_id)
        assert fired.sentence == f"batch {batch_id} finished at 12:02 UTC with 2 of 4 pages failed (50%)"

        watched.advance(5)
        await watched.poll_batch(batch_id)  # an ended batch polled again is judged by the timer, not again
        watched.tick()
        assert lifecycle(watched.said()) == [("repeated", batch_id)]
        watched.advance(15)
        watched.tick()
        assert lifecycle(watched.said()) == [("resolved", batch_id)]
        [(name, subject, state, detail)] = await watched.journaled_alerts()
        assert (name, subject, state) == ("batch_failed", batch_id, "resolved")
        assert "2 of 4 pages failed" in detail["sentence"]
