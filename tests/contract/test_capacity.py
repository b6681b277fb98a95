"""The team's capacity: `GET /v2/team/queue-status`, `GET /v2/concurrency-check`, `GET /v2/team/credit-usage`.

Not in the contract: the real service's calls that the official SDKs make,
served by the emulator from its jobs and its ledger; here through our client.
"""

from __future__ import annotations

from datetime import UTC, datetime

from tests.contract.service import SITE, Service
from tui.api.client import WdsClient
from tui.contract.models import ConcurrencyCheck, CreditBalance, QueueStatus


async def test_an_idle_team_has_an_empty_queue_and_idle_workers(alpha: WdsClient) -> None:
    queue = await alpha.team.queue_status()
    assert isinstance(queue, QueueStatus)
    assert (queue.jobs_in_queue, queue.active_jobs_in_queue, queue.waiting_jobs_in_queue) == (0, 0, 0)
    assert (queue.max_concurrency, queue.most_recent_success, queue.saturated) == (2, None, False)
    workers = await alpha.team.concurrency_check()
    assert isinstance(workers, ConcurrencyCheck)
    assert (workers.concurrency, workers.max_concurrency) == (0, 2)


async def test_a_running_crawl_fills_the_queue_and_saturates_it(service: Service, alpha: WdsClient) -> None:
    await alpha.crawl.start(f"{SITE}/", limit=10)
    service.clock.advance(2)  # two workers, a page a second each: 4 of 10 pages scraped
    queue = await alpha.team.queue_status()
    assert (queue.jobs_in_queue, queue.active_jobs_in_queue, queue.waiting_jobs_in_queue) == (6, 2, 4)
    assert queue.saturated, "both workers busy and pages waiting"
    assert queue.most_recent_success == service.clock.now()
    assert (await alpha.team.concurrency_check()).concurrency == 2
    service.clock.advance(60)
    done = await alpha.team.queue_status()
    assert (done.jobs_in_queue, done.saturated) == (0, False)


async def test_the_queue_is_the_teams_own(service: Service, alpha: WdsClient, beta: WdsClient) -> None:
    await alpha.crawl.start(f"{SITE}/", limit=10)
    service.clock.advance(1)
    assert (await beta.team.queue_status()).jobs_in_queue == 0
    assert (await beta.team.concurrency_check()).concurrency == 0


async def test_the_credit_balance_falls_with_each_billed_call(service: Service, alpha: WdsClient) -> None:
    before = await alpha.team.credit_usage()
    assert isinstance(before, CreditBalance)
    assert before.remaining_credits == service.team().credits_remaining
    assert before.plan_credits == before.remaining_credits  # nothing used this month yet
    assert before.share_left == 1.0
    assert before.billing_period_start == datetime(2025, 6, 1, tzinfo=UTC)
    await alpha.scrape.create(f"{SITE}/about")  # 1 credit
    after = await alpha.team.credit_usage()
    assert after.remaining_credits == before.remaining_credits - 1
    assert after.plan_credits == before.plan_credits
    assert after.share_left == (before.remaining_credits - 1) / before.remaining_credits
