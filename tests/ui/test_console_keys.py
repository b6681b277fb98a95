"""The console's keys as an operator expects them: one Escape leaves, ctrl+a selects all, ctrl+r on nothing offers the example."""

from __future__ import annotations

from textual.widgets import Static, TextArea

from tests.ui.test_console import ConsoleApp, GatedBackend, backend, console, editor, emulator, session_target
from tui.api.client import WdsClient
from tui.dashboard.features.console.history import ConsoleHistories
from tui.dashboard.kit.widgets.footer_key import FooterKey

__all__ = ["backend", "emulator"]  # the fixtures of test_console, used here too


def footer_keys(app: ConsoleApp) -> dict[str, str]:
    """What the footer shows: key -> description."""
    return {key.key: key.description for key in app.screen.query(FooterKey)}


async def test_one_escape_leaves_the_console_from_the_editor_and_keeps_the_draft(client: WdsClient) -> None:
    target = await session_target(client)
    histories = ConsoleHistories()
    first = console(client, target, histories.for_target(target))
    app = ConsoleApp(first)
    async with app.run_test(size=(120, 40)) as pilot:
        assert first.focused is editor(first)
        await pilot.press(*"unsent", "escape")
        assert app.screen is not first, "one Escape closes the console"
        assert histories.for_target(target).draft.code == "unsent"


async def test_tab_still_indents_and_shift_tab_leaves_the_editor(client: WdsClient) -> None:
    screen = console(client, await session_target(client))
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        await pilot.press("tab", "x")
        assert editor(screen).text.endswith("x") and editor(screen).text.startswith(" ")
        await pilot.press("shift+tab")
        assert screen.focused is not editor(screen) and screen.app.screen is screen


async def test_ctrl_a_selects_all_and_the_footer_says_so(client: WdsClient) -> None:
    screen = console(client, await session_target(client))
    app = ConsoleApp(screen)
    async with app.run_test(size=(120, 40)) as pilot:
        area = editor(screen)
        area.text = "one\ntwo"
        await pilot.pause()
        assert footer_keys(app).get("ctrl+a") == "Select all"
        await pilot.press("ctrl+a")
        assert area.selected_text == "one\ntwo"
        await pilot.press("z")
        assert area.text == "z", "typing replaces what ctrl+a selected"


async def test_ctrl_a_selects_all_in_the_interact_prompt_too(client: WdsClient, emulator) -> None:  # noqa: ANN001
    from tests.ui.test_console import scrape_job
    from tui.dashboard.features.console.history import ConsoleTarget

    screen = console(client, ConsoleTarget.for_interact(scrape_job(emulator, "https://acme-outdoor.com/")))
    async with ConsoleApp(screen).run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+g", *"click", "ctrl+a")
        assert screen.query_one("#prompt", TextArea).selected_text == "click"
        await pilot.press("escape")
        assert screen.app.screen is not screen


async def test_ctrl_r_on_an_empty_editor_offers_the_example_and_enter_inserts_it(
    client: WdsClient, backend: GatedBackend
) -> None:
    from textual.widgets import Select

    from tui.dashboard.features.console.example_offer import ExampleOffer
    from tui.dashboard.features.console.history import EXAMPLES

    screen = console(client, await session_target(client))
    app = ConsoleApp(screen)
    async with app.run_test(size=(120, 40)) as pilot:
        screen.query_one("#language", Select).value = "python"
        await pilot.pause()
        await pilot.press("ctrl+r")
        assert isinstance(app.screen, ExampleOffer)
        assert "Insert the python example?" in str(app.screen.query_one(Static).render())
        await pilot.press("enter")
        assert app.screen is screen and screen.focused is editor(screen)
        assert editor(screen).text == EXAMPLES["python"]
        assert backend.executions == [], "nothing is sent: the user reads the example first"
        assert not screen.query_one("#code-error").display
        await pilot.press("ctrl+z")
        assert editor(screen).text == "", "the insertion is one ctrl+z away"


async def test_y_inserts_the_example_and_any_other_key_leaves_the_editor_empty(
    client: WdsClient, backend: GatedBackend
) -> None:
    from tui.dashboard.features.console.history import EXAMPLES

    screen = console(client, await session_target(client))
    app = ConsoleApp(screen)
    async with app.run_test(size=(120, 40)) as pilot:
        for key in ("x", "escape", "space"):
            await pilot.press("ctrl+r", key)
            assert app.screen is screen and editor(screen).text == "", key
            assert str(screen.query_one("#code-error", Static).render()).startswith("Nothing to run")
        await pilot.press("ctrl+r", "y")
        assert editor(screen).text == EXAMPLES["node"]
        assert not screen.query_one("#code-error").display, "the refusal said before is gone"
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert [c.code for c in backend.executions] == [EXAMPLES["node"]], "with code in it, ctrl+r runs"
