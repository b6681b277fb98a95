"""Spare runners: executions after the first start from a pre-started runner, with the same results;
`--no-spares` keeps none."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from tests.support.browser_pages import PagesBackend
from tests.support.processes import emulator_with_banner, processes_mentioning
from tui.emulator.browser import process
from tui.emulator.browser.backend import BrowserHandle
from tui.emulator.browser.chromium import ChromiumBackend
from tui.emulator.browser.execute import SPARE_MARKER

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
        (
            "python",
            "await page.goto('{site}/title/Warm')\nprint(page.url)\nawait page.title()",
            "raise RuntimeError('warm failure')",
            "import time\ntime.sleep(60)",
        ),
        (
            "node",
            "await page.goto('{site}/title/Warm');\nconsole.log(page.url());\nawait page.title()",
            "throw new Error('warm failure')",
            "await new Promise(() => {})",
        ),
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
    pwd = await warm_backend.execute(
        handle, "import os\nos.getcwd()" if language == "python" else "process.cwd()", language, 30
    )
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


def descendants_mentioning(root: int, text: str) -> list[int]:
    """Processes under `root` (children, grandchildren...) whose command line mentions `text`."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat[stat.rfind(")") + 2 :].split()[1])

    def under(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == root:
                return True
        return False

    return [pid for pid in processes_mentioning(text) if under(pid)]


@pytest.mark.parametrize("no_spares", [False, True], ids=["default", "no-spares"])
def test_no_spares_keeps_no_runner_waiting(chromium: Path, no_spares: bool) -> None:
    key = "wds-" + "5a" * 16
    flags = ["--no-spares"] if no_spares else []
    with emulator_with_banner("--no-traffic", "--api-key", key, *flags) as (url, banner, emulator):
        assert ("spare runners: off (--no-spares)" in banner) is no_spares, banner
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=60) as http:
            session = http.post("/v2/browser", json={"ttl": 120}).json()["id"]
            for language in ("python", "node"):
                ran = http.post(f"/v2/browser/{session}/execute", json={"code": "1 + 1", "language": language})
                assert ran.json()["result"] == "2"
            deadline = time.monotonic() + (3 if no_spares else 30)
            while time.monotonic() < deadline:
                spares = descendants_mentioning(emulator, SPARE_MARKER)
                if spares and not no_spares:
                    break
                time.sleep(0.2)
        # A spare runner shows what it is in `ps`: its command line ends with the marker.
        assert bool(spares) is not no_spares, spares
