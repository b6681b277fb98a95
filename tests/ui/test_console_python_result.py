"""Python's value shown as the result, like node's: the console asks for it (tui.dashboard.features.console.python_result).

The echo lines are checked by running them here, in this Python, as the
sandbox would (top-level await allowed, a `page` in the namespace); the
console is checked against the emulator with a recording backend, and end to
end with real Chromium behind the emulator (marked `browser`).
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import inspect
import io
from typing import Any

import pytest

from tests.ui.test_console import (
    ConsoleApp,
    GatedBackend,
    backend,
    console,
    editor,
    emulator,
    live,
    run_and_wait,
    session_target,
    site,
)
from tui.api.client import WdsClient
from tui.contract.limits import CODE_MAX
from tui.contract.models.browser import ExecuteResult
from tui.dashboard.features.console.history import RunOutcome
from tui.dashboard.features.console.output import RunOutput
from tui.dashboard.features.console.python_result import MARK, split_result, with_result_echo
from tui.emulator.browser.backend import ExecutionOutcome
from tui.emulator.service import Emulator

__all__ = ["backend", "emulator", "live", "site"]  # test_console's fixtures, used here too


class FakePage:
    async def title(self) -> str:
        return "Example Domain"


def run_python(code: str) -> str:
    """Run `code` as the sandbox does (top-level await, a `page`) and return its stdout."""
    compiled = compile(code, "<code>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    out = io.StringIO()
    namespace: dict[str, Any] = {"page": FakePage(), "__name__": "__main__"}

    async def run() -> None:
        pending = eval(compiled, namespace)  # noqa: S307 - the test's own code
        if inspect.iscoroutine(pending):
            await pending

    with contextlib.redirect_stdout(out):
        asyncio.run(run())
    return out.getvalue()


@pytest.mark.parametrize(
    ("code", "stdout", "result"),
    [
        ("print('hi')\nresult = await page.title()", "hi\n", "Example Domain"),
        ("await page.title()", None, "Example Domain"),
        ("page.title()", None, "Example Domain"),  # a coroutine without await still means its value
        ("x = 2; x * 21", None, "42"),
        ("{'n': 1, 's': 'é'}", None, '{"n": 1, "s": "é"}'),
        ("(1,\n 2)  # a comment\n", None, "[1, 2]"),
        ("result: list[int] = []\nresult += [3]\nprint('done')", "done\n", "[3]"),
        ("if False:\n    result = 1\nprint('no')", "no\n", None),  # named but never set: no result
        ("None", None, None),
        ("class C: pass\nC()", None, None),  # no JSON: repr, checked below
    ],
)
def test_the_echo_prints_the_value_after_the_mark(code: str, stdout: str | None, result: str | None) -> None:
    shown_stdout, shown_result = split_result(run_python(with_result_echo(code)))
    assert (shown_stdout or None) == stdout
    if code.startswith("class"):
        assert shown_result is not None and shown_result.startswith("<__main__.C object")
    else:
        assert shown_result == result


@pytest.mark.parametrize("code", ["print('only output')", "x = 1", "def f(:", "", "# nothing"])
def test_code_without_a_value_or_that_does_not_parse_goes_as_it_is(code: str) -> None:
    assert with_result_echo(code) == code


def test_the_user_s_lines_keep_their_numbers_and_the_limit_is_kept() -> None:
    code = "import sys\nawait page.title()"
    echoed = with_result_echo(code)
    assert echoed.splitlines()[0] == "import sys"
    assert echoed.splitlines()[1].endswith("(await page.title())")
    long = "x = 1\n" + "#" * (CODE_MAX - 10) + "\nx"
    assert with_result_echo(long) == long, "never pushed over the contract's 100000 characters"


def test_a_node_style_result_and_the_stdout_alias_are_kept_as_they_were() -> None:
    alias = ExecuteResult.model_validate({"success": True, "stdout": "a\n", "result": "a\n", "exitCode": 0})
    assert (RunOutcome.of(alias).stdout, RunOutcome.of(alias).result) == ("a\n", "a\n")
    node = ExecuteResult.model_validate({"success": True, "stdout": "a\n", "result": "42", "exitCode": 0})
    assert (RunOutcome.of(node).stdout, RunOutcome.of(node).result) == ("a\n", "42")
    echoed = f"a\n{MARK}Example Domain\n"
    python = ExecuteResult.model_validate({"success": True, "stdout": echoed, "result": echoed, "exitCode": 0})
    assert (RunOutcome.of(python).stdout, RunOutcome.of(python).result) == ("a\n", "Example Domain")


async def test_the_console_shows_python_s_result_and_keeps_the_typed_code(
    client: WdsClient, backend: GatedBackend
) -> None:
    code = "print('went')\nresult = await page.title()"
    stdout = f"went\n{MARK}Example Domain\n"
    # What the service answers: result is stdout's alias for python.
    backend.outcomes.append(
        ExecutionOutcome(stdout=stdout, stderr="", exit_code=0, killed=False, error=None, result=None)
    )
    screen = console(client, await session_target(client))
    from textual.widgets import Select

    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        screen.query_one("#language", Select).value = "python"
        editor(screen).text = code
        await run_and_wait(pilot, screen)
        output = screen.query_one(RunOutput)
        assert output.part_text("stdout") == "went"
        assert output.part_text("result") == "Example Domain"
        assert backend.executions[0].code == with_result_echo(code)
        assert screen.history.latest is not None and screen.history.latest.spec.text == code
        assert editor(screen).text == code


@pytest.mark.browser
async def test_python_s_result_in_real_chromium(live: tuple[Emulator, WdsClient], site: str) -> None:
    from textual.widgets import Select

    from tui.dashboard.features.console.screen import ConsoleScreen

    _, client = live
    created = await client.browser.create(ttl=600)
    screen = ConsoleScreen(client, created)
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        screen.query_one("#language", Select).value = "python"
        editor(
            screen
        ).text = f"await page.goto('{site}/title/Py%20Title')\nprint('at', page.url)\nresult = await page.title()"
        await run_and_wait(pilot, screen)
        output = screen.query_one(RunOutput)
        assert output.part_text("error") is None, output.part_text("stderr")
        assert output.part_text("result") == "Py Title"
        assert output.part_text("stdout") == f"at {site}/title/Py%20Title"
        editor(screen).text = "await page.title()"
        await run_and_wait(pilot, screen)
        assert output.part_text("result") == "Py Title" and output.part_text("stdout") is None
    await client.browser.delete(created.id)
