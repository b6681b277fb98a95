"""[keys] in the config file: a binding rebound by name, shown in the footer and the help; clashes reported."""

from __future__ import annotations

from textual.binding import Binding

from tests.support.dashboard import SwitchableTransport, dashboard, seeded_emulator, wait_until
from tui.dashboard.features.sessions.form import SessionFormScreen
from tui.dashboard.features.sessions.pane import SessionsPane
from tui.dashboard.keys.keymap import keys_where_you_are
from tui.dashboard.keys.overrides import (
    KeyReport,
    action_of,
    binding_classes,
    check_key_overrides,
    describe_bindings,
    owner_name,
)
from tui.dashboard.kit.pane import Pane


def apply(overrides: dict[str, str]) -> KeyReport:
    return check_key_overrides(overrides)


async def test_a_rebound_key_works_and_the_footer_and_help_show_it() -> None:
    report = apply({"sessions.create": "n", "pane.refresh_now": "f5"})
    assert report.problems == [] and report.applied == ["sessions.create = n", "pane.refresh_now = f5"]
    emulator = seeded_emulator()
    app = dashboard(emulator, SwitchableTransport(emulator), keymap=report.keymap)  # as start-up makes it
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: all(p.data is not None for p in app.query(Pane)), "the panes' data", 10)
        await pilot.press("4")
        await pilot.pause()
        footer = {b.binding.action: b.binding.key for b in app.screen.active_bindings.values()}
        assert footer.get("create") == "n" and footer.get("refresh_now") == "f5"
        assert "c" not in app.screen.active_bindings  # the old key is gone
        help_text = " ".join(f"{a.key_text} {a.description}" for g in keys_where_you_are(app.screen) for a in g.actions)
        assert "n Create" in help_text and "f5 Refresh" in help_text
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, SessionFormScreen), "the session form on n")


def test_clashes_and_unknown_names_are_reported_with_both_actions_and_not_applied() -> None:
    report = apply(
        {"sessions.create": "d", "sessions.delete": "q", "sessions.crete": "n", "activity.next_page": "ctrl+"}
    )
    assert report.applied == []
    assert report.problems == [
        "[keys] sessions.create = 'd' not applied: d is already sessions.delete",
        "[keys] sessions.delete = 'q' not applied: q is already app.quit",
        "[keys] sessions.crete: no such action (owner.action, as wds-tui keys lists them)",
        '[keys] activity.next_page = \'ctrl+\': not a key (e.g. "n", "ctrl+n", "f5", "n,ctrl+n")',
    ]
    assert [b.key for b in SessionsPane.BINDINGS if getattr(b, "action", "") == "create"] == ["c"]


def test_overrides_are_a_keymap_and_leave_the_classes_bindings_as_declared() -> None:
    report = apply({"sessions.create": "n", "pane.refresh_now": "f5,ctrl+r"})
    assert report.keymap == {"sessions.create": "n", "pane.refresh_now": "f5,ctrl+r"}
    assert [b.key for b in SessionsPane.BINDINGS if getattr(b, "action", "") == "create"] == ["c"]
    assert [b.key for b in Pane.BINDINGS if getattr(b, "action", "") == "refresh_now"] == ["r"]


def test_every_binding_of_ours_has_the_id_wds_tui_keys_names_it_by() -> None:
    """`owner.action`, the owner being the class that declares it or a base it was copied from."""
    for cls in binding_classes():
        owners = {owner_name(each) for each in cls.__mro__}
        for binding in Binding.make_bindings(cls.__dict__["BINDINGS"]):
            owner, _, action = (binding.id or "").partition(".")
            assert owner in owners and action == action_of(binding), (cls.__name__, binding)


def test_wds_tui_keys_lists_every_name() -> None:
    listed = describe_bindings({})
    for name in ("app.quit", "app.focus_pane.crawls", "sessions.create", "pane.refresh_now", "console.run"):
        assert any(line.startswith(name + " ") for line in listed.splitlines()), name


def test_wds_tui_keys_shows_the_config_files_keys_and_its_problems(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    config = tmp_path / "config.toml"
    config.write_text('[keys]\n"sessions.create" = "n"\n"sessions.nope" = "x"\n')
    config.chmod(0o600)
    done = subprocess.run(
        [sys.executable, "-m", "tui", "--config", str(config), "keys"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.split()[:2] == ["sessions.create", "n"] for line in lines)
    assert "problem: [keys] sessions.nope: no such action (owner.action, as wds-tui keys lists them)" in lines


def test_a_key_inherited_from_a_base_class_is_a_clash_too() -> None:
    """The activity pane inherits r (refresh) from Pane, the sessions pane copies it: both are taken there."""
    report = apply({"activity.interact": "r", "sessions.create": "p", "pane.refresh_now": "i"})
    assert report.keymap == {}
    assert report.problems == [
        "[keys] activity.interact = 'r' not applied: r is already pane.refresh_now",
        "[keys] sessions.create = 'p' not applied: p is already pane.toggle_pause",
        "[keys] pane.refresh_now = 'i' not applied: i is already activity.interact",
    ]
