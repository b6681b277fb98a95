"""Docs search links: OSC 8 hyperlinks for web addresses where the terminal has them, text otherwise."""

from __future__ import annotations

import pytest
from textual.content import Content
from textual.style import Style
from textual.widgets import OptionList, Static

from tests.ui.docs_search_helpers import (  # noqa: F401 (fixtures)
    DocsSearchFaults,
    client,
    emulator,
    faults,
    host,
    open_search,
    searched,
    shown_titles,
    transport,
)
from tui.api.client import WdsClient
from tui.dashboard.features.support.docs_search import DocsSearchScreen
from tui.dashboard.shell.intents import OpenDocsSearch
from tui.dashboard.shell.navigation import Navigator

SERVICE_ANSWER = {
    "requestId": "r-1",
    "answer": (
        "Scrapes are cached for two days by default; set maxAge to change it "
        "(see [Caching and maxAge](https://docs.example.com/features/cache#max-age)). "
        "Cached documents carry cacheState."
    ),
    "evidence": [
        {"pathOrUrl": "https://docs.example.com/features/cache#max-age", "reason": "Explains the maxAge default."},
        {"pathOrUrl": "https://docs.example.com/api-reference/scrape", "reason": "Lists the cacheState field."},
    ],
    "usage": {"inputTokens": 10, "outputTokens": 20, "totalTokens": 30},
    "durationMs": 1200,
}


def link_targets(screen: DocsSearchScreen, index: int) -> list[str]:
    """The hyperlinks in the prompt of result `index`, as the option list renders them."""
    prompt = screen.query_one("#docs-results", OptionList).get_option_at_index(index).prompt
    return [span.style.link for span in prompt.spans if isinstance(span.style, Style) and span.style.link]


@pytest.mark.parametrize("hyperlinks", [True, False], ids=["links", "plain"])
async def test_web_addresses_are_hyperlinks_only_where_the_terminal_has_them(
    client: WdsClient, faults: DocsSearchFaults, hyperlinks: bool
) -> None:
    faults.answer = (200, SERVICE_ANSWER, {})
    async with host(client).run_test(size=(100, 30)) as pilot:
        pilot.app.push_screen(DocsSearchScreen(client, query="cache default", hyperlinks=hyperlinks))
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, DocsSearchScreen)
        await searched(pilot, screen, "cache default")
        assert shown_titles(screen) == ["Answer (2 sources)", "Caching and maxAge", "scrape"]
        assert screen.results[1].snippet.startswith("Scrapes are cached for two days")
        assert screen.results[2].snippet == "Lists the cacheState field."
        expected = ["https://docs.example.com/features/cache#max-age"] if hyperlinks else []
        assert link_targets(screen, 1) == expected
        # What reaches the terminal: an OSC 8 hyperlink around the address, or none.
        written = screen._compositor.render_update(full=True).render_segments(pilot.app.console)
        assert (
            "\x1b]8;id=" in written and "https://docs.example.com/features/cache#max-age\x1b\\" in written
        ) is hyperlinks
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        source = screen.query_one("#docs-source", Static).visual
        assert isinstance(source, Content) and source.plain == "Source: https://docs.example.com/features/cache#max-age"
        assert bool([span for span in source.spans if isinstance(span.style, Style) and span.style.link]) is hyperlinks


async def test_a_relative_path_is_shown_as_text_not_as_a_link(client: WdsClient) -> None:
    async with host(client).run_test(size=(100, 30)) as pilot:
        pilot.app.push_screen(DocsSearchScreen(client, query="caching maxAge", hyperlinks=True))
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, DocsSearchScreen)
        await searched(pilot, screen, "caching maxAge")
        assert screen.results[1].location == "docs/caching.md"
        assert link_targets(screen, 1) == []


async def test_the_navigator_opens_the_search_with_a_question_and_keeps_it(
    client: WdsClient, faults: DocsSearchFaults
) -> None:
    async with host(client).run_test(size=(100, 30)) as pilot:
        screen = await open_search(pilot, "webhook retries")
        await searched(pilot, screen, "webhook retries")
        navigator = pilot.app.navigator
        assert navigator is not None and navigator.memory.docs_search.answered == "webhook retries"
        assert faults.asked == ["webhook retries"]


@pytest.mark.parametrize(
    ("environ", "hyperlinks"),
    [
        ({"TERM": "xterm-256color"}, True),
        ({"TERM": "dumb"}, False),
        ({"TERM": "linux"}, False),
        ({"TERM": "xterm-256color", "WDS_HYPERLINKS": "0"}, False),
        ({"TERM": "linux", "WDS_HYPERLINKS": "1"}, True),
    ],
)
def test_the_navigator_asks_the_terminal_about_links(
    client: WdsClient, monkeypatch: pytest.MonkeyPatch, environ: dict[str, str], hyperlinks: bool
) -> None:
    monkeypatch.delenv("WDS_HYPERLINKS", raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    screen = Navigator(client).screen_for(OpenDocsSearch())
    assert isinstance(screen, DocsSearchScreen) and screen.hyperlinks is hyperlinks
