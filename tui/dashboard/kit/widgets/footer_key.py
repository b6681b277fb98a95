"""One key of the footer: the key, its label, greyed while its action cannot run; a click runs the action.

Textual draws its footer's keys with a widget it does not export
(`textual.widgets._footer.FooterKey`). This one is written on the public API
to look the same, so the footer did not change when it replaced Textual's:
the same component classes (`footer-key--key`, `footer-key--description`)
styled by the same theme variables (`$footer-key-foreground`, ...) and
padding, the same `-compact` and `-disabled` classes, and the same type name:
Textual's `Footer` styles its keys by that name (`Footer.-compact FooterKey`
spaces them, `FooterKey.-command-palette` docks the palette's key right), and
tests query the footer's keys by it.

One difference, on purpose: a click runs the key's action in the namespace
that bound it, where Textual's key replays the key press (which the focused
widget may have bound to something else).
"""

from __future__ import annotations

from rich.text import Text
from textual.dom import DOMNode
from textual.geometry import Spacing
from textual.reactive import reactive
from textual.widget import Widget


class FooterKey(Widget):
    """A key the footer shows: `key_display` then `description`; a click runs `action` in `namespace`."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer-key--key", "footer-key--description"}
    DEFAULT_CSS = """
    FooterKey {
        width: auto;
        height: 1;
        text-wrap: nowrap;
        background: $footer-item-background;
        &:hover {
            pointer: pointer;
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        &.-disabled { text-style: dim; }
        .footer-key--key {
            padding: 0 1;
            text-style: bold;
            color: $footer-key-foreground;
            background: $footer-key-background;
        }
        .footer-key--description {
            padding: 0 1 0 0;
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        &.-compact {
            .footer-key--key { padding: 0; }
            .footer-key--description { padding: 0 0 0 1; }
        }
    }
    """

    compact = reactive(True, toggle_class="-compact")
    """Less space around the key and its label (the footer's own `compact`)."""

    def __init__(
        self,
        key: str,
        key_display: str,
        description: str,
        action: str,
        namespace: DOMNode,
        *,
        disabled: bool = False,
        tooltip: str = "",
        classes: str = "",
    ) -> None:
        # Greyed by a class, not Widget's `disabled`: a disabled widget gets no clicks and shows no
        # tooltip, and this key still explains itself and rings the bell when clicked.
        super().__init__(classes=f"{classes} -disabled" if disabled else classes)
        self.key = key
        self.key_display = key_display
        self.description = description
        self.action = action
        self.namespace = namespace
        self.greyed = disabled
        self.set_reactive(Widget.shrink, False)  # a key is cut at the footer's edge, never squeezed
        if tooltip:
            self.tooltip = tooltip

    def render(self) -> Text:
        key_look = self.get_component_styles("footer-key--key")
        if not self.description:  # a key alone is drawn bare, without its padding
            text = Text(self.key_display, self.get_component_rich_style("footer-key--key"))
        else:
            label_look = self.get_component_styles("footer-key--description")
            text = Text.assemble(
                (self._padded(self.key_display, key_look.padding), self.get_component_rich_style("footer-key--key")),
                (
                    self._padded(self.description, label_look.padding),
                    self.get_component_rich_style("footer-key--description"),
                ),
            )
        text.stylize_before(self.rich_style)
        return text

    @staticmethod
    def _padded(words: str, padding: Spacing) -> str:
        return f"{' ' * padding.left}{words}{' ' * padding.right}"

    def on_click(self) -> None:
        if self.greyed:
            self.app.bell()
            return
        # In the app's queue, as a key press would be: the footer is rebuilt when the action changes
        # the bindings, and this key with it.
        self.app.call_later(self.app.run_action, self.action, self.namespace)
