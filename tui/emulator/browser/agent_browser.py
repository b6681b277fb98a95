"""`agent-browser`: a small browser CLI for `bash` code run in a session.

The emulator puts an `agent-browser` wrapper for this script on PATH and the
session's DevTools websocket in AGENT_BROWSER_CDP (also CDP_URL). Each call
connects over CDP to the session's first page, does one thing and disconnects;
the browser and its state stay.

    agent-browser open <url>              navigate (alias: goto, navigate)
    agent-browser get url|title           print the page's URL or title
    agent-browser get text|html <sel>     print an element's text or inner HTML
    agent-browser eval <js>               evaluate JavaScript, print the value
    agent-browser click <sel>             click an element
    agent-browser fill <sel> <text>       fill an input
    agent-browser press <key>             press a key (e.g. Enter)
    agent-browser wait <ms|selector>      wait for a time or an element
    agent-browser screenshot <file>       save a PNG of the viewport
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

USAGE_EXIT = 2


def _print_value(value: Any) -> None:
    if value is None:
        return
    print(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))


def _cmd_open(page: Any, args: list[str]) -> None:
    _need(args, 1, "open <url>")
    page.goto(args[0])
    print(page.url)


def _cmd_get(page: Any, args: list[str]) -> None:
    _need(args, 1, "get url|title|text <selector>|html <selector>")
    what, rest = args[0], args[1:]
    if what == "url":
        print(page.url)
    elif what == "title":
        print(page.title())
    elif what in ("text", "html"):
        _need(rest, 1, f"get {what} <selector>")
        locator = page.locator(rest[0]).first
        print(locator.inner_text() if what == "text" else locator.inner_html())
    else:
        raise UsageError(f"unknown 'get' target {what!r}; use url, title, text or html")


def _cmd_eval(page: Any, args: list[str]) -> None:
    _need(args, 1, "eval <javascript>")
    _print_value(page.evaluate(" ".join(args)))


def _cmd_click(page: Any, args: list[str]) -> None:
    _need(args, 1, "click <selector>")
    page.click(args[0])


def _cmd_fill(page: Any, args: list[str]) -> None:
    _need(args, 2, "fill <selector> <text>")
    page.fill(args[0], " ".join(args[1:]))


def _cmd_press(page: Any, args: list[str]) -> None:
    _need(args, 1, "press <key>")
    page.keyboard.press(args[0])


def _cmd_wait(page: Any, args: list[str]) -> None:
    _need(args, 1, "wait <milliseconds|selector>")
    if args[0].isdigit():
        page.wait_for_timeout(int(args[0]))
    else:
        page.wait_for_selector(args[0])


def _cmd_screenshot(page: Any, args: list[str]) -> None:
    _need(args, 1, "screenshot <file>")
    page.screenshot(path=args[0])
    print(args[0])


COMMANDS: dict[str, Callable[[Any, list[str]], None]] = {
    "open": _cmd_open,
    "goto": _cmd_open,
    "navigate": _cmd_open,
    "get": _cmd_get,
    "eval": _cmd_eval,
    "click": _cmd_click,
    "fill": _cmd_fill,
    "press": _cmd_press,
    "wait": _cmd_wait,
    "screenshot": _cmd_screenshot,
}


class UsageError(Exception):
    """The command line does not say what to do."""


def _need(args: list[str], count: int, usage: str) -> None:
    if len(args) < count:
        raise UsageError(f"usage: agent-browser {usage}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="agent-browser", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cdp", default=os.environ.get("AGENT_BROWSER_CDP") or os.environ.get("CDP_URL"))
    parser.add_argument("command", choices=sorted(COMMANDS))
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args(argv)
    if not options.cdp:
        print("agent-browser: no browser: set AGENT_BROWSER_CDP or pass --cdp", file=sys.stderr)
        return USAGE_EXIT
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.connect_over_cdp(options.cdp)
            context = browser.contexts[0] if browser.contexts else browser.new_context()
            page = context.pages[0] if context.pages else context.new_page()
            COMMANDS[options.command](page, options.args)
    except UsageError as exc:
        print(f"agent-browser: {exc}", file=sys.stderr)
        return USAGE_EXIT
    except PlaywrightError as exc:
        print(f"agent-browser: {exc.message}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
