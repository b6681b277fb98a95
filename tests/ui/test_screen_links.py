"""Full URLs on the job screens (title, document fields, pages) and in support's cited sources are OSC 8 links where the app has links on."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from textual.content import Content
from textual.widgets import Label, Static

from tests.support.dashboard import PaneHost, seeded_emulator, wait_until
from tui.api.client import WdsClient
from tui.contract.models.support import SupportAskPartial
from tui.dashboard.features.activity.job_detail import JobDetailScreen
from tui.dashboard.features.crawls.status import CrawlStatusScreen, page_rows
from tui.dashboard.features.support.answer import SupportAnswerView
from tui.dashboard.features.support.log import AskRecord, AskSubject
from tui.dashboard.kit.widgets.hyperlink import listed_links, titled_link
from tui.dashboard.kit.widgets.live_table import LiveTable
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator

TARGET = "https://acme-outdoor.com/pricing"


@pytest.fixture
def emulator(clock: ManualClock) -> Emulator:
    return seeded_emulator(seed=3, clock=clock, history=False)


def host(hyperlinks: bool) -> PaneHost:
    app = PaneHost(lambda: Static("dashboard"), footer=False)
    app.hyperlinks = hyperlinks  # type: ignore[attr-defined]  # what WdsApp takes from its navigator
    return app


def link_targets(content: Content) -> list[str]:
    return [span.style.link for span in content.spans if not isinstance(span.style, str) and span.style.link]


@pytest.mark.parametrize("hyperlinks", [True, False], ids=["links", "plain"])
async def test_a_job_screen_title_links_its_target(client: WdsClient, hyperlinks: bool) -> None:
    scraped = await client.scrape.create(TARGET, formats=["markdown"])
    assert scraped.job_id is not None
    app = host(hyperlinks)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = JobDetailScreen(client, "scrape", scraped.job_id, target=TARGET)
        await app.push_screen(screen)
        await pilot.pause()
        title = screen.query_one(".job-title", Label).content
        assert isinstance(title, Content) and title.plain.endswith(f" · {TARGET}")
        assert link_targets(title) == ([TARGET] if hyperlinks else [])
        await wait_until(pilot, lambda: bool(screen.query(".field-value")), "the document's fields")
        values = [label.content for label in screen.query(".field-value").results(Label)]
        url = next(value for value in values if isinstance(value, Content) and value.plain == TARGET)
        assert link_targets(url) == ([TARGET] if hyperlinks else [])  # the document's url field


async def test_a_crawl_screen_links_its_url_and_each_page(client: WdsClient, clock: ManualClock) -> None:
    started = await client.crawl.start("https://acme-outdoor.com/", limit=3)
    clock.advance(3600)
    app = host(True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = CrawlStatusScreen(client, started.id, url="https://acme-outdoor.com/", interval=0.05)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.status is not None and screen.status.is_finished, "the end")
        await pilot.pause()
        assert link_targets(screen.query_one(".crawl-title", Label).content) == ["https://acme-outdoor.com/"]
        assert screen.status is not None
        urls = [str(cells[1]) for _, cells in page_rows(screen.status)]
        table = screen.query_one("#crawl-pages", LiveTable)
        drawn = {seg.style.link for y in range(1, 1 + len(urls)) for seg in table.render_line(y) if seg.style}
        assert set(urls) <= drawn  # each page's row links its whole URL


def test_cited_sources_link_their_web_addresses_only() -> None:
    cited = listed_links(["https://docs.example.com/caching", "docs/caching.md#maxage"], bullet="• ", enabled=True)
    assert cited.plain == "• https://docs.example.com/caching\n• docs/caching.md#maxage"
    assert link_targets(cited) == ["https://docs.example.com/caching"]  # a relative path is not served there
    assert link_targets(listed_links(["https://docs.example.com/caching"], bullet="• ", enabled=False)) == []


def test_an_escape_in_a_title_url_makes_no_link() -> None:
    hostile = "https://evil.example/\x1b]8;;https://other.example\x1b\\"
    title = titled_link("Crawl 1234", hostile, enabled=True)
    assert link_targets(title) == [] and "\x1b" not in title.plain


@pytest.mark.parametrize("hyperlinks", [True, False], ids=["links", "plain"])
async def test_an_answer_of_support_links_the_web_addresses_it_cites(hyperlinks: bool) -> None:
    answer = f"{TARGET} answers 404; see docs/caching.md and https://docs.example.com/errors#404."
    record = AskRecord(
        1,
        AskSubject("job-1", "scrape"),
        "Why?",
        None,
        datetime(2025, 6, 15, tzinfo=UTC),
        2.0,
        SupportAskPartial(answer=answer),
    )
    app = PaneHost(lambda: SupportAnswerView("nothing asked", id="answer"), footer=False)
    app.hyperlinks = hyperlinks  # type: ignore[attr-defined]
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(SupportAnswerView)
        view.show(record)
        await pilot.pause()
        sources = view.query_one("#ans-sources .ans-text", Static).content
        assert isinstance(sources, Content) and "• docs/caching.md" in sources.plain
        expected = [TARGET, "https://docs.example.com/errors#404"] if hyperlinks else []
        assert link_targets(sources) == expected
