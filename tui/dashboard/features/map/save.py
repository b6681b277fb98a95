"""Save a map's URLs to a file: a small dialog that asks for the path and says plainly what went wrong.

The file gets one URL per line. A file that exists is never replaced without
asking (`ConfirmScreen`); a missing folder, a path that is a folder, or no
permission to write each get their own sentence, and the path stays typed
to be corrected. Dismisses with the path written, or None when cancelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tui.dashboard.features.map.links import save_urls
from tui.dashboard.kit.confirm import ConfirmScreen
from tui.dashboard.kit.outside_text import shown


def save_problem(path: Path, error: OSError) -> str:
    """One sentence for a file that could not be written."""
    if isinstance(error, FileNotFoundError):
        return f"The folder {path.parent} does not exist: create it first, or give another path."
    if isinstance(error, IsADirectoryError):
        return f"{path} is a folder: give a file name inside it, e.g. {path / 'links.txt'}."
    if isinstance(error, PermissionError):
        return f"No permission to write {path}: choose a folder you can write to."
    if isinstance(error, NotADirectoryError):
        return f"A part of {path.parent} is a file, not a folder."
    return f"{path} could not be written: {error.strerror or error}."


class SaveUrlsScreen(ModalScreen[Path | None]):
    """Ask for a file name and write `urls` there, one per line."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="save_urls.cancel")]

    DEFAULT_CSS = """
    SaveUrlsScreen { align: center middle; }
    SaveUrlsScreen > #save-dialog {
        width: 80%; max-width: 100; height: auto;
        border: thick $primary 60%; background: $surface; padding: 1 2;
    }
    SaveUrlsScreen #save-problem { color: $error; height: auto; }
    SaveUrlsScreen #save-hint { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, urls: Sequence[str], what: str, suggested: str = "links.txt") -> None:
        super().__init__()
        self.urls = urls
        self.what = what  # "20 selected URLs", said in the dialog
        self.suggested = suggested

    def compose(self) -> ComposeResult:
        with Vertical(id="save-dialog"):
            yield Static(f"Save {self.what} to a file, one URL per line:", markup=False)
            yield Input(self.suggested, placeholder="path of the file", id="save-path")
            yield Static("", id="save-problem", markup=False)
            yield Static(f"Enter saves (relative to {Path.cwd()}) · Esc cancels", id="save-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one("#save-problem").display = False
        self.query_one("#save-path", Input).focus()

    def _say(self, text: str) -> None:
        problem = self.query_one("#save-problem", Static)
        problem.update(shown(text, lines=True))  # the system's words about the path
        problem.display = bool(text)

    @on(Input.Submitted, "#save-path")
    def _submitted(self) -> None:
        self.save()

    @work(exclusive=True, exit_on_error=False, group="save")
    async def save(self) -> None:
        """Write the file; ask before replacing one; on a problem say it and keep the path typed."""
        typed = self.query_one("#save-path", Input).value.strip()
        if not typed:
            self._say("Give a file name.")
            return
        path = Path(typed).expanduser().absolute()
        try:
            save_urls(path, self.urls)
        except FileExistsError:
            if path.is_dir():
                self._say(save_problem(path, IsADirectoryError(typed)))
                return
            replace = await self.app.push_screen_wait(
                ConfirmScreen(f"{path} exists. Replace it with {self.what}?", confirm_label="Replace")
            )
            if not replace:
                self._say("Not replaced: give another name, or Enter again to be asked again.")
                return
            try:
                save_urls(path, self.urls, overwrite=True)
            except OSError as exc:
                self._say(save_problem(path, exc))
                return
        except OSError as exc:
            self._say(save_problem(path, exc))
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)
