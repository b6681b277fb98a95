"""`wds-tui serve`: the dashboard as a web page, opened in a real headless Chromium.

A real emulator process, a real `wds-tui serve` process, a real browser; the
test reads what the page's terminal is sent and presses keys in the page.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.served_page import REPO, served_dashboard, served_page
from tests.support.browser_pages import loopback_site
from tests.support.processes import ServeProcess, children_of, serve_process, served_emulator
from tui.api.client import WdsClient
from tui.dashboard.features.activity.rows import short_id

pytestmark = pytest.mark.browser

KEY = "wds-" + "7e" * 16


@pytest.fixture
def emulator() -> Iterator[str]:
    """A seeded emulator in its own process, without live traffic; its base URL."""
    with served_emulator(KEY, seed=3) as url:
        yield url


def dashboard_environment(tmp_path: Path, **service: str) -> dict[str, str]:
    """A clean environment: no config file of the developer's, the service named by variables."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "WDS_CONFIG": str(tmp_path / "none.toml"),
        **({"WDS_CHROMIUM": os.environ["WDS_CHROMIUM"]} if "WDS_CHROMIUM" in os.environ else {}),
        **service,
    }


async def test_the_served_page_shows_the_activity_and_takes_keys(emulator: str, chromium: Path, tmp_path: Path) -> None:
    async with WdsClient(emulator, KEY) as client:
        newest = (await client.team.activity(limit=3)).data
    assert newest, "the seeded emulator has activity"
    environment = dashboard_environment(tmp_path, WDS_BASE_URL=emulator, WDS_API_KEY=KEY)
    with served_dashboard(environment, tmp_path / "serve.log") as url:
        async with served_page(url, chromium) as shown:
            # The activity pane shows the service's newest entries (ids as the pane cuts them).
            await shown.wait_for("Team activity", "connected", *(short_id(entry.id) for entry in newest))
            picture = tmp_path / "web.png"
            await shown.page.screenshot(path=str(picture))
            assert picture.stat().st_size > 10_000  # a drawn dashboard, not a blank page
            # Keys typed in the page reach the dashboard: 2 focuses the activity pane, whose keys show.
            await shown.page.locator(".textual-terminal").click()
            await shown.page.keyboard.press("2")
            await shown.wait_for("Next page")
            # The printed address signed the browser in and left the address bar (and history) without its token.
            assert shown.page.url == url.split("?")[0]
    log = (tmp_path / "serve.log").read_text()
    assert KEY not in log  # the key reached the tabs through their environment, never a printed command line


def dashboards(served: ServeProcess) -> set[int]:
    """The tabs' dashboard processes under the serve process."""
    found = set()
    for pid in children_of(served.pid):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b" -m tui" in command:
            found.add(pid)
    return found


OPEN_SOCKET = """(url) => new Promise(done => {
    const socket = new WebSocket(url);
    socket.onopen = () => { socket.close(); done("open"); };
    socket.onerror = () => done("refused");
})"""


async def test_another_page_of_the_same_browser_cannot_drive_the_dashboard(
    emulator: str, chromium: Path, tmp_path: Path
) -> None:
    """The operator has the dashboard open (so its cookie); a page on another port of the same host is
    same-site, so the browser sends that cookie along: the Origin check alone refuses its socket."""
    environment = dashboard_environment(tmp_path, WDS_BASE_URL=emulator, WDS_API_KEY=KEY)
    # A page on another port of this host: the test's own site, served from loopback (this browser is
    # the operator's, not a sandboxed session's).
    with serve_process(environment, tmp_path / "serve.log") as served, loopback_site() as site:
        assert served.address is not None
        async with served_page(served.address, chromium) as shown:
            await shown.wait_for("Team activity")
            tabs = dashboards(served)
            assert tabs, "the operator's tab runs a dashboard"
            elsewhere = await shown.page.context.new_page()
            await elsewhere.goto(f"{site}/title/elsewhere")
            assert await elsewhere.evaluate(OPEN_SOCKET, f"ws://127.0.0.1:{served.port}/ws") == "refused"
            assert dashboards(served) <= tabs
            # A browser without the token (another profile, or an old address) gets the short page.
            stranger = await shown.page.context.browser.new_context()  # type: ignore[union-attr]
            fresh = await stranger.new_page()
            answer = await fresh.goto(f"http://127.0.0.1:{served.port}/")
            assert answer is not None and answer.status == 403
            assert "open the printed address" in await fresh.inner_text("body")
            assert await fresh.evaluate(OPEN_SOCKET, f"ws://127.0.0.1:{served.port}/ws") == "refused"
            assert dashboards(served) <= tabs
    assert "a WebSocket from Origin 'http://127.0.0.1:" in " ".join((tmp_path / "serve.log").read_text().split())


def test_serve_refuses_a_remote_host_without_allow_remote(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tui", "serve", "--host", "192.0.2.10"],
        check=False,
        env=dashboard_environment(tmp_path),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=30,
    )
    assert done.returncode == 2
    assert "--allow-remote" in done.stderr and "API key" in done.stderr


def test_serve_on_a_taken_port_says_so(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "tui", "serve", "--port", str(port)],
            check=False,
            env=dashboard_environment(tmp_path, WDS_BASE_URL="http://127.0.0.1:9", WDS_API_KEY=KEY),
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=30,
        )
    assert done.returncode == 2
    assert f"cannot serve on 127.0.0.1:{port}" in done.stderr
