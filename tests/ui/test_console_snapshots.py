"""Pictures of the console's CDP panel with pages and events, at 120x40 and 80x24.

Long URLs must read whole in the panel's narrow column (folded, not cut), and
its headings must be evenly spaced. Update after an intended change with
`pytest tests/ui/test_console_snapshots.py --snapshot-update`, then read the
SVGs' text (`python3 /work/svgtext.py FILE.svg`) before committing them.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import TextArea

from tests.support.dashboard import dashboard, freeze_cursors, seeded_emulator, wait_until
from tests.support.recording_backend import RecordingBackend
from tests.ui.test_console_cdp_layout import EVENT, PAGES
from tui.api.cdp_types import CdpEvent, ConnectionState, PagesChanged, StateChanged
from tui.dashboard.features.console.cdp_panel import CdpStatusPanel
from tui.dashboard.features.console.history import ConsoleTarget
from tui.dashboard.features.console.screen import ConsoleScreen
from tui.dashboard.kit.pane import Pane

SIZES = [(120, 40), (80, 24)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_cdp_panel_with_long_urls(snap_compare, size) -> None:
    async def open_console(pilot: Pilot) -> None:
        app = pilot.app
        await wait_until(pilot, lambda: all(p.data is not None for p in app.query(Pane)), "all panes")
        created = await app.client.browser.create(ttl=600)
        target = ConsoleTarget("session", created.id, None, f"Execute console · browser session {created.id[:8]}")
        app.push_screen(ConsoleScreen(app.client, target, clock=app.clock))
        await pilot.pause()
        editor = app.screen.query_one(TextArea)
        await wait_until(pilot, lambda: editor.has_focus, "the editor's focus")
        panel = app.screen.query_one(CdpStatusPanel)
        # The updates a live session sends (the socket itself is tested with Chromium in test_console).
        panel._apply(StateChanged(ConnectionState.CONNECTED))  # noqa: SLF001
        panel._apply(CdpEvent("Target.attachedToTarget", {"targetId": "A1B2C3D4E5", "sessionId": "S1"}))  # noqa: SLF001
        panel._apply(EVENT)  # noqa: SLF001
        panel._apply(PagesChanged(PAGES))  # noqa: SLF001
        freeze_cursors(app)
        await pilot.pause()
        # The event log and the pages' list are pictured from their top: the log writes its
        # wrapped lines once it knows its width, and on a loaded machine its scroll to the end
        # landed a line further than when idle (one failed clean-clone run).
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        for box in ("#cdp-pages-box", "#cdp-events"):
            app.screen.query_one(box).scroll_home(animate=False, immediate=True)
        await pilot.pause()

    app = dashboard(seeded_emulator(browser_backend=RecordingBackend()))
    assert snap_compare(app, terminal_size=size, run_before=open_console)
