"""Spare runners: executions after the first start from a pre-started runner, with the same results."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tui.emulator.browser import process
from tui.emulator.browser.backend import BrowserHandle
from tests.browser.pages import PagesBackend
from tui.emulator.browser.chromium import ChromiumBackend

pytestmark = pytest.mark.browser


@pytest.fixture
async def warm_backend(chromium: Path, tmp_path: Path) -> AsyncIterator[ChromiumBackend]:
    backend = PagesBackend(chromium, temp_parent=tmp_path, prewarm=True)
    try:
        yield backend
    finally:
        await backend.shutdown()
    assert list(tmp_path.iterdir()) == []


async def spare_ready(backend: ChromiumBackend, language: str) -> None:
    async def poll() -> None:
        while language not in backend.runner.spares._ready:  # noqa: SLF001 - waiting for the background start
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), 30)


@pytest.mark.parametrize(
    ("language", "navigate", "fail", "hang"),
    [
        ("python", "await page.goto('{site}/title/Warm')\nprint(page.url)\nawait page.title()",
         "raise RuntimeError('warm failure')", "import time\ntime.sleep(60)"),
        ("node", "await page.goto('{site}/title/Warm');\nconsole.log(page.url());\nawait page.title()",
         "throw new Error('warm failure')", "await new Promise(() => {})"),
    ],
    ids=["python", "node"],
)
async def test_a_spare_runs_code_like_a_cold_runner(
    warm_backend: ChromiumBackend, site: str, language: str, navigate: str, fail: str, hang: str
) -> None:
    handle: BrowserHandle = await warm_backend.launch("s-warm", None)
    first = await warm_backend.execute(handle, "1 + 1", language, 30)  # cold: starts the first spare after it
    assert first.result == "2"

    await spare_ready(warm_backend, language)
    spare_pid = warm_backend.runner.spares._ready[language].pid  # noqa: SLF001
    outcome = await warm_backend.execute(handle, navigate.format(site=site), language, 30)
    replacement = warm_backend.runner.spares._ready.get(language)  # noqa: SLF001
    assert replacement is None or replacement.pid != spare_pid  # the spare was used up, not reused
    assert outcome.error is None, outcome.stderr
    assert outcome.result == "Warm"
    assert outcome.stdout == f"{site}/title/Warm\n"

    await spare_ready(warm_backend, language)
    failed = await warm_backend.execute(handle, fail, language, 30)
    assert failed.exit_code == 1 and failed.error == "warm failure"

    await spare_ready(warm_backend, language)
    hung = await warm_backend.execute(handle, hang, language, 1)
    assert hung.killed is True and hung.duration_ms is not None and hung.duration_ms < 5000

    await spare_ready(warm_backend, language)
    pwd = await warm_backend.execute(handle, "import os\nos.getcwd()" if language == "python" else "process.cwd()",
                                     language, 30)
    assert pwd.result is not None and Path(pwd.result).parent == warm_backend.root / "runs"
    assert not Path(pwd.result).exists()


async def test_shutdown_stops_the_spares(warm_backend: ChromiumBackend) -> None:
    handle = await warm_backend.launch("s-warm", None)
    await warm_backend.execute(handle, "1", "node", 30)
    await spare_ready(warm_backend, "node")
    spare = warm_backend.runner.spares._ready["node"]  # noqa: SLF001
    await warm_backend.shutdown()
    assert not process.group_alive(spare.pid)
    assert spare.pid not in process.live_groups()
