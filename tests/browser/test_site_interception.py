"""The backend's request interception: what reaches the resolver, what fails, what is left after close."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.browser_pages import loopback_site
from tui.emulator.browser.backend import SiteResponse
from tui.emulator.browser.chromium import ChromiumBackend
from tui.emulator.browser.site_interception import is_local_url

pytestmark = pytest.mark.browser


class Recorder:
    """A resolver that answers every URL with a page titled by its path, and remembers what it was asked."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def __call__(self, url: str) -> SiteResponse | None:
        self.urls.append(url)
        if "unknown.test" in url:
            return None
        if "broken.test" in url:
            raise RuntimeError("the resolver broke")
        path = url.split("/", 3)[3]
        return SiteResponse(200, {"Content-Type": "text/html"}, f"<title>made up /{path}</title>".encode())


@pytest.fixture
async def intercepting(chromium: Path, tmp_path: Path) -> AsyncIterator[tuple[ChromiumBackend, Recorder]]:
    recorder = Recorder()
    backend = ChromiumBackend(chromium, temp_parent=tmp_path, prewarm=False, site_resolver=recorder)
    yield backend, recorder
    await backend.shutdown()


def interception_tasks() -> list[asyncio.Task[object]]:
    return [task for task in asyncio.all_tasks() if task.get_name().startswith("site-interception")]


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://127.0.0.1:8000/x", True),
        ("http://127.8.9.10/", True),
        ("http://[::1]:3002/", True),
        ("http://localhost:3002/", True),
        ("http://app.localhost/", True),
        ("http://0.0.0.0:80/", True),
        ("https://northwind.dev/", False),
        ("http://10.0.0.1/", False),
        ("https://localhost.example.com/", False),
    ],
)
def test_which_urls_stay_on_this_machine(url: str, local: bool) -> None:
    assert is_local_url(url) is local


async def test_every_http_request_to_another_host_reaches_the_resolver(
    intercepting: tuple[ChromiumBackend, Recorder],
) -> None:
    backend, recorder = intercepting
    handle = await backend.launch("s-intercept", None)
    with loopback_site() as local:
        code = f"""
await page.goto('https://a.test/one')
print(await page.title())
print(await page.evaluate("fetch('/two').then(r => r.text())"))
other = await browser.new_context()
tab = await other.new_page()
await tab.goto('http://c.test/three')
print(await tab.title())
await other.close()
try:
    await page.goto('{local}/title/local')
    print(await page.title())
except Exception as exc:
    print(str(exc).split()[1])
"""
        outcome = await backend.execute(handle, code, "python", 30)
    assert outcome.error is None, outcome.stderr
    # Loopback is not intercepted: the browser goes to its own loopback, which in its sandbox
    # (a network namespace of its own) has nothing listening, whatever the host serves there.
    reached = "net::ERR_CONNECTION_REFUSED" if backend.sandbox.isolated else "local"
    assert outcome.stdout.splitlines() == ["made up /one", "<title>made up /two</title>", "made up /three", reached]
    asked = {url for url in recorder.urls if not url.endswith("/favicon.ico")}
    assert asked == {"https://a.test/one", "https://a.test/two", "http://c.test/three"}


async def test_no_answer_is_a_dns_failure_and_a_broken_resolver_a_failed_request(
    intercepting: tuple[ChromiumBackend, Recorder],
) -> None:
    backend, _ = intercepting
    handle = await backend.launch("s-fail", None)
    unknown = await backend.execute(handle, "await page.goto('https://unknown.test/')", "python", 30)
    assert unknown.error is not None and "ERR_NAME_NOT_RESOLVED" in unknown.error
    broken = await backend.execute(handle, "await page.goto('https://broken.test/')", "python", 30)
    assert broken.error is not None and "ERR_FAILED" in broken.error


async def test_user_routes_come_first(intercepting: tuple[ChromiumBackend, Recorder]) -> None:
    backend, recorder = intercepting
    handle = await backend.launch("s-route", None)
    code = """
await page.route('**/mine', lambda route: route.fulfill(status=201, body='<title>routed</title>', content_type='text/html'))
r = await page.goto('https://a.test/mine')
print(r.status, await page.title())
"""
    outcome = await backend.execute(handle, code, "python", 30)
    assert outcome.stdout == "201 routed\n", outcome.stderr
    assert "https://a.test/mine" not in recorder.urls


async def test_closing_a_browser_ends_its_interception(intercepting: tuple[ChromiumBackend, Recorder]) -> None:
    backend, _ = intercepting
    first = await backend.launch("s-close-1", None)
    second = await backend.launch("s-close-2", None)
    assert len(interception_tasks()) == 2
    await backend.close(first, save_profile=False)
    assert [task.get_name() for task in interception_tasks()] == ["site-interception s-close-2"]
    await backend.shutdown()
    assert interception_tasks() == []
    assert second.closed.is_set()


async def test_without_a_resolver_nothing_is_intercepted(intercepting: tuple[ChromiumBackend, Recorder]) -> None:
    backend, recorder = intercepting
    backend.set_site_resolver(None)
    handle = await backend.launch("s-plain", None)
    assert interception_tasks() == []
    outcome = await backend.execute(handle, "await page.goto('https://a.test/', timeout=10_000)", "python", 30)
    # No site, and no network: none at all in a sandbox, and no DNS for a.test without one.
    reason = "ERR_INTERNET_DISCONNECTED" if backend.sandbox.isolated else "ERR_NAME_NOT_RESOLVED"
    assert outcome.error is not None and reason in outcome.error
    assert recorder.urls == []
