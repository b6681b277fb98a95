"""Running code in a session's browser: python, node and bash, against a page on loopback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.emulator.browser import process
from tui.emulator.browser.backend import BrowserHandle
from tui.emulator.browser.chromium import ChromiumBackend

pytestmark = pytest.mark.browser


@pytest.fixture
async def session(backend: ChromiumBackend) -> BrowserHandle:
    return await backend.launch("s-exec", None)


async def test_python_navigates_and_reads_the_title(
    backend: ChromiumBackend, session: BrowserHandle, site: str
) -> None:
    code = f"await page.goto('{site}/title/Python%20Page')\nprint('went to', page.url)\nawait page.title()"
    outcome = await backend.execute(session, code, "python", 30)
    assert outcome.error is None, outcome.stderr
    assert outcome.exit_code == 0 and not outcome.killed
    assert outcome.result == "Python Page"
    assert outcome.stdout == f"went to {site}/title/Python%20Page\n"


async def test_node_navigates_and_the_last_expression_is_the_result(
    backend: ChromiumBackend, session: BrowserHandle, site: str
) -> None:
    code = f"await page.goto('{site}/title/Node%20Page');\nconsole.log('at', page.url());\nawait page.title()"
    outcome = await backend.execute(session, code, "node", 30)
    assert outcome.error is None, outcome.stderr
    assert outcome.exit_code == 0
    assert outcome.result == "Node Page"
    assert outcome.stdout == f"at {site}/title/Node%20Page\n"


NODE_RESULTS = [
    ("const a = 2; let b = 3; a * b", "6"),
    ("page.title()", ""),  # a promise without await still yields its value
    ("({ n: 1, s: 'x' })", '{"n":1,"s":"x"}'),
    ("const x = await Promise.resolve(41);\nfunction f(y) { return y + 1 }\nf(x)", "42"),
    ("console.log('only output')", None),
]
PYTHON_RESULTS = [
    ("1 + 1", "2"),
    ("page.title()", ""),
    ("{'n': 1}", '{"n": 1}'),
    ("x = await asyncio.sleep(0, result='slept')\nx", "slept"),
    ("print('only output')", None),
]


@pytest.mark.parametrize(("language", "cases"), [("node", NODE_RESULTS), ("python", PYTHON_RESULTS)])
async def test_the_last_expression_is_the_result(
    backend: ChromiumBackend, session: BrowserHandle, language: str, cases: list[tuple[str, str | None]]
) -> None:
    for code, result in cases:
        outcome = await backend.execute(session, code, language, 30)
        assert outcome.error is None, outcome.stderr
        assert outcome.result == result, code


async def test_bash_drives_the_browser_with_agent_browser(
    backend: ChromiumBackend, session: BrowserHandle, site: str
) -> None:
    code = (
        f"agent-browser open {site}/title/Bash%20Page >/dev/null\n"
        "agent-browser get title\n"
        "agent-browser get url\n"
        "agent-browser eval 'document.querySelector(\"h1\").textContent'\n"
        # the run's own directory: in the sandbox, the only place the code may write
        "agent-browser screenshot shot.png >/dev/null\n"
        "head -c 4 shot.png | tail -c 3; echo\n"
        'test "$CDP_URL" = "$AGENT_BROWSER_CDP" && echo same-address'
    )
    outcome = await backend.execute(session, code, "bash", 60)
    assert outcome.exit_code == 0, outcome.stderr
    assert outcome.stdout.splitlines() == ["Bash Page", f"{site}/title/Bash%20Page", "hello", "PNG", "same-address"]
    assert outcome.result is None


async def test_bash_failure_sets_the_exit_code_and_error(backend: ChromiumBackend, session: BrowserHandle) -> None:
    outcome = await backend.execute(session, "echo partial; echo 'went wrong' >&2; exit 3", "bash", 10)
    assert outcome.exit_code == 3
    assert outcome.stdout == "partial\n"
    assert outcome.error == "went wrong"


async def test_agent_browser_usage_errors_are_explained(backend: ChromiumBackend, session: BrowserHandle) -> None:
    outcome = await backend.execute(session, "agent-browser get", "bash", 30)
    assert outcome.exit_code == 2
    assert "usage: agent-browser get" in outcome.stderr


async def test_state_carries_over_between_executions_and_languages(
    backend: ChromiumBackend, session: BrowserHandle, site: str
) -> None:
    await backend.execute(session, f"await page.goto('{site}/title/Kept')", "python", 30)
    outcome = await backend.execute(session, "await page.title()", "node", 30)
    assert outcome.result == "Kept"
    outcome = await backend.execute(session, "agent-browser get title", "bash", 30)
    assert outcome.stdout == "Kept\n"


@pytest.mark.parametrize(
    ("language", "code"),
    [
        ("python", "import time\ntime.sleep(60)"),
        ("node", "await new Promise(() => {})"),
        ("bash", "sleep 60 & sleep 60"),
    ],
)
async def test_timeout_kills_the_run(
    backend: ChromiumBackend, session: BrowserHandle, language: str, code: str
) -> None:
    groups_before = process.live_groups()
    outcome = await backend.execute(session, code, language, 1)
    assert outcome.killed is True
    assert outcome.exit_code is None
    assert outcome.error == "Execution timed out after 1 s and was killed."
    assert outcome.duration_ms is not None and 1000 <= outcome.duration_ms < 5000
    assert process.live_groups() == groups_before  # the runner's group is gone, the browser's stays
    follow_up = await backend.execute(session, "1", "python", 30)
    assert follow_up.result == "1"


@pytest.mark.parametrize(
    ("language", "code", "error"),
    [
        ("python", "raise ValueError('no such product')", "no such product"),
        ("node", "throw new Error('no such product')", "no such product"),
        ("python", "def broken(:\n  pass", "invalid syntax"),
    ],
)
async def test_a_raised_exception_lands_in_error(
    backend: ChromiumBackend, session: BrowserHandle, language: str, code: str, error: str
) -> None:
    outcome = await backend.execute(session, code, language, 30)
    assert outcome.exit_code == 1
    assert outcome.killed is False
    assert error in (outcome.error or "")
    assert "runner_" not in outcome.stderr  # the user sees their own frames only


@pytest.mark.parametrize("language", ["python", "node"])
async def test_a_navigation_timeout_lands_in_error(
    backend: ChromiumBackend, session: BrowserHandle, site: str, language: str
) -> None:
    code = (
        f"await page.goto('{site}/slow', timeout=300)"
        if language == "python"
        else f"await page.goto('{site}/slow', {{ timeout: 300 }})"
    )
    outcome = await backend.execute(session, code, language, 30)
    assert outcome.killed is False and outcome.exit_code == 1
    assert "Timeout 300ms exceeded" in (outcome.error or "")


async def test_output_is_capped_and_flagged(chromium: Path, tmp_path: Path) -> None:
    backend = ChromiumBackend(chromium, temp_parent=tmp_path, output_limit=1000)
    try:
        handle = await backend.launch("s-big", None)
        outcome = await backend.execute(handle, "yes 0123456789 | head -c 200000; echo done >&2", "bash", 30)
        assert outcome.truncated is True
        assert len(outcome.stdout) == 1000 and outcome.stdout.startswith("0123456789\n")
        assert outcome.stderr == "done\n"
        small = await backend.execute(handle, "echo small", "bash", 30)
        assert small.truncated is False
    finally:
        await backend.shutdown()


async def test_credentials_in_the_environment_are_not_handed_to_code(
    backend: ChromiumBackend, session: BrowserHandle, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WDS_API_KEY", "wds-" + "ab" * 16)
    monkeypatch.setenv("HARMLESS_SETTING", "visible")
    outcome = await backend.execute(session, 'echo "${WDS_API_KEY:-unset} $HARMLESS_SETTING"', "bash", 10)
    assert outcome.stdout == "unset visible\n"


async def test_code_runs_in_a_scratch_dir_that_is_removed(backend: ChromiumBackend, session: BrowserHandle) -> None:
    outcome = await backend.execute(session, "pwd; touch left-behind", "bash", 10)
    scratch = Path(outcome.stdout.strip())
    assert scratch.is_relative_to(backend.root)
    assert not scratch.exists()


async def test_unknown_language_is_refused(backend: ChromiumBackend, session: BrowserHandle) -> None:
    with pytest.raises(ValueError, match="Unknown language 'ruby'"):
        await backend.execute(session, "puts 1", "ruby", 10)
