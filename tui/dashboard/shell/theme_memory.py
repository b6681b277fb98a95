"""The theme chosen last time comes back: each choice (palette: "Change theme") is saved for the next run."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

from textual.app import App

if TYPE_CHECKING:
    from textual.theme import Theme

    from tui.dashboard.startup.ui_state import UiState

ReturnType = TypeVar("ReturnType")


class RemembersTheTheme(App[ReturnType], Generic[ReturnType]):
    """Mixed into the app, which sets `ui_state` (None: nothing remembered between runs, as in tests)."""

    ui_state: UiState | None

    def remember_theme(self) -> None:
        """Use the theme chosen last time, and save each new choice."""
        if self.ui_state is None:
            return
        saved = self.ui_state.theme()
        if saved is not None and saved in self.available_themes:
            self.theme = saved
        self.theme_changed_signal.subscribe(self, self._save_theme)

    def _save_theme(self, theme: Theme) -> None:
        if self.ui_state is None:
            return
        try:
            self.ui_state.save_theme(theme.name)
        except OSError as exc:
            self.notify(f"The theme could not be saved for next time: {exc.strerror or exc}", severity="warning")
