"""The footer's own key widget: a click runs the key's action where it was bound, a greyed key rings the bell."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widget import Widget

from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.footer_key import FooterKey


class Counter(Widget, can_focus=True):
    BINDINGS = [Binding("n", "count", "Count: add one"), Binding("m", "never", "Never")]

    def __init__(self) -> None:
        super().__init__()
        self.counted = 0

    def action_count(self) -> None:
        self.counted += 1

    def action_never(self) -> None:
        raise AssertionError("a greyed key ran its action")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "never" else True  # None: shown, greyed out


class KeysApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.bells = 0

    def compose(self) -> ComposeResult:
        yield Counter()
        yield Footer()

    def bell(self) -> None:
        self.bells += 1


def key_for(app: KeysApp, action: str) -> FooterKey:
    return next(key for key in app.query(FooterKey) if key.action == action)


async def test_a_click_runs_the_action_of_the_widget_that_bound_it() -> None:
    app = KeysApp()
    async with app.run_test(size=(80, 5)) as pilot:
        await pilot.pause()
        counter = app.query_one(Counter)
        key = key_for(app, "count")
        assert (key.key, key.key_display, key.description, key.namespace) == ("n", "n", "Count", counter)
        assert key.tooltip == "Count: add one"  # the whole description, where the label keeps its head
        await pilot.click(key)
        await pilot.pause()
        assert counter.counted == 1


async def test_a_greyed_key_says_so_and_rings_the_bell_when_clicked() -> None:
    app = KeysApp()
    async with app.run_test(size=(80, 5)) as pilot:
        await pilot.pause()
        key = key_for(app, "never")
        assert key.has_class("-disabled")
        await pilot.click(key)
        await pilot.pause()
        assert app.bells == 1


async def test_the_footers_compact_reaches_its_keys() -> None:
    app = KeysApp()
    async with app.run_test(size=(80, 5)) as pilot:
        await pilot.pause()
        footer = app.query_one(Footer)
        assert not key_for(app, "count").has_class("-compact")
        footer.compact = True
        await pilot.pause()
        assert all(key.has_class("-compact") for key in app.query(FooterKey) if "-command-palette" not in key.classes)
        assert str(key_for(app, "count").render()) == "n Count"  # compact: no padding round the key
