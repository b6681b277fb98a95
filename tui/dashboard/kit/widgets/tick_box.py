"""A checkbox whose ticked and unticked states differ in shape, not only in colour.

Textual's `Checkbox` draws `▐X▌` either way and tells the two apart by colour,
so under NO_COLOR (or a colour-blind eye, or a monochrome log of the screen)
every box reads as ticked. `TickBox` draws the cross only when ticked: `▐X▌`
on, `▐ ▌` off. Every form of the dashboard uses it instead of `Checkbox`.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox

TICKED = "X"
UNTICKED = " "


class TickBox(Checkbox):
    """A `Checkbox` that shows `X` when ticked and a blank when not."""

    def render(self) -> Content:
        # BUTTON_INNER is the ToggleButton's documented class variable for the inner glyph;
        # set per instance before each render, it follows the value.
        self.BUTTON_INNER = TICKED if self.value else UNTICKED
        return super().render()
