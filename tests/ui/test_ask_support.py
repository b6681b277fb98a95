"""The ask-support screen on the in-process emulator: the prefilled question, the answer in parts,
a 504's partial envelope, one message per error of the contract, Esc cancelling, and the run's list.

Errors the emulator cannot be made to give (a 503 of a service without AI, a
502, a 429, a lost connection) come from a small transport in front of the
emulator that answers `/v2/support/ask` itself; everything else is the
emulator's own answer.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static, TextArea

from tests.support.dashboard import (
    BASE_URL,
    KEY,
    NOW,
    PaneHost,
    SwitchableTransport,
    client_over,
    dashboard,
    seeded_emulator,
    settle,
    wait_until,
)
from tui.api.client import WdsClient
from tui.dashboard.features.support.answer import SupportAnswerView
from tui.dashboard.features.support.ask import NOTHING_TO_ASK, AskSupportScreen
from tui.dashboard.features.support.log import AskDraft, AskSubject, SupportLog, prefilled_question
from tui.dashboard.shell.intents import AskSupport, OpenJob
from tui.dashboard.shell.navigation import Navigator
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

ASK = "/v2/support/ask"
MISSING_PAGE = "https://acme-outdoor.com/no-such-page-here"


@pytest.fixture
def emulator(clock: ManualClock) -> Emulator:
    # No seeded history: each test makes the job it asks about.
    return seeded_emulator(seed=3, clock=clock, history=False)


class SupportFront(httpx.AsyncBaseTransport):
    """The emulator behind a front that records ask bodies, can hold them, and can answer them itself."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.asked: list[dict[str, object]] = []
        self.answer: Callable[[httpx.Request], httpx.Response] | None = None
        self.gate: asyncio.Event | None = None  # set: asks wait for it

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == ASK:
            self.asked.append(json.loads(request.content))
            if self.gate is not None:
                await self.gate.wait()
            if self.answer is not None:
                return self.answer(request)
        return await self.inner.handle_async_request(request)


@pytest.fixture
def front(transport: SwitchableTransport) -> SupportFront:
    return SupportFront(transport)


@pytest.fixture
async def client(front: SupportFront):  # type: ignore[no-untyped-def]
    async with httpx.AsyncClient(transport=front, base_url=BASE_URL) as http:
        yield client_over(http)


def host(client: WdsClient, navigator: Navigator | None = None) -> PaneHost:
    return PaneHost(lambda: Static("dashboard"), footer=False, navigator=navigator or Navigator(client))


async def failed_scrape(client: WdsClient) -> str:
    scraped = await client.scrape.create(MISSING_PAGE)
    assert scraped.job_id is not None and scraped.data is not None
    assert scraped.data.metadata.status_code == 404
    return scraped.job_id


async def open_ask(pilot: Pilot[None], job_id: str, **known: str | None) -> AskSupportScreen:
    fields = {"kind": "scrape", "status": "scraped", "error": "HTTP 404", "target": MISSING_PAGE} | known
    pilot.app.post_message(AskSupport(job_id, **fields))  # type: ignore[arg-type]
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, AskSupportScreen), "the ask screen")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, AskSupportScreen)
    return screen


async def send(pilot: Pilot[None], screen: AskSupportScreen) -> None:
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: not screen.asking and screen.current is not None, "the answer")
    await pilot.pause()


def answer_view(screen: AskSupportScreen, which: str = "answer") -> SupportAnswerView:
    return screen.query_one(f"#{which}", SupportAnswerView)


# --- the question ------------------------------------------------------------------------


def test_prefilled_question_says_what_is_known() -> None:
    job = "1a2b3c4d-0000-4000-8000-000000000000"
    assert prefilled_question(AskSubject(job, "scrape", "scraped", "HTTP 404", "https://x/y")) == (
        "My scrape job 1a2b3c4d of https://x/y failed with HTTP 404. Why, and how do I fix it?"
    )
    assert prefilled_question(AskSubject(job, "crawl", "failed", "Robots disallow it.")) == (
        "My crawl job 1a2b3c4d failed: Robots disallow it. Why, and how do I fix it?"
    )
    assert prefilled_question(AskSubject(job, "batch_scrape", "failed")) == (
        "My batch scrape job 1a2b3c4d failed. Why, and how do I fix it?"
    )
    assert prefilled_question(AskSubject(job, "crawl", "scraping")) == (
        "My crawl job 1a2b3c4d is still scraping. Is something wrong with it?"
    )
    assert prefilled_question(AskSubject(job, "agent")) == (
        "My agent job 1a2b3c4d: what happened, and is anything wrong with it?"
    )


