"""The real `wds-tui` in a pseudo-terminal: every byte it writes kept, and a small screen drawn from them.

tmux shows what a terminal made of the output but not the output itself; a
test that must prove no escape sequence of the service's reached the terminal
needs the bytes. `PtyApp` runs the command on a pty of a fixed size, keeps all
it writes (`raw`), and feeds it to `ScreenGrid`, which knows just what Textual
uses to draw (cursor positioning, erasing, text, and sequences it can skip) so
a test can also read the screen and find where a text is, to click on it.
"""

from __future__ import annotations

import codecs
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Callable, Mapping, Sequence

from rich.cells import get_character_cell_size

# A sequence, whole, at the start of what is left to draw: CSI, OSC and the other strings, or ESC + one or two.
_SEQUENCE = re.compile(
    r"\x1b(?:\[(?P<params>[0-?]*)[ -/]*(?P<final>[@-~])"
    r"|\][^\x07\x1b]*(?:\x07|\x1b\\)"
    r"|[P_^X][^\x1b]*\x1b\\"
    r"|[()*+#].|[^\[\]P_^X()*+#])",
    re.DOTALL,
)
_STRING_STARTS = "]P_^X"


class ScreenGrid:
    """The characters on a terminal of `columns` x `rows`, as a stream of output leaves them."""

    def __init__(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows
        self.cells = [[" "] * columns for _ in range(rows)]
        self.x = self.y = 0
        self._pending = ""

    def feed(self, text: str) -> None:
        text = self._pending + text
        self._pending = ""
        index = 0
        while index < len(text):
            char = text[index]
            if char == "\x1b":
                match = _SEQUENCE.match(text, index)
                if match is None:
                    if len(text) - index < 4096 and self._incomplete(text[index:]):
                        self._pending = text[index:]
                        return
                    index += 1  # a lone ESC: nothing to draw
                    continue
                if match.group("final"):
                    self._csi(match.group("params"), match.group("final"))
                index = match.end()
                continue
            self._char(char)
            index += 1

    @staticmethod
    def _incomplete(rest: str) -> bool:
        """Whether `rest` is the start of a sequence whose end has not arrived yet."""
        if len(rest) < 3:
            return True
        if rest[1] == "[":
            return re.fullmatch(r"\x1b\[[0-?]*[ -/]*", rest) is not None
        return rest[1] in _STRING_STARTS and "\x07" not in rest and "\x1b\\" not in rest

    def _char(self, char: str) -> None:
        code = ord(char)
        if char == "\r":
            self.x = 0
        elif char == "\n":
            self._line_feed()
        elif char == "\b":
            self.x = max(0, self.x - 1)
        elif code < 0x20 or 0x7F <= code < 0xA0:
            return  # other controls move nothing we draw (the raw output is checked for them apart)
        else:
            width = get_character_cell_size(char)
            if width == 0 or not (0 <= self.y < self.rows):
                return
            if self.x + width > self.columns:
                self.x = self.columns - width
            self.cells[self.y][self.x] = char
            if width == 2:
                self.cells[self.y][self.x + 1] = ""
            self.x += width

    def _line_feed(self) -> None:
        if self.y == self.rows - 1:
            self.cells = [*self.cells[1:], [" "] * self.columns]
        else:
            self.y += 1

    def _csi(self, params: str, final: str) -> None:
        if params.startswith(("?", ">", "<", "=")):
            return  # modes and queries: nothing drawn
        numbers = [int(part) if part.isdigit() else 0 for part in params.split(";")] if params else []

        def arg(index: int, default: int = 1) -> int:
            return numbers[index] if len(numbers) > index and numbers[index] else default

        if final in "Hf":
            self.y, self.x = min(arg(0) - 1, self.rows - 1), min(arg(1) - 1, self.columns - 1)
        elif final == "A":
            self.y = max(0, self.y - arg(0))
        elif final == "B":
            self.y = min(self.rows - 1, self.y + arg(0))
        elif final == "C":
            self.x = min(self.columns - 1, self.x + arg(0))
        elif final == "D":
            self.x = max(0, self.x - arg(0))
        elif final == "G":
            self.x = min(arg(0) - 1, self.columns - 1)
        elif final == "d":
            self.y = min(arg(0) - 1, self.rows - 1)
        elif final == "J":
            mode = arg(0, 0)
            rows = range(self.rows) if mode in (2, 3) else range(self.y + 1, self.rows)
            for row in rows:
                self.cells[row] = [" "] * self.columns
            if mode == 0:
                self.cells[self.y][self.x :] = [" "] * (self.columns - self.x)
        elif final == "K":
            mode = arg(0, 0)
            start, end = {0: (self.x, self.columns), 1: (0, self.x + 1), 2: (0, self.columns)}.get(mode, (0, 0))
            self.cells[self.y][start:end] = [" "] * (end - start)

    def lines(self) -> list[str]:
        return ["".join(row).rstrip() for row in self.cells]

    def text(self) -> str:
        return "\n".join(self.lines())

    def find(self, needle: str) -> tuple[int, int] | None:
        """(column, row) where `needle` starts on screen, counted in cells."""
        for row, cells in enumerate(self.cells):
            line = "".join(cells)
            start = line.find(needle)
            if start >= 0:
                return sum(max(1, get_character_cell_size(char)) if char else 0 for char in line[:start]), row
        return None


class PtyApp:
    """A command on a pty of `columns` x `rows`: keys in, every byte out kept (`raw`), its screen drawn."""

    def __init__(
        self, argv: Sequence[str], env: Mapping[str, str], *, columns: int = 200, rows: int = 50, cwd: str | None = None
    ) -> None:
        self.screen = ScreenGrid(columns, rows)
        self._raw = bytearray()
        self._lock = threading.Lock()
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.process = subprocess.Popen(
            list(argv),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=dict(env),
            cwd=cwd,
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self._master = master
        self._reader = threading.Thread(target=self._read, name="pty-reader", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        while True:
            try:
                ready, _, _ = select.select([self._master], [], [], 0.2)
                if not ready:
                    if self.process.poll() is not None:
                        return
                    continue
                chunk = os.read(self._master, 65536)
            except OSError:  # the other end closed: the app has exited
                return
            if not chunk:
                return
            with self._lock:
                self._raw += chunk
                self.screen.feed(decoder.decode(chunk))

    @property
    def raw(self) -> bytes:
        """Every byte the app wrote to its terminal so far."""
        with self._lock:
            return bytes(self._raw)

    def text(self) -> str:
        with self._lock:
            return self.screen.text()

    def find(self, needle: str) -> tuple[int, int] | None:
        with self._lock:
            return self.screen.find(needle)

    def keys(self, *keys: str, pause: float = 0.15) -> None:
        """Type each of `keys` (text, or escape sequences such as "\\x1b[B"), a short pause after each."""
        for key in keys:
            os.write(self._master, key.encode())
            time.sleep(pause)

    def click(self, column: int, row: int) -> None:
        """A left click at a cell (SGR mouse reporting, which Textual turns on)."""
        os.write(self._master, f"\x1b[<0;{column + 1};{row + 1}M".encode())
        os.write(self._master, f"\x1b[<0;{column + 1};{row + 1}m".encode())

    def wait_for(self, what: str | Callable[[str], bool], seconds: float = 30.0) -> str:
        """The screen once it shows `what` (a text, or a test of the screen); fails after `seconds`."""
        test = (lambda screen: what in screen) if isinstance(what, str) else what
        deadline = time.monotonic() + seconds
        screen = ""
        while time.monotonic() < deadline:
            screen = self.text()
            if test(screen):
                return screen
            if not self.alive():
                raise AssertionError(f"the app exited ({self.process.returncode}); its screen was:\n{screen}")
            time.sleep(0.1)
        raise AssertionError(f"{what!r} never appeared; the screen was:\n{screen}")

    def alive(self) -> bool:
        return self.process.poll() is None

    def wait_exit(self, seconds: float = 15.0) -> int | None:
        try:
            return self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            return None

    def close(self) -> None:
        """End the app if it still runs (its whole process group: it may have started children)."""
        if self.alive():
            os.killpg(self.process.pid, signal.SIGTERM)
            if self.wait_exit(10) is None:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self._reader.join(5)
        os.close(self._master)
