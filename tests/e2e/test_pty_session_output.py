"""Hostile text from a real browser session, in the real `wds-tui` on a pty (issue 18, part 1).

Code run in a real Chromium prints the payload (markup, an action link, OSC
52, OSC 0, ESC [ 2J, C1 controls) and sets its page's title to it, so the
console's output, its CDP panel's pages, and the sessions pane (whose
service lists a hostile profile) all carry it. The app must stay up,
show each as text, and write none of its sequences to the terminal.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.hostile_text import SHOWN
from tests.e2e.poisoned_service import Poisoned, serve
from tests.e2e.test_pty_outside_text import (
    CTRL_S,
    ENTER,
    KEY,
    assert_no_injected_sequence,
    flat,
    quit_cleanly,
    showing,
    start,
)
from tui.emulator.browser.backend import BrowserUnavailable
from tui.emulator.browser.chromium import ChromiumBackend
from tui.emulator.browser.locate import find_chromium
from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator

pytestmark = [pytest.mark.socket, pytest.mark.browser]

CTRL_R = "\x12"
# Node, typed into the console's editor as one line: the payload is made of character codes, so
# nothing but printable keys is typed; the page's title and the output both get it.
CODE = (
    "const c=String.fromCharCode,E=c(27),B=c(7);"
    "const P='[/b][bold][@click=app.quit]quit[/]'+E+']52;c;UFdORUQ='+B+E+']0;PWNED'+B+E+'[2J'"
    "+c(155)+'2J'+c(157)+'0;PWNED'+c(156);"
    "await page.evaluate(t=>{document.title=t},'Ktitle'+P);"
    "console.log('Kout'+P)"
)


@pytest.fixture
def browser_service(tmp_path: Path) -> Iterator[str]:
    """The poisoned service on an emulator with real Chromium sessions, one of them started."""
    try:
        chromium = find_chromium()
    except BrowserUnavailable as exc:
        pytest.skip(f"no Chromium here: {exc}")
    parent = tmp_path / "backend-temp"
    parent.mkdir()
    emulator = Emulator.from_keys(
        {"ops": [KEY]}, seed=11, browser_backend=ChromiumBackend(chromium, temp_parent=parent, prewarm=False)
    )
    with serve(Poisoned(create_app(emulator)), closing=emulator.aclose) as base_url:
        headers = {"Authorization": f"Bearer {KEY}"}
        answer = httpx.post(f"{base_url}/v2/browser", json={"ttl": 300}, headers=headers, timeout=60)
        assert answer.status_code == 200, answer.text
        yield base_url


def test_session_output_page_titles_and_profiles_are_shown_as_text(browser_service: str, tmp_path: Path) -> None:
    app = start(browser_service, tmp_path)
    try:
        app.keys("4")
        app.wait_for("P␛]52;c;UFdORU")  # the profile the service lists, cut to its column
        app.keys(ENTER)  # the console on that session
        app.wait_for(showing("● connected", "Nothing run yet"))
        app.keys(CODE, pause=0.3)
        app.keys(CTRL_R)
        app.wait_for("Kout" + SHOWN, seconds=60)  # stdout
        # The page's title, in the CDP panel's pages, wrapped: Chromium itself made its C0 controls
        # spaces (a title cannot hold them), its C1 controls it keeps.
        app.wait_for(
            lambda screen: (
                "Ktitle[/b][bold][@click=app.quit]quit[/]]52;c;UFdORUQ=]0;PWNED[2J�2J�0;PWNED�" in flat(screen)
            )
        )
        assert_no_injected_sequence(app, "Kout", "Ktitle")
        app.keys(CTRL_S)  # nothing bound: still up
        quit_cleanly(app)
    finally:
        app.close()
    assert_no_injected_sequence(app)
