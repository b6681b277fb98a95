"""The export dialog: a list as CSV or JSON lines, to a file or to the clipboard.

Opened by any list's export key with an `ExportTable` (`tui.dashboard.kit.export`).
A file that cannot be written (no such folder, no permission, a pipe or a
device) is said in the dialog, which stays open with everything typed, so the
path can be mended. A file that exists is replaced only when Export is
pressed a second time for the same path. The file is written in a thread
(`tui.dashboard.kit.export_file`: whole or not at all), so a slow disk never
holds up the dashboard. The clipboard is the terminal's (Textual's `copy_to_clipboard`,
OSC 52): the toast says so, since some terminals do not let programs set it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from tui.dashboard.kit.export import FORMATS, ExportTable, Format, export_text, with_suffix
from tui.dashboard.kit.export_file import ExportError, ExportExists, write_export
from tui.dashboard.kit.outside_text import shown

FILE = "file"
CLIPBOARD = "clipboard"


class ExportScreen(ModalScreen[None]):
    """Choose a format and where to, then export; errors stay in the dialog with what was typed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "export", "Export", priority=True, id="export.export"),
        Binding("escape", "cancel", "Cancel", id="export.cancel"),
    ]

    DEFAULT_CSS = """
    ExportScreen { align: center middle; }
    ExportScreen > #export-dialog {
        width: 70; max-width: 95%; height: auto;
        border: thick $primary 60%; background: $surface; padding: 0 1;
    }
    ExportScreen #export-title { height: auto; margin-bottom: 1; text-style: bold; }
    ExportScreen .export-row { height: auto; margin-bottom: 1; }
    ExportScreen .export-row > Label { width: 6; }
    ExportScreen .export-row > Select { width: 1fr; }
    ExportScreen #export-path { width: 1fr; }
    ExportScreen #export-message { height: auto; margin-bottom: 1; }
    ExportScreen #export-message.-error { color: $error; }
    ExportScreen #export-buttons { height: auto; align-horizontal: right; }
    ExportScreen #export-buttons Button { margin-left: 2; }
    ExportScreen .export-hint { color: $text-muted; }
    """

    def __init__(self, table: ExportTable, *, fmt: Format = "csv", folder: Path | None = None) -> None:
        super().__init__()
        self.table = table
        self.fmt: Format = fmt
        self.default_path = str((folder or Path()) / f"{table.name}.{fmt}")
        self._replace_confirmed: str | None = None  # the path the person agreed to replace

    def compose(self) -> ComposeResult:
        rows = "row" if self.table.count == 1 else "rows"
        with Vertical(id="export-dialog"):
            # The title may quote outside text (a group's cause and path).
            yield Static(shown(f"Export {self.table.count:,} {rows} · {self.table.title}"), id="export-title")
            with Horizontal(classes="export-row"):
                yield Label("as")
                yield Select(
                    [(name, fmt) for fmt, name in FORMATS.items()],
                    value=self.fmt,
                    allow_blank=False,
                    compact=True,
                    id="export-format",
                )
            with Horizontal(classes="export-row"):
                yield Label("to")
                yield Select(
                    [("a file", FILE), ("the clipboard", CLIPBOARD)],
                    value=FILE,
                    allow_blank=False,
                    compact=True,
                    id="export-to",
                )
            with Horizontal(classes="export-row", id="export-file-row"):
                yield Label("file")
                yield Input(self.default_path, id="export-path", compact=True)
            message = Static("", id="export-message", markup=False)
            message.display = False
            yield message
            with Horizontal(id="export-buttons"):
                yield Button("Cancel", id="export-cancel", compact=True)
                yield Button("Export", id="export-go", variant="primary", compact=True)
            yield Static("^s export · Esc cancel", classes="export-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one("#export-path", Input).focus()

    @property
    def to_clipboard(self) -> bool:
        """Whether the export goes to the clipboard (else to the file named)."""
        return self.query_one("#export-to", Select).value == CLIPBOARD

    @on(Select.Changed, "#export-format")
    def _format_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.value in FORMATS:
            self.fmt = event.value  # type: ignore[assignment]  # one of FORMATS' keys
            path = self.query_one("#export-path", Input)
            path.value = with_suffix(path.value, self.fmt)

    @on(Select.Changed, "#export-to")
    def _destination_changed(self, event: Select.Changed) -> None:
        event.stop()
        self.query_one("#export-file-row").display = not self.to_clipboard
        self._say("")

    @on(Input.Changed, "#export-path")
    def _path_changed(self) -> None:
        self._replace_confirmed = None
        self._say("")

    def _say(self, text: str, *, error: bool = False) -> None:
        message = self.query_one("#export-message", Static)
        message.update(shown(text, lines=True))  # a path typed or an OS error may hold anything
        message.set_class(error, "-error")
        message.display = bool(text)

    @on(Button.Pressed, "#export-go")
    @on(Input.Submitted, "#export-path")
    def action_export(self) -> None:
        """Export as chosen: to the clipboard, or to the file (a second press replaces a file that exists)."""
        text = export_text(self.table, self.fmt)
        rows = f"{self.table.count:,} row{'' if self.table.count == 1 else 's'}"
        if self.to_clipboard:
            self.app.copy_to_clipboard(text)
            self.app.notify(f"Copied {rows} as {FORMATS[self.fmt]} to the clipboard (if the terminal allows OSC 52).")
            self.dismiss(None)
            return
        path = self.query_one("#export-path", Input).value
        self.run_worker(self._write(path, text, rows), group="export-write", exclusive=True, exit_on_error=False)

    async def _write(self, path: str, text: str, rows: str) -> None:
        """Write the file in a thread; a second press for the same path replaces a file that exists."""
        try:
            written = await asyncio.to_thread(write_export, path, text, replace=self._replace_confirmed == path)
        except ExportExists as exc:
            self._replace_confirmed = path
            self._say(exc.message, error=True)
            return
        except ExportError as exc:
            self._say(exc.message, error=True)
            return
        self.app.notify(f"Wrote {rows} as {FORMATS[self.fmt]} to {written}.")
        self.dismiss(None)

    @on(Button.Pressed, "#export-cancel")
    def action_cancel(self) -> None:
        """Close without exporting."""
        self.dismiss(None)
