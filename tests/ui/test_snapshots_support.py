"""Pictures of asking support about a job, and of the job screen of a failed scrape, at 120x40 and 80x24.

On a seeded emulator with a frozen clock; the support agent's own timer and
the screen's are fixed too, so every duration shown is the same on every run.
Update after an intended change with
`pytest tests/ui/test_snapshots_support.py --snapshot-update` and look at the pictures.
"""

from __future__ import annotations

import itertools

import pytest
from textual.pilot import Pilot
from textual.widgets import Static, TextArea

from tests.support.dashboard import (
    NOW,
    PaneHost,
    SwitchableTransport,
    client_on,
    freeze_cursors,
    frozen_clock,
    seeded_emulator,
    wait_until,
)
from tui.dashboard.features.activity.job_detail import JobDetailScreen
from tui.dashboard.features.support.ask import AskSupportScreen
from tui.dashboard.features.support.log import AskSubject, SupportLog
from tui.emulator.service import Emulator

SIZES = [(120, 40), (80, 24)]
MISSING_PAGE = "https://acme-outdoor.com/no-such-page-here"


def host(emulator: Emulator) -> PaneHost:
    """An empty app with a client on `emulator`, to push the screen on."""
    app = PaneHost(lambda: Static("dashboard"), footer=False)
    app.transport = SwitchableTransport(emulator)  # type: ignore[attr-defined]
    app.client = client_on(app.transport)  # type: ignore[attr-defined]
    return app


def reading(app: PaneHost, widget_id: str) -> None:
    """The focus on what the reader looks at, not in the editor: a TextArea's cursor blink
    cannot be stopped reliably for a picture (a toggle already queued may still hide it)."""
    app.screen.query_one(f"#{widget_id}").focus()
    freeze_cursors(app)


def fixed_timers(emulator: Emulator, agent_step: float = 0.0) -> None:
    """The agent's timer: still (durations of 0), or moving `agent_step` s each look (to run out of budget)."""
    ticks = itertools.count(0, agent_step) if agent_step else itertools.repeat(0)
    emulator.support.timer = lambda: float(next(ticks))


async def ask_about_missing_page(pilot: Pilot, log: SupportLog, *questions: str) -> AskSupportScreen:
    app = pilot.app
    scraped = await app.client.scrape.create(MISSING_PAGE)  # type: ignore[attr-defined]
    subject = AskSubject(scraped.job_id, "scrape", "scraped", "HTTP 404", MISSING_PAGE)
    paths = app.transport.paths  # type: ignore[attr-defined]
    # The screen's clock moves 7.5 s per question sent, so each one "takes" 7.5 s, however often it looks.
    timer = lambda: 7.5 * paths.count("/v2/support/ask")  # noqa: E731
    screen = AskSupportScreen(app.client, subject, log=log, clock=frozen_clock(NOW), timer=timer)  # type: ignore[attr-defined]
    await app.push_screen(screen)
    await pilot.pause()
    for question in questions or ("",):
        if question:
            screen.query_one("#question", TextArea).text = question
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not screen.asking, "the answer")
    await pilot.pause()
    reading(app, "answer")
    await pilot.pause()
    return screen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_ask_support_with_an_answer(snap_compare, size) -> None:
    emulator = seeded_emulator(seed=3, history=False)
    fixed_timers(emulator)

    async def ask(pilot: Pilot) -> None:
        await ask_about_missing_page(pilot, SupportLog())

    assert snap_compare(host(emulator), terminal_size=size, run_before=ask)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_ask_support_with_a_504_partial_answer(snap_compare, size) -> None:
    emulator = seeded_emulator(seed=3, history=False)
    fixed_timers(emulator, agent_step=20)  # the budget runs out before the fix is tested

    async def ask(pilot: Pilot) -> None:
        await ask_about_missing_page(pilot, SupportLog())

    assert snap_compare(host(emulator), terminal_size=size, run_before=ask)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_ask_support_comparing_two_answers(snap_compare, size) -> None:
    """At 120 columns the earlier answer beside the new one; at 80, the list in the question's place."""
    emulator = seeded_emulator(seed=3, history=False)
    fixed_timers(emulator)

    async def ask_twice(pilot: Pilot) -> None:
        screen = await ask_about_missing_page(
            pilot, SupportLog(), "", "Which page of the site should I scrape instead?"
        )
        await pilot.press("ctrl+o")  # to the list: at 80 columns it takes the question's place
        await pilot.press("enter")  # the first question stayed highlighted
        await pilot.pause()
        assert screen.compared is not None and screen.compared.number == 1

    assert snap_compare(host(emulator), terminal_size=size, run_before=ask_twice)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_job_detail_of_a_scrape_whose_page_answered_404(snap_compare, size) -> None:
    emulator = seeded_emulator(seed=3, history=False)

    async def open_scrape(pilot: Pilot) -> None:
        app = pilot.app
        scraped = await app.client.scrape.create(MISSING_PAGE)  # type: ignore[attr-defined]
        app.push_screen(JobDetailScreen(app.client, "scrape", scraped.job_id, target=MISSING_PAGE))  # type: ignore[attr-defined]
        await wait_until(pilot, lambda: getattr(app.screen, "job", None) is not None, "the document")
        await pilot.pause()

    assert snap_compare(host(emulator), terminal_size=size, run_before=open_scrape)
