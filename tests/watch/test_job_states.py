"""Job states and the activity reader stay bounded, and a failing service ends a round of asking at once."""

from __future__ import annotations

import httpx

from tests.watch.recording_feed import CountingTransport, client_on, seeded
from tui.api.resources.jobs import STATUS_KINDS
from tui.monitor.watch.activity_reader import ActivityReader
from tui.monitor.watch.job_states import JobStates


async def test_the_backlog_and_the_finished_memory_keep_their_sizes() -> None:
    transport = CountingTransport(seeded())
    async with client_on(transport) as client:
        entries = [entry async for entry in client.team.iter_activity() if entry.endpoint in STATUS_KINDS]
        assert len(entries) > 60
        states = JobStates(client, backlog_size=50, finished_kept=10, asks_per_poll=20)
        states.add(entries)
        assert states.waiting == 50
        round_ = await states.ask_due()
        assert len(round_.answers) == 20 and not round_.errors
        assert states.finished == 10
        assert states.waiting == 50 - sum(answer.summary.finished for answer in round_.answers)


async def test_a_service_in_trouble_ends_the_round_after_the_first_failures() -> None:
    transport = CountingTransport(seeded())
    async with client_on(transport) as client:
        entries = [entry async for entry in client.team.iter_activity() if entry.endpoint == "scrape"]
        states = JobStates(client, max_in_flight=2, asks_per_poll=40)
        states.add(entries)
        waiting = states.waiting
        transport.broken = httpx.ConnectError("connection refused")
        before = len(transport.paths)
        round_ = await states.ask_due()
        assert 1 <= len(transport.paths) - before <= 2  # the calls already in flight, no more
        assert round_.errors and not round_.answers
        assert states.waiting == waiting  # nothing lost: asked again next poll


async def test_the_reader_remembers_a_bounded_number_of_ids_and_reads_at_most_its_pages() -> None:
    transport = CountingTransport(seeded())
    async with client_on(transport) as client:
        total = len([entry async for entry in client.team.iter_activity()])
        before = transport.asked("/v2/team/activity")
        reader = ActivityReader(client, max_pages=1, seen_kept=0)
        first = await reader.new_entries()
        assert len(first) == min(100, total)
        assert reader.seen == 100  # never fewer than a poll's pages hold
        assert total > 100 and transport.asked("/v2/team/activity") - before == 1