async def test_edited_question_is_sent_with_the_job_id_and_the_answer_shown_in_parts(
    client: WdsClient, front: SupportFront
) -> None:
    job_id = await failed_scrape(client)
    async with host(client).run_test(size=(120, 40)) as pilot:
        screen = await open_ask(pilot, job_id)
        question = screen.query_one("#question", TextArea)
        assert question.text == (
            f"My scrape job {job_id[:8]} of {MISSING_PAGE} failed with HTTP 404. Why, and how do I fix it?"
        )
        assert pilot.app.focused is question
        await pilot.press(*" Thanks", "tab", *"I list the shop's pages", "enter")  # Enter there sends
        await wait_until(pilot, lambda: not screen.asking and screen.current is not None, "the answer")
        await pilot.pause()

        assert front.asked == [{"question": question.text, "rationale": "I list the shop's pages", "jobId": job_id}]
        assert question.text.endswith("Why, and how do I fix it? Thanks")  # never cleared
        view = answer_view(screen)
        # The closest page the agent found answers 500: its fix failed the test, so the confidence is low.
        assert view.summary.startswith("✓ answered in ") and view.summary.endswith("· confidence low")
        answer = view.part_text("answer")
        assert answer is not None and answer.startswith(f"{MISSING_PAGE} does not exist: the site answers 404")
        fix = view.part_text("fix")
        assert fix is not None and json.loads(fix) == {"url": "https://acme-outdoor.com/status/legacy"}
        assert view.part_text("validation") == (
            "✗ tested against the live API: the fix did not work.\n"
            "Re-scraped https://acme-outdoor.com/status/legacy with the fix and it still failed: "
            "The target answered 500 Internal Server Error."
        )
        assert view.part_text("sources") == f"• {MISSING_PAGE}\n• https://acme-outdoor.com/status/legacy"
        assert view.part_text("problem") is None and view.part_text("stuck") is None


async def test_a_job_that_did_not_fail_shows_the_agent_stuck_with_what_it_tried(client: WdsClient) -> None:
    scraped = await client.scrape.create("https://acme-outdoor.com/")
    assert scraped.job_id is not None
    async with host(client).run_test(size=(120, 40)) as pilot:
        screen = await open_ask(pilot, scraped.job_id, status="scraped", error=None)
        await send(pilot, screen)
        view = answer_view(screen)
        assert view.summary.startswith("⚠ the agent is stuck · answered in ")
        stuck = view.part_text("stuck")
        assert stuck is not None and stuck.startswith(f"Blocked by: Job {scraped.job_id} did not fail")
        assert f"• looked up job {scraped.job_id}" in stuck


async def test_nothing_is_sent_for_an_empty_or_too_long_question(client: WdsClient, front: SupportFront) -> None:
    job_id = await failed_scrape(client)
    async with host(client).run_test(size=(80, 24)) as pilot:
        screen = await open_ask(pilot, job_id)
        question = screen.query_one("#question", TextArea)
        question.text = "   "
        await pilot.press("ctrl+s")
        error = screen.query_one("#question-error", Static)
        assert error.display and str(error.render()) == NOTHING_TO_ASK
        question.text = "x" * 8001
        await pilot.press("ctrl+s")
        assert str(error.render()) == "The question is 8,001 characters; the service takes at most 8,000. Shorten it."
        question.text = "Why?"
        screen.query_one("#rationale", Input).value = "r" * 2001
        await pilot.press("ctrl+s")
        assert pilot.app.focused is screen.query_one("#rationale", Input)
        assert not error.display and screen.query_one("#rationale-error", Static).display
        assert front.asked == [] and screen.current is None
        assert question.text == "Why?"


# --- errors --------------------------------------------------------------------------


def support_error(status: int, message: str, **headers: str) -> Callable[[httpx.Request], httpx.Response]:
    """The support endpoints' own error shape: `{"error": ...}`, no `success`."""
    return lambda request: httpx.Response(status, json={"error": message}, headers=headers)


def refused_question(request: httpx.Request) -> httpx.Response:
    body = {
        "error": "Invalid request body: question is too vague",
        "details": [{"path": "question", "message": "too vague"}],
    }
    return httpx.Response(400, json=body)


