"""`wds-tui serve` in a real process, its page in a real headless Chromium.

Shared by the serve test and the screenshot script. The page draws the
terminal on a canvas (xterm.js), so what it shows is read from the bytes the
page receives over its websocket: the same stream xterm.js draws.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Page, Route, async_playwright

from tests.support.processes import REPO, serve_process

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>]")
__all__ = ["REPO", "ServedPage", "served_dashboard", "served_page"]


@contextmanager
def served_dashboard(environment: dict[str, str], log: Path, *extra: str) -> Iterator[str]:
    """`python -m tui serve` on a free loopback port with `environment`; yields the address it printed (with its token)."""
    with serve_process(environment, log, *extra) as served:
        if served.address is None:
            raise RuntimeError(f"wds-tui serve printed no address with a token:\n{log.read_text()}")
        yield served.address


@dataclass
class ServedPage:
    """A page showing the served dashboard, and the text it has been sent so far."""

    page: Page
    received: list[str] = field(default_factory=list)

    def text(self) -> str:
        """Everything the terminal was sent, escape sequences removed."""
        return ANSI.sub("", "".join(self.received))

    async def wait_for(self, *texts: str, seconds: float = 30.0) -> str:
        """Wait until every one of `texts` has been sent to the page's terminal."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            shown = self.text()
            if all(text in shown for text in texts):
                return shown
            await asyncio.sleep(0.2)
        missing = [text for text in texts if text not in self.text()]
        raise AssertionError(f"the page never showed {missing!r}; it was sent:\n{self.text()[-3000:]}")


async def _loopback_only(route: Route) -> None:
    # The page links a web font; no test touches the internet.
    host = route.request.url.split("/")[2].split(":")[0]
    if host in ("127.0.0.1", "localhost"):
        await route.continue_()
    else:
        await route.abort()


@asynccontextmanager
async def served_page(url: str, chromium: Path, *, width: int = 1280, height: int = 800) -> AsyncIterator[ServedPage]:
    """Open `url` in headless Chromium; collects what its terminal is sent."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(chromium), args=["--no-sandbox"])
        try:
            # A context of its own, so a test can open another page in the same browser (same cookies).
            context = await browser.new_context(viewport={"width": width, "height": height})
            page = await context.new_page()
            await page.route("**/*", _loopback_only)
            shown = ServedPage(page)

            def on_websocket(websocket) -> None:  # type: ignore[no-untyped-def]
                def on_frame(payload: str | bytes) -> None:
                    if isinstance(payload, bytes):
                        shown.received.append(payload.decode("utf-8", errors="replace"))

                websocket.on("framereceived", on_frame)

            page.on("websocket", on_websocket)
            await page.goto(url)
            yield shown
        finally:
            await browser.close()
