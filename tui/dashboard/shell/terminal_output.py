"""Escape codes written straight to the terminal, between Textual's frames: the one private name of the shell.

A desktop notification through the terminal (OSC 9, 777 or 99, built by
`tui.monitor.delivery.terminal.notice_bytes`) is bytes the terminal must get as
they are, not text on a screen. Textual has no public call for that; its own
`App.bell()` writes the BEL through the app's driver, whose writer thread also
sends every frame, so codes written there never land in the middle of one. This
does the same, and nothing else of Textual's inside is touched.
`tests/ui/test_alerts_delivery.py` pins it: if the attribute goes, that test fails.
"""

from __future__ import annotations

from typing import Any

from textual.app import App


def write_to_terminal(app: App[Any], text: str) -> bool:
    """Write `text` to `app`'s terminal as it is; False when there is none (headless, not started, closed)."""
    # Private, on purpose, and only here: Textual's App.bell() writes "\a" this very way.
    driver = app._driver
    if app.is_headless or driver is None:
        return False
    driver.write(text)
    return True
