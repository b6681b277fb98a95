"""Text from outside is shown as text: the one rule every view applies to what it did not write itself.

What the service answers, a webhook delivers, a scraped page holds or session
code prints can say anything. Handed to Textual as a `str`, it is read as
markup by most widgets (`[/b]` in a URL raises MarkupError and ends the app,
`[@click=app.quit]` becomes a clickable action), and whatever it holds goes to
the terminal byte for byte: `ESC ] 52` writes the operator's clipboard,
`ESC ] 0` retitles the window, `ESC [ 2J` clears the screen, and a UTF-8
terminal obeys the C1 controls (U+009B is CSI) as well.

So outside text enters the UI through here:

- `visible(value)` swaps every control character for a stand-in a person can
  see (the Unicode control pictures: ESC is ␛, NUL ␀, DEL ␡) and every other
  invisible troublemaker for "�" (C1 controls, bidi overrides and isolates,
  which can make a URL read as another, and lone surrogates, which cannot be
  encoded for the terminal at all);
- `plain(value)` makes that a `rich.text.Text` built as plain text, never from
  markup; `shown(value)` makes anything a widget is given safe: a `str` plain
  `Content`, a `Text` or `Content` of ours holding outside words the same with
  its styles in place (every stand-in is one character);
- `safe_cell(cell)` is that for a table cell (`LiveTable` applies it to all);
- `PlainNotifications` makes every `notify()` of the app plain text.

A single line (a table cell, a title) shows a newline as ␤ and a tab as a
space; `lines=True` (console output, an error body, a Markdown source) keeps
newlines and tabs, and reads CRLF as one newline.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rich.text import Text
from textual.content import Content

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

REPLACEMENT = "\N{REPLACEMENT CHARACTER}"
NEWLINE_PICTURE = "\N{SYMBOL FOR NEWLINE}"

# C0 controls and DEL become their control pictures (U+2400 + code, DEL U+2421): one
# cell wide in every font that has them, and they say which control it was.
_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)} | {0x7F: "\N{SYMBOL FOR DELETE}"}
# No pictures exist for these: C1 controls (a UTF-8 terminal obeys U+009B as CSI, U+009D
# as OSC), the bidi embeddings, overrides and isolates (text that reads as other text), and
# lone surrogates (from JSON "\ud800"; writing one to the terminal raises UnicodeEncodeError).
# The bidi marks (LRM, RLM, ALM) stay: they cannot reorder letters, and right-to-left
# titles use them.
_UNSHOWABLE = [*range(0x80, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A), *range(0xD800, 0xE000)]
_LINE_SEPARATORS = (0x2028, 0x2029)

_ONE_LINE = str.maketrans(
    _PICTURES
    | dict.fromkeys(_UNSHOWABLE, REPLACEMENT)
    | dict.fromkeys((ord("\n"), *_LINE_SEPARATORS), NEWLINE_PICTURE)  # ␤ reads better than ␊
    | {ord("\t"): " "}
)
_LINES = str.maketrans(
    {code: picture for code, picture in _PICTURES.items() if chr(code) not in "\n\t"}
    | dict.fromkeys(_UNSHOWABLE, REPLACEMENT)
    | dict.fromkeys(_LINE_SEPARATORS, "\n")
)
# What needs the translation at all: most text has none of it, and is returned as it is.
_ANY = re.compile("[\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")
_ANY_BUT_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")


def visible(value: object, *, lines: bool = False) -> str:
    """`value` as a string with nothing in it a terminal would obey, each such character shown by a stand-in.

    One line unless `lines`: then newlines and tabs stay, and CRLF is a newline
    (a lone CR, which would move the cursor back over the line, is ␍).
    """
    text = value if isinstance(value, str) else str(value)
    if lines:
        if not _ANY_BUT_LINES.search(text):
            return text
        return text.replace("\r\n", "\n").translate(_LINES)
    if not _ANY.search(text):
        return text
    return text.translate(_ONE_LINE)


def plain(value: object, style: str = "", *, lines: bool = False) -> Text:
    """Outside text as a Rich `Text` that is only text: no markup read, nothing a terminal obeys."""
    return Text(visible(value, lines=lines), style=style, end="")


def shown(value: str | Text | Content, *, lines: bool = False) -> Text | Content:
    """What a widget is given to show (`Static.update`, `Label`, ...), made safe whatever it is.

    A `str` becomes plain `Content` (never markup). A `Text` or `Content` that
    mixes our words and styles with outside text keeps them: every stand-in is
    one character, so the spans stay in place. (There CRLF stays two
    characters, ␍ and a newline.)
    """
    if isinstance(value, str):
        return Content(visible(value, lines=lines))
    if isinstance(value, Text):
        return _safe_text(value, lines)
    table, pattern = _rule(lines)
    if not pattern.search(value.plain):
        return value
    return Content(value.plain.translate(table), spans=list(value.spans))


def safe_cell(cell: str | Text) -> Text:
    """A table cell as a `Text` that is only text: a `str` is never read as markup (see `LiveTable`)."""
    return _safe_text(cell, False) if isinstance(cell, Text) else plain(cell)


def _rule(lines: bool) -> tuple[dict[int, str], re.Pattern[str]]:
    return (_LINES, _ANY_BUT_LINES) if lines else (_ONE_LINE, _ANY)


def _safe_text(text: Text, lines: bool) -> Text:
    table, pattern = _rule(lines)
    if not pattern.search(text.plain):
        return text
    safe = text.copy()
    safe.plain = text.plain.translate(table)  # the same length: the spans keep their places
    return safe


class PlainNotifications:
    """App mixin: every notification is plain text, its controls shown by stand-ins.

    Notifications say what went wrong, and what went wrong is often the
    service's own words (an error body, a refused URL). Textual reads a
    notification as markup unless told otherwise, and a widget's `notify`
    always tells the app "markup" by default; so the app, where they all
    arrive, reads none. None of ours is written in markup.
    """

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,  # Textual's signature; whatever a caller says, nothing is read as markup
    ) -> None:
        super().notify(  # type: ignore[misc]
            visible(message, lines=True), title=visible(title), severity=severity, timeout=timeout, markup=False
        )
