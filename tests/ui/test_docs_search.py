"""The docs search screen on the in-process emulator: debounce, newest question wins, errors, reading a result."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Markdown, OptionList, Static

from tests.support.dashboard import dashboard, wait_until
from tests.ui.docs_search_helpers import (  # noqa: F401 (fixtures)
    DocsSearchFaults,
    DroppingTransport,
    client,
    emulator,
    faults,
    host,
    open_search,
    searched,
    shown_titles,
    status,
    transport,
)
from tui.api.client import WdsClient
from tui.dashboard.features.support.docs_search import DocsSearchScreen
from tui.emulator.service import Emulator

# --- searching as you type ------------------------------------------------------------------


async def test_a_burst_of_keys_sends_one_request_once_typing_pauses(
    client: WdsClient, faults: DocsSearchFaults
) -> None:
    async with host(client).run_test(size=(100, 30)) as pilot:
        # A pause of 1 s, not the default 0.4 s: a loaded test machine may be slow between two keys.
        pilot.app.push_screen(DocsSearchScreen(client, debounce=1.0))
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, DocsSearchScreen)
        assert "searched 1 s after you stop typing" in status(screen)
        await pilot.press(*"how long is a scrape cached")
        assert faults.asked == []  # still within the pause after the last key
        await searched(pilot, screen, "how long is a scrape cached")
        assert faults.asked == ["how long is a scrape cached"]
        assert "sources for “how long is a scrape cached”" in status(screen)
        assert shown_titles(screen)[0].startswith("Answer")
        # Sources about the cache; which page ranks third moves with any edit of the bundled docs.
        assert all("cach" in title.lower() for title in shown_titles(screen)[1:3])


async def test_enter_searches_at_once_without_waiting_for_the_pause(
    client: WdsClient, faults: DocsSearchFaults
) -> None:
    async with host(client).run_test(size=(100, 30)) as pilot:
        app = pilot.app
        app.push_screen(DocsSearchScreen(client, debounce=60))  # a pause nobody waits for
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DocsSearchScreen)
        await pilot.press(*"webhook signature", "enter")
        await searched(pilot, screen, "webhook signature")
        assert faults.asked == ["webhook signature"]
        await pilot.press("enter")  # Enter again asks again (after an error, it is the retry)
        await wait_until(pilot, lambda: len(faults.asked) == 2, "the second request")


async def test_a_newer_question_wins_over_an_answer_still_on_its_way(
    client: WdsClient, faults: DocsSearchFaults
) -> None:
    release = faults.hold("webhook signature")
    async with host(client).run_test(size=(100, 30)) as pilot:
        screen = await open_search(pilot)
        query = screen.query_one("#docs-query", Input)
        await pilot.press(*"webhook signature", "enter")
        await wait_until(pilot, lambda: faults.asked == ["webhook signature"], "the first request")
        assert screen.query_one("#docs-spinner").display
        assert "Searching the docs for “webhook signature”" in status(screen)
        query.value = "caching maxAge"
        await pilot.press("enter")
        await searched(pilot, screen, "caching maxAge")
        release.set()  # the first answer may now come: it must not replace the second
        await pilot.app.workers.wait_for_complete()  # a first search still running has had its answer
        await pilot.pause()
        assert screen.memory.answered == "caching maxAge"
        assert not any("webhook" in title.lower() for title in shown_titles(screen))
        assert "“caching maxAge”" in status(screen)
        assert not screen.query_one("#docs-spinner").display
        assert faults.asked == ["webhook signature", "caching maxAge"]


async def test_typing_back_to_the_question_on_show_sends_nothing(client: WdsClient, faults: DocsSearchFaults) -> None:
    async with host(client).run_test(size=(100, 30)) as pilot:
        pilot.app.push_screen(DocsSearchScreen(client, debounce=1.0))  # see the burst test
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, DocsSearchScreen)
        await pilot.press(*"crawl limit", "enter")
        await searched(pilot, screen, "crawl limit")
        await pilot.press("s", "backspace")
        await pilot.pause(1.2)  # past the 1 s debounce: a search the backspace failed to call off would be out
        assert faults.asked == ["crawl limit"]
        assert not screen.query_one("#docs-results").has_class("-stale")


async def test_a_question_over_the_limit_is_not_sent_and_is_kept(client: WdsClient, faults: DocsSearchFaults) -> None:
    async with host(client).run_test(size=(100, 30)) as pilot:
        # A short debounce (no keys are typed here): the pauses below only need to outlast it.
        screen = DocsSearchScreen(client, debounce=0.1)
        await pilot.app.push_screen(screen)
        long_question = "why " * 2001  # 8004 characters
        query = screen.query_one("#docs-query", Input)
        query.value = long_question
        await pilot.press("enter")
        await pilot.pause(0.3)  # past the debounce: a request sent anyway would have reached the service
        assert faults.asked == []
        assert "8,003 characters long" in status(screen) and "at most 8,000" in status(screen)
        assert screen.query_one("#docs-status").has_class("-error")
        assert query.value == long_question
        query.value = "   "
        await pilot.press("enter")
        await pilot.pause(0.3)  # as above
        assert faults.asked == []  # blank: nothing to search, and nothing to complain about
        assert "Type a question" in status(screen)


# --- errors: each its own message, the question kept, the app alive ----------------------------


ERRORS = [
    (400, {}, "The service refused the question (400): question is not allowed. Change it and press Enter."),
    (401, {}, "The service refused the API key (401)."),
    (
        429,
        {"Retry-After": "30"},
        "Too many requests (429): the service asks to wait 30 seconds before the next search.",
    ),
    (502, {}, "The AI service behind docs search could not be reached (502)"),
    (503, {}, "Docs search is not available on this service (503): it has no AI backend configured"),
    (504, {}, "The docs search ran out of time on the service (504)."),
    (500, {}, "The service failed (500): boom."),
]


@pytest.mark.parametrize(("code", "headers", "expected"), ERRORS, ids=[str(code) for code, _, _ in ERRORS])
async def test_each_error_of_the_endpoint_has_its_own_message(
    client: WdsClient, faults: DocsSearchFaults, code: int, headers: dict[str, str], expected: str
) -> None:
    message = {400: "question is not allowed", 500: "boom"}.get(code, "nope")
    async with host(client).run_test(size=(100, 30)) as pilot:
        screen = await open_search(pilot)
        await pilot.press(*"caching", "enter")
        await searched(pilot, screen, "caching")
        before = shown_titles(screen)
        faults.fail(code, message, headers)
        await pilot.press(*" proxies", "enter")
        await wait_until(pilot, lambda: screen.query_one("#docs-status").has_class("-error"), "the error")
        assert expected in status(screen)
        assert "The results below are for the earlier question “caching”." in status(screen)
        assert "`" not in status(screen)
        assert screen.query_one("#docs-query", Input).value == "caching proxies"
        assert shown_titles(screen) == before  # nothing found earlier is lost either
        assert screen.query_one("#docs-results").has_class("-stale")
        assert pilot.app.is_running and pilot.app.screen is screen


async def test_after_a_rate_limit_the_question_is_asked_again_once_the_wait_is_over(
    client: WdsClient, faults: DocsSearchFaults
) -> None:
    async with host(client).run_test(size=(100, 30)) as pilot:
        screen = await open_search(pilot)
        faults.fail(429, "Rate limit exceeded.", {"Retry-After": "1"})
        await pilot.press(*"crawl", "enter")
        await wait_until(pilot, lambda: screen.query_one("#docs-status").has_class("-error"), "the 429")
        assert "asks to wait 1 second before the next search" in status(screen)
        assert "asked again by itself once the wait is over" in status(screen)
        faults.answer = None
        await searched(pilot, screen, "crawl")
        assert faults.asked == ["crawl", "crawl"]


async def test_a_lost_connection_says_so_and_enter_tries_again(
    client: WdsClient, faults: DocsSearchFaults, transport: DroppingTransport
) -> None:
    async with host(client).run_test(size=(100, 30)) as pilot:
        screen = await open_search(pilot)
        transport.dropped = True
        await pilot.press(*"caching", "enter")
        await wait_until(pilot, lambda: screen.query_one("#docs-status").has_class("-error"), "the error")
        assert status(screen).startswith("Connection lost: the service cannot be reached")
        assert "Enter tries again." in status(screen)
        transport.dropped = False
        await pilot.press("enter")
        await searched(pilot, screen, "caching")
        assert not screen.query_one("#docs-status").has_class("-error")


# --- reading a result, closing and coming back --------------------------------------------------


async def test_enter_on_a_result_reads_it_and_escape_goes_back_to_the_list_as_it_was(client: WdsClient) -> None:
    async with host(client).run_test(size=(100, 30)) as pilot:
        screen = await open_search(pilot)
        await pilot.press(*"caching maxAge", "enter")
        await searched(pilot, screen, "caching maxAge")
        results = screen.query_one("#docs-results", OptionList)
        screen.action_to_results()  # down, from the question to the results
        assert pilot.app.focused is results  # at once: an enter typed right after must open, not search again
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        opened = screen.results[2]
        assert opened.location == "docs/caching.md#maxage-default-2-days"
        assert screen.query_one("#docs-reader").display and not screen.query_one("#docs-finder").display
        document = screen.query_one("#docs-document", Markdown)
        assert document.source.startswith(f"# {opened.title}")
        assert "172800000 ms (2 days)" in document.source
        assert "Why this source:" in document.source
        assert str(screen.query_one("#docs-source", Static).content) == "Source: docs/caching.md#maxage-default-2-days"
        await pilot.press("escape")
        await pilot.pause()
        assert screen.query_one("#docs-finder").display
        assert pilot.app.focused is results and results.highlighted == 2
        await pilot.press("up", "up")
        assert pilot.app.focused is results and results.highlighted == 0
        await pilot.press("up")  # from the first result back to the question, not round to the last
        assert pilot.app.focused is screen.query_one("#docs-query", Input) and results.highlighted == 0
        await pilot.press("down")
        assert pilot.app.focused is results
        assert screen.query_one("#docs-query", Input).value == "caching maxAge"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(pilot.app.screen, DocsSearchScreen)


async def test_the_answer_entry_reads_the_whole_answer_with_its_sources(client: WdsClient) -> None:
    async with host(client).run_test(size=(100, 30)) as pilot:
        screen = await open_search(pilot)
        await pilot.press(*"caching maxAge", "enter")
        await searched(pilot, screen, "caching maxAge")
        await pilot.press("down", "enter")
        await pilot.pause()
        source = screen.query_one("#docs-document", Markdown).source
        assert source.startswith("# Answer (3 sources)")
        assert screen.memory.answer is not None and screen.memory.answer.answer in source
        assert "## Sources" in source and "docs/caching.md#storeincache" in source


async def test_no_match_still_shows_the_answer_entry(client: WdsClient) -> None:
    async with host(client).run_test(size=(100, 30)) as pilot:
        screen = await open_search(pilot)
        await pilot.press(*"zzqx", "enter")
        await searched(pilot, screen, "zzqx")
        assert shown_titles(screen) == ["Answer (no sources cited)"]
        assert "No source cited for “zzqx”" in status(screen)


async def test_a_search_is_kept_for_the_next_opening_from_the_dashboard(
    emulator: Emulator, faults: DocsSearchFaults
) -> None:
    app = dashboard(emulator, DroppingTransport(faults))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash")
        await wait_until(pilot, lambda: isinstance(app.screen, DocsSearchScreen), "the docs search screen")
        screen = app.screen
        assert isinstance(screen, DocsSearchScreen)
        await pilot.press(*"rate/limit", "enter")  # "/" typed into the question stays text
        await searched(pilot, screen, "rate/limit")
        await pilot.press("down", "down")
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, DocsSearchScreen)
        await pilot.press("slash")
        await wait_until(pilot, lambda: isinstance(app.screen, DocsSearchScreen), "the screen again")
        again = app.screen
        assert isinstance(again, DocsSearchScreen) and again is not screen
        await pilot.pause()
        assert again.query_one("#docs-query", Input).value == "rate/limit"
        assert shown_titles(again) == shown_titles(screen)
        assert again.query_one("#docs-results", OptionList).highlighted == 1
        assert faults.asked == ["rate/limit"]  # shown from memory, not asked again
        await pilot.press("s")  # refining: the kept question is not selected, so a key adds to it
        assert again.query_one("#docs-query", Input).value == "rate/limits"


async def test_closing_while_searching_asks_again_on_the_next_opening(
    client: WdsClient, faults: DocsSearchFaults
) -> None:
    release = faults.hold("proxies")
    async with host(client).run_test(size=(100, 30)) as pilot:
        screen = await open_search(pilot)
        await pilot.press(*"proxies", "enter")
        await wait_until(pilot, lambda: faults.asked == ["proxies"], "the request")
        await pilot.press("escape")
        await pilot.pause()
        release.set()
        again = await open_search(pilot)
        await searched(pilot, again, "proxies")
        assert faults.asked == ["proxies", "proxies"]
        assert screen is not again


async def test_slash_in_another_text_field_is_typed_not_a_docs_search(
    emulator: Emulator, faults: DocsSearchFaults
) -> None:
    from tui.dashboard.features.sessions.form import SessionFormScreen
    from tui.dashboard.features.sessions.pane import SessionsPane

    app = dashboard(emulator, DroppingTransport(faults))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.query_one(SessionsPane).data is not None, "the sessions pane")
        app.query_one(SessionsPane).action_create()
        await wait_until(pilot, lambda: isinstance(app.screen, SessionFormScreen), "the form")
        await pilot.pause()
        field = next(each for each in app.screen.query(Input) if each.type == "text")  # the profile name
        field.focus()
        await pilot.pause()
        before = field.value
        await pilot.press("slash")
        await pilot.pause()
        assert isinstance(app.screen, SessionFormScreen)
        assert field.value == before + "/"
        assert app.check_action("docs_search", ()) is False


async def test_slash_opens_the_search_over_another_screen_and_esc_comes_back_to_it(
    emulator: Emulator, faults: DocsSearchFaults
) -> None:
    from tui.dashboard.features.activity.job_detail import JobDetailScreen

    app = dashboard(emulator, DroppingTransport(faults))
    async with app.run_test(size=(120, 40)) as pilot:
        job = JobDetailScreen(app.client, "map", "0f0e0d0c-0000-4000-8000-000000000000")
        await app.push_screen(job)
        await pilot.pause()
        await pilot.press("slash")
        await wait_until(pilot, lambda: isinstance(app.screen, DocsSearchScreen), "the docs search screen")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is job
