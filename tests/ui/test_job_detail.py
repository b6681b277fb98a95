"""The job document screen: each retrievable kind through its endpoint, the others refused, and the JSON tree."""

from __future__ import annotations

import uuid

import pytest
from textual.pilot import Pilot
from textual.widgets import Markdown, Static

from tests.support.dashboard import KEY, PaneHost, SwitchableTransport, seeded_emulator, wait_until
from tui.api.client import WdsClient
from tui.api.errors import LockdownCacheMissError
from tui.api.resources.jobs import RETRIEVALS
from tui.dashboard.features.activity.job_detail import JobDetailScreen
from tui.dashboard.kit.status_look import FAILURE
from tui.dashboard.kit.widgets.document_view import DocumentView, verdict
from tui.dashboard.kit.widgets.json_tree import STRING_PREVIEW, JsonTree
from tui.dashboard.shell.intents import AskSupport
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.teams import Caller
from tui.emulator.service import Emulator

NO_RETRIEVAL = ("search", "llmstxt", "deep_research", "map", "browser", "interact")


@pytest.fixture
def emulator(clock: ManualClock) -> Emulator:
    # No seeded history: each test makes the jobs it opens.
    return seeded_emulator(seed=3, clock=clock, history=False)


def screen_host() -> PaneHost:
    """An empty app to push the screen on, styled by the dashboard's stylesheet."""
    return PaneHost(lambda: Static("dashboard"), footer=False)


async def open_job(pilot: Pilot[None], client: WdsClient, endpoint: str, job_id: str) -> JobDetailScreen:
    screen = JobDetailScreen(client, endpoint, job_id, target="https://example.org/")
    await pilot.app.push_screen(screen)
    await wait_until(
        pilot, lambda: screen.job is not None or screen.query_one("#job-notice").has_class("-error"), "the job"
    )
    await pilot.pause()
    return screen


def fields(screen: JobDetailScreen) -> dict[str, str]:
    names = [str(label.content) for label in screen.query(".field-name")]
    values = [str(label.content) for label in screen.query(".field-value")]
    return dict(zip(names, values, strict=True))


async def test_scrape_document_shows_key_fields_content_and_json(client: WdsClient) -> None:
    scraped = await client.scrape.create("https://acme-outdoor.com/pricing", formats=["markdown", "links"])
    assert scraped.job_id is not None and scraped.data is not None
    meta = scraped.data.metadata
    async with screen_host().run_test(size=(100, 30)) as pilot:
        screen = await open_job(pilot, client, "scrape", scraped.job_id)
        shown = fields(screen)
        assert shown["title"] == meta.title
        assert shown["url"] == (meta.url or meta.source_url)
        assert meta.status_code == 200 and shown["HTTP status"] == "200 OK"
        assert shown["job status"] == "scraped"
        assert str(screen.query_one("#job-verdict", Static).render()) == "✓ scraped · the page answered 200 OK"
        assert "markdown" in shown["formats"] and "links" in shown["formats"]
        markdown = screen.query_one(DocumentView).query_one(Markdown)
        assert markdown.source == scraped.data.markdown

        await pilot.press("j")
        tree = screen.query_one(JsonTree)
        # The tab switch focuses the tree in a later message: on a loaded machine it comes after the press returns.
        await wait_until(pilot, lambda: pilot.app.focused is tree, "the JSON tab's tree to take the focus")
        assert [str(node.label).split(":")[0].split(" ")[0] for node in tree.root.children] == ["success", "data"]
        data = tree.root.children[1]
        assert data.is_expanded  # a small answer opens far enough to read
        metadata = next(node for node in data.children if str(node.label).startswith("metadata"))
        title = next(node for node in metadata.children if str(node.label).startswith("title"))
        assert str(title.label) == f'title: "{meta.title}"'

        await pilot.press("c")
        assert not data.is_expanded
        await pilot.press("e")
        assert data.is_expanded and metadata.is_expanded


async def test_a_scrape_whose_page_answered_404_reads_as_a_failure_and_asks_support_about_it(client: WdsClient) -> None:
    url = "https://acme-outdoor.com/no-such-page-here"
    scraped = await client.scrape.create(url)
    assert scraped.job_id is not None
    async with screen_host().run_test(size=(100, 30)) as pilot:
        screen = await open_job(pilot, client, "scrape", scraped.job_id)
        line = screen.query_one("#job-verdict", Static)
        shown_line = line.render()
        assert str(shown_line) == (
            "✗ HTTP 404 · the page answered 404 Not Found; the job itself ended with status scraped"
        )
        assert screen.job is not None and verdict(screen.job).style == FAILURE.style  # the whole line in red
        shown = fields(screen)
        assert list(shown)[:3] == ["job status", "HTTP status", "error"]  # apart, and on top
        assert shown["job status"] == "scraped"
        assert shown["HTTP status"] == "404 Not Found"
        alerts = [str(label.content) for label in screen.query(".field-value.-alert")]
        assert alerts == ["404 Not Found", "The target answered 404 Not Found."]

        assert screen.check_action("ask_support", ()) is True
        await pilot.press("a")
        await pilot.pause()
        asked = [intent for intent in pilot.app.intents if isinstance(intent, AskSupport)]
        assert [(a.job_id, a.kind, a.status, a.error, a.target) for a in asked] == [
            (scraped.job_id, "scrape", "scraped", "HTTP 404", "https://example.org/")
        ]


async def test_ask_support_works_on_a_job_that_could_not_be_read(client: WdsClient) -> None:
    missing = str(uuid.uuid4())
    async with screen_host().run_test(size=(80, 24)) as pilot:
        await open_job(pilot, client, "scrape", missing)
        await pilot.press("a")
        await pilot.pause()
        asked = [intent for intent in pilot.app.intents if isinstance(intent, AskSupport)]
        assert [(a.job_id, a.status, a.error) for a in asked] == [(missing, None, None)]


