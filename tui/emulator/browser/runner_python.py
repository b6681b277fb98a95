"""Runs one piece of user Python code against a session's browser (a separate process).

Started by `tui.emulator.browser.execute` as `python -u runner_python.py` with:
WDS_CDP_ENDPOINT (the browser's DevTools websocket), WDS_CODE_FILE (the code)
and WDS_RESULT_FD (the fd the outcome goes to as one JSON line: `result`, `error`).
As a spare (WDS_RUNNER_SPARE=1, see `spares.py`) it imports Playwright and
starts its driver first, then reads those variables and its working directory
as one JSON line from stdin.

The code sees a ready Playwright async-API `page` (plus `context`, `browser`,
`playwright`, `asyncio`) and may use top-level `await`. The value of its last
expression, if it is an expression, becomes `result`. An exception's message
becomes `error`, its traceback goes to stderr and the exit code is 1.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import json
import os
import sys
import traceback
from typing import Any

RESULT_NAME = "__wds_result__"


def compile_user_code(source: str) -> Any:
    """Compile with top-level await allowed; the last expression is assigned to RESULT_NAME."""
    tree = ast.parse(source, filename="<code>", mode="exec")
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = tree.body[-1]
        assign = ast.Assign(targets=[ast.Name(id=RESULT_NAME, ctx=ast.Store())], value=last.value)
        tree.body[-1] = ast.copy_location(assign, last)
        ast.fix_missing_locations(tree)
    return compile(tree, "<code>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)


def describe(value: Any) -> str | None:
    """The `result` string for a value: strings as they are, JSON where possible, else repr."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def error_message(exc: BaseException) -> str:
    return str(exc).strip() or type(exc).__name__


def print_user_traceback(exc: BaseException) -> None:
    """The traceback from the user's code on: the runner's own frames are noise to them."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != "<code>":
        tb = tb.tb_next
    if tb is None and isinstance(exc, SyntaxError):
        traceback.print_exception(type(exc), exc, None)  # where in the code, not where in the runner
    else:
        traceback.print_exception(type(exc), exc, tb if tb is not None else exc.__traceback__)


async def receive_job() -> None:
    """A spare's job: `{"cwd": ..., "env": {...}}` on one stdin line; no line means stand down."""
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    if not line.strip():
        raise SystemExit(0)
    job = json.loads(line)
    os.chdir(job["cwd"])
    os.environ.update(job["env"])


async def run() -> dict[str, str | None]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        if os.environ.get("WDS_RUNNER_SPARE") == "1":
            await receive_job()
        with open(os.environ["WDS_CODE_FILE"], encoding="utf-8") as handle:
            code = compile_user_code(handle.read())  # a SyntaxError fails before connecting
        browser = await playwright.chromium.connect_over_cdp(os.environ["WDS_CDP_ENDPOINT"])
        context = browser.contexts[0] if browser.contexts else await browser.new_context()
        page = context.pages[0] if context.pages else await context.new_page()
        namespace: dict[str, Any] = {
            "__name__": "__main__",
            "asyncio": asyncio,
            "playwright": playwright,
            "browser": browser,
            "context": context,
            "page": page,
        }
        pending = eval(code, namespace)  # a coroutine when the code awaits at top level
        if inspect.iscoroutine(pending):
            await pending
        value = namespace.get(RESULT_NAME)
        if inspect.isawaitable(value):  # `page.title()` without await still means its value
            value = await value
        # Leaving `async_playwright` only drops the connection: the browser and its pages stay.
        return {"result": describe(value), "error": None}


def main() -> int:
    outcome: dict[str, str | None]
    status = 0
    try:
        outcome = asyncio.run(run())
    except BaseException as exc:  # noqa: BLE001 - user code may raise anything, even SystemExit
        if isinstance(exc, SystemExit) and exc.code in (None, 0):
            outcome = {"result": None, "error": None}
        else:
            print_user_traceback(exc)
            outcome = {"result": None, "error": error_message(exc)}
            status = exc.code if isinstance(exc, SystemExit) and isinstance(exc.code, int) else 1
    sys.stdout.flush()
    if _result_fd is not None:
        os.write(_result_fd, json.dumps(outcome).encode() + b"\n")
    return status


def _take_result_fd() -> int | None:
    """The outcome's fd, kept from processes the code starts (they would hold the pipe open)."""
    text = os.environ.get("WDS_RESULT_FD")
    if not text:
        return None
    fd = int(text)
    try:
        os.set_inheritable(fd, False)
    except OSError:
        return None
    return fd


_result_fd = _take_result_fd()


if __name__ == "__main__":
    sys.exit(main())
