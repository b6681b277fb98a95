"""The footer leaves out keys that do not fit rather than cut one mid-word (the map explorer's "esc Back to th")."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tests.support.dashboard import dashboard, seeded_emulator, wait_until
from tui.dashboard.features.map.explorer import MapExplorerScreen
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.footer_key import FooterKey


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_no_key_of_the_map_explorer_s_footer_is_cut(size: tuple[int, int]) -> None:
    app = dashboard(seeded_emulator())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("M")
        await wait_until(pilot, lambda: isinstance(app.screen, MapExplorerScreen), "the map explorer")
        screen = app.screen
        assert isinstance(screen, MapExplorerScreen)
        screen.query_one("#url", Input).value = "https://harbour-books.com"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: screen.links is not None, "the links")
        await pilot.pause()
        footer = screen.query_one(Footer)
        keys = [key for key in footer.query(FooterKey) if not key.has_class("-command-palette")]
        palette = footer.query_one("FooterKey.-command-palette", FooterKey)
        labels = [key.description for key in keys]
        assert {"Filter", "Copy", "Save"} <= set(labels)
        for key in keys:
            assert key.region.right <= palette.region.x, f"{key.description!r} runs under the palette's key"
        if size == (120, 40):  # every key of the results, the way back to the form included
            assert "Form" in labels and "Curl" in labels