def connection_lost(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection reset by peer", request=request)


ERRORS = [
    pytest.param(
        support_error(503, "Support is not available."),
        "✗ No AI backend (503)",
        "This deployment of the service has no AI backend",
        id="503",
    ),
    pytest.param(
        support_error(502, "Upstream agent unreachable."),
        "✗ Support agent unreachable (502)",
        "could not reach its AI support agent: Upstream agent unreachable.",
        id="502",
    ),
    pytest.param(
        support_error(504, "Support agent timed out."),
        "✗ Out of time (504)",
        "The agent ran out of its 60 s budget; it sent back nothing.",
        id="504-empty",
    ),
    pytest.param(
        support_error(500, "Boom."), "✗ Server error (500)", "The service failed while answering: Boom.", id="500"
    ),
    pytest.param(
        support_error(429, "Rate limit exceeded.", **{"Retry-After": "12"}),
        "✗ Too many requests (429)",
        "Rate limit exceeded. Wait 12 s, then send again.",
        id="429",
    ),
    pytest.param(
        refused_question, "✗ The service refused the question (400)", "Edit the question and send it again.", id="400"
    ),
    pytest.param(connection_lost, "✗ Connection lost", "connection reset by peer", id="connection"),
]


@pytest.mark.parametrize(("answer", "summary", "message"), ERRORS)
async def test_each_error_has_its_own_message_and_the_question_is_kept(
    answer: Callable[[httpx.Request], httpx.Response],
    summary: str,
    message: str,
    client: WdsClient,
    front: SupportFront,
) -> None:
    job_id = await failed_scrape(client)
    front.answer = answer
    async with host(client).run_test(size=(80, 24)) as pilot:
        screen = await open_ask(pilot, job_id)
        question = screen.query_one("#question", TextArea)
        question.text = "Why does my scrape answer 404?"
        await send(pilot, screen)
        view = answer_view(screen)
        assert view.summary.startswith(summary)
        problem = view.part_text("problem")
        assert problem is not None and message in problem
        assert problem.endswith("The question is kept: edit it, or send it again with ctrl+s.")
        assert question.text == "Why does my scrape answer 404?"
        assert screen.current is not None and screen.current.state == "failed"
        field_error = screen.query_one("#question-error", Static)
        assert field_error.display == (summary.startswith("✗ The service refused"))
        assert screen.check_action("send", ()) is True  # free to send again


async def test_a_refused_key_says_so(emulator: Emulator, front: SupportFront) -> None:
    async with httpx.AsyncClient(transport=front, base_url=BASE_URL) as http:
        good = client_over(http)
        job_id = await failed_scrape(good)
        refused = client_over(http, key="wds-" + "0" * 32)
        async with host(refused).run_test(size=(80, 24)) as pilot:
            screen = await open_ask(pilot, job_id)
            await send(pilot, screen)
            view = answer_view(screen)
            assert view.summary.startswith("✗ API key refused (401)")
            # The advice every screen gives for a refused key (tui.dashboard.kit.error_words.KEY_ADVICE).
            assert "Check WDS_API_KEY" in (view.part_text("problem") or "")
    assert KEY not in str(front.asked)


async def test_a_504_keeps_and_shows_the_partial_envelope(client: WdsClient, emulator: Emulator) -> None:
    job_id = await failed_scrape(client)
    # Each look at the emulator's clock costs 20 s: the budget runs out after the rule, before the test of the fix.
    ticks = itertools.count(0, 20)
    emulator.support.timer = lambda: float(next(ticks))
    async with host(client).run_test(size=(120, 40)) as pilot:
        screen = await open_ask(pilot, job_id)
        await send(pilot, screen)
        view = answer_view(screen)
        assert screen.current is not None and screen.current.state == "partial"
        assert view.summary.startswith("✗ Out of time (504) after ") and view.summary.endswith(
            "the partial answer is below"
        )
        assert view.part_text("problem") == "The agent ran out of its 60 s budget; this is what it had."
        assert (view.part_text("answer") or "").startswith(f"{MISSING_PAGE} does not exist")
        assert view.part_text("fix") is not None  # found before the budget ran out, not yet tested
        assert view.part_text("validation") is None
        assert (view.part_text("stuck") or "").startswith("Blocked by: The 60 s budget ran out")


# --- waiting, cancelling ---------------------------------------------------------------


async def test_escape_cancels_the_request_and_keeps_the_question(client: WdsClient, front: SupportFront) -> None:
    job_id = await failed_scrape(client)
    front.gate = asyncio.Event()
    seconds = [100.0]
    async with host(client).run_test(size=(80, 24)) as pilot:
        screen = await open_ask(pilot, job_id)
        screen._timer = lambda: seconds[0]
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: len(front.asked) == 1, "the request")
        assert screen.asking and screen.check_action("send", ()) is None and screen.check_action("close", ()) is False
        seconds[0] = 112.0
        await wait_until(
            pilot,
            lambda: "asking the support agent… 12 s" in answer_view(screen).summary,
            "the seconds counted",
            seconds=3,
        )
        await pilot.press("ctrl+s")  # a second send while asking asks nothing
        await pilot.press("escape")
        await wait_until(pilot, lambda: not screen.asking, "the cancel")
        assert pilot.app.screen is screen
        assert screen.current is not None and screen.current.state == "cancelled"
        assert answer_view(screen).summary.startswith("⊘ cancelled after 12.0 s; the question is kept")
        assert screen.query_one("#question", TextArea).text.startswith(f"My scrape job {job_id[:8]}")
        assert len(front.asked) == 1
        await pilot.press("escape")
        assert pilot.app.screen is not screen