async def test_finished_crawl_lists_its_pages(client: WdsClient, clock: ManualClock) -> None:
    started = await client.crawl.start("https://acme-outdoor.com/", limit=6)
    clock.advance(3600)
    status = await client.crawl.get(started.id)
    async with screen_host().run_test(size=(100, 30)) as pilot:
        screen = await open_job(pilot, client, "crawl", started.id)
        shown = fields(screen)
        assert shown["job status"] == "completed"
        assert shown["progress"] == f"{status.completed} / {status.total} pages"
        failing = sum(1 for page in status.data if (page.metadata.status_code or 0) >= 400)
        expected = f"✓ completed · {status.completed} of {status.total} pages"
        if failing:
            expected += f" · {failing} answered an HTTP error"
        assert str(screen.query_one("#job-verdict", Static).render()) == expected
        pages = str(screen.query_one(".document-pages", Static).content).splitlines()
        assert len(pages) == len(status.data) > 0
        assert status.data[0].metadata.url in pages[0]


async def test_batch_scrape_uses_its_retrieval(client: WdsClient, transport: SwitchableTransport) -> None:
    batch = await client.batch.create(["https://acme-outdoor.com/", "https://acme-outdoor.com/about"])
    async with screen_host().run_test(size=(100, 30)) as pilot:
        screen = await open_job(pilot, client, "batch_scrape", batch.id)
        assert f"/v2/batch/scrape/{batch.id}" in transport.paths
        assert fields(screen)["progress"].endswith("/ 2 pages")


@pytest.mark.parametrize("kind", ["agent", "extract"])  # extract jobs live at the same endpoint
async def test_agent_and_extract_jobs_are_read_through_extract_and_show_their_error(
    client: WdsClient, emulator: Emulator, transport: SwitchableTransport, kind: str
) -> None:
    # The client cannot start agent jobs (the contract shows no shape): make one in the emulator.
    team = next(iter(emulator.teams.values()))
    agent = emulator.jobs.create_agent_job(Caller(team, KEY), "list the prices", ["https://acme-outdoor.com/"])
    job_id = agent.id
    async with screen_host().run_test(size=(100, 30)) as pilot:
        screen = await open_job(pilot, client, kind, job_id)
        assert transport.paths[-1] == f"/v2/extract/{job_id}"
        job = await client.extract.get(job_id)
        shown = fields(screen)
        assert shown["job status"] == str(job.status)
        assert job.error, "the emulator has no LLM: agent jobs fail with a reason"
        assert shown["error"] == job.error
        assert str(screen.query_one("#job-verdict", Static).render()) == f"✗ failed · {job.error}"
        assert screen.query_one(".field-value.-alert")


async def test_unknown_job_says_not_found(client: WdsClient) -> None:
    missing = str(uuid.uuid4())
    async with screen_host().run_test(size=(80, 24)) as pilot:
        screen = await open_job(pilot, client, "scrape", missing)
        notice = screen.query_one("#job-notice", Static)
        assert notice.has_class("-error")
        assert str(notice.content).startswith(f"No scrape job {missing[:8]} on the service")
        assert screen.job is None


@pytest.mark.parametrize("endpoint", NO_RETRIEVAL)
async def test_kinds_without_retrieval_send_nothing(
    endpoint: str, client: WdsClient, transport: SwitchableTransport
) -> None:
    assert endpoint not in RETRIEVALS
    async with screen_host().run_test(size=(80, 24)) as pilot:
        screen = JobDetailScreen(client, endpoint, str(uuid.uuid4()))
        await pilot.app.push_screen(screen)
        await pilot.pause(0.05)  # a request sent on opening would have reached the transport by now
        notice = str(screen.query_one("#job-notice", Static).content)
        assert notice.startswith(f"{endpoint} calls have no retrieval endpoint in the contract")
        assert transport.paths == []
        assert screen.check_action("reload", ()) is False
        await pilot.press("r")
        assert transport.paths == []
        await pilot.press("escape")
        assert pilot.app.screen is not screen


async def test_json_tree_builds_children_only_when_opened() -> None:
    value = {
        "pages": [{"url": f"https://example.org/{i}", "links": list(range(50))} for i in range(300)],
        "markdown": "x" * 5000,
    }
    async with screen_host().run_test(size=(80, 24)) as pilot:
        tree = JsonTree("crawl", value)
        await pilot.app.mount(tree)
        pages, markdown = tree.root.children
        assert str(markdown.label) == f'markdown: "{"x" * STRING_PREVIEW}…" (5,000 chars)'
        assert str(pages.label) == "pages […] 300 items"
        assert not pages.is_expanded and len(pages.children) == 0  # too big to open on its own
        pages.expand()
        await pilot.pause()
        assert len(pages.children) == 300
        assert all(len(child.children) == 0 for child in pages.children)


async def test_a_lockdown_cache_miss_says_no_page_was_contacted(client: WdsClient) -> None:
    url = "https://acme-outdoor.com/never-cached"
    with pytest.raises(LockdownCacheMissError):
        await client.scrape.create(url, lockdown=True)
    job_id = (await client.team.activity(limit=1)).data[0].id
    async with screen_host().run_test(size=(100, 30)) as pilot:
        screen = await open_job(pilot, client, "scrape", job_id)
        line = str(screen.query_one("#job-verdict", Static).render())
        assert "answered" not in line
        assert "no cached copy (SCRAPE_LOCKDOWN_CACHE_MISS); lockdown contacts no page" in line
        shown = fields(screen)
        assert "answered" not in shown["HTTP status"] and "SCRAPE_LOCKDOWN_CACHE_MISS" in shown["HTTP status"]