# --- the run's list ----------------------------------------------------------------------


async def test_questions_and_drafts_outlive_the_screen_and_two_answers_compare(
    client: WdsClient, front: SupportFront
) -> None:
    job_id = await failed_scrape(client)
    navigator = Navigator(client)
    async with host(client, navigator).run_test(size=(120, 40)) as pilot:
        screen = await open_ask(pilot, job_id)
        await send(pilot, screen)
        first = screen.current
        screen.query_one("#question", TextArea).text = "Is there a page like it that works?"
        await send(pilot, screen)
        assert screen.compared is first  # the answer replaced stays beside the new one
        assert answer_view(screen, "compare").record is first
        screen.query_one("#question", TextArea).text = "A draft I did not send"
        await pilot.press("escape")

        screen = await open_ask(pilot, job_id)
        assert screen.query_one("#question", TextArea).text == "A draft I did not send"
        assert answer_view(screen).record is screen.current and screen.current is not None
        assert screen.current.question == "Is there a page like it that works?"
        asked = screen.query_one("#asked", OptionList)
        assert asked.option_count == 2
        assert str(asked.get_option_at_index(1).prompt).startswith("#1 ")
        await pilot.press("ctrl+o")
        assert pilot.app.focused is asked
        await pilot.press("down", "enter")
        assert answer_view(screen, "compare").record is first
        assert answer_view(screen).record is screen.current  # side by side at 120 columns
        assert len(navigator.memory.support_log) == 2


async def test_at_80_columns_the_list_replaces_the_question(client: WdsClient) -> None:
    job_id = await failed_scrape(client)
    async with host(client).run_test(size=(80, 24)) as pilot:
        screen = await open_ask(pilot, job_id)
        await pilot.click("#send")  # the button sends as ctrl+s does
        await wait_until(pilot, lambda: not screen.asking and screen.current is not None, "the answer")
        await pilot.pause()
        side = screen.query_one("#ask-side")
        main = screen.query_one("#ask-main")
        assert main.display and not side.display
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert side.display and not main.display
        await pilot.press("enter")
        assert answer_view(screen, "compare").record is screen.current
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert main.display and not side.display
        assert pilot.app.focused is screen.query_one("#question", TextArea)
        await pilot.press("ctrl+o")
        await pilot.press("escape")  # from the list, Esc goes back to the question, not out
        await pilot.pause()
        assert pilot.app.screen is screen and main.display and not side.display


def test_the_log_keeps_its_last_questions_and_drafts_only() -> None:
    log = SupportLog(limit=3)
    subjects = [AskSubject(f"{n:08d}-0000-4000-8000-000000000000", "scrape") for n in range(5)]
    for subject in subjects:
        log.start(subject, "Why?", None, NOW)
        log.draft_for(subject)
    assert [record.number for record in log] == [3, 4, 5]
    assert log.get(1) is None and log.latest_for(subjects[4].job_id) is not None
    log.keep_draft(subjects[0].job_id, AskDraft("typed again"))
    assert log.draft_for(subjects[0]).question == "typed again"
    assert log.draft_for(subjects[3]).question.startswith("My scrape job 00000003")
    assert len(log._drafts) == 3


async def test_from_a_failed_scrapes_job_screen_a_asks_about_it_in_the_dashboard(
    emulator: Emulator, front: SupportFront
) -> None:
    app = dashboard(emulator, front)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        job_id = await failed_scrape(app.client)
        app.post_message(OpenJob("scrape", job_id, target=MISSING_PAGE))
        await wait_until(pilot, lambda: getattr(app.screen, "job", None) is not None, "the job screen")
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, AskSupportScreen), "the ask screen")
        screen = app.screen
        assert isinstance(screen, AskSupportScreen)
        await pilot.pause()
        assert screen.query_one("#question", TextArea).text == (
            f"My scrape job {job_id[:8]} of {MISSING_PAGE} failed with HTTP 404. Why, and how do I fix it?"
        )
        await send(pilot, screen)
        assert front.asked[-1]["jobId"] == job_id
        assert (answer_view(screen).part_text("answer") or "").startswith(f"{MISSING_PAGE} does not exist")
        await pilot.press("escape")
        assert getattr(app.screen, "job_id", None) == job_id  # back on the job screen
