"""What a hostile service, page, webhook or session puts in the texts the dashboard shows, and how to check for it.

Each text gets a unique mark next to the same payload: markup that would end
the app (`[/b]`), markup that would style (`[bold]`), an action link
(`[@click=app.quit]`), and escape sequences a terminal obeys: an OSC 52
clipboard write, an OSC 0 title change, `ESC [ 2J` (clear the screen), and
the C1 controls CSI and OSC as UTF-8 characters (a UTF-8 terminal obeys
them too). `SHOWN` is how the payload must read on screen: every bracket as
typed, every control by its stand-in.

`injected_sequences(raw)` lists what of the payload reached the terminal as
bytes. Textual writes escapes of its own, so only sequences it never writes
are looked for (it writes no `ESC [ 2J`, no OSC 0, no OSC 52 unless asked to
copy, no 8-bit C1), plus each payload's bytes right after a mark.
"""

from __future__ import annotations

from collections.abc import Sequence

ESC, BEL = "\x1b", "\x07"
CLIPBOARD = f"{ESC}]52;c;UFdORUQ={BEL}"  # OSC 52: "PWNED" into the clipboard
TITLE = f"{ESC}]0;PWNED{BEL}"  # OSC 0: the window's title
CLEAR = f"{ESC}[2J"
C1 = "\u009b2J\u009d0;PWNED\u009c"  # CSI 2J and OSC 0 ... ST, as single C1 characters
MARKUP = "[/b][bold][@click=app.quit]quit[/]"
PAYLOAD = MARKUP + CLIPBOARD + TITLE + CLEAR + C1
SHOWN = MARKUP + "␛]52;c;UFdORUQ=␇" + "␛]0;PWNED␇" + "␛[2J" + "�2J�0;PWNED�"
"""The payload as it must read on screen (see the module docstring)."""
ESCAPES_FIRST = CLIPBOARD + TITLE + CLEAR + C1 + MARKUP
"""The same, escapes first: for a text cut short on screen (a session's profile takes 16 cells)."""


def hostile(mark: str) -> str:
    """`mark` and the payload: what a hostile source puts in one text."""
    return mark + PAYLOAD


def shown(mark: str) -> str:
    """How `hostile(mark)` must read on screen."""
    return mark + SHOWN


_NEVER_WRITTEN_BY_TEXTUAL = {
    "an OSC 52 clipboard write": f"{ESC}]52;".encode(),
    "an OSC 0 title change": f"{ESC}]0;".encode(),
    "a clear screen": CLEAR.encode(),
    "a C1 CSI": "\u009b".encode(),
    "a C1 OSC": "\u009d".encode(),
    "a C1 ST": "\u009c".encode(),
    "a bell": b"PWNED" + BEL.encode(),
}


def injected_sequences(raw: bytes, marks: Sequence[str] = ()) -> list[str]:
    """What of the payload reached the terminal as bytes (an empty list: nothing did)."""
    found = [name for name, sequence in _NEVER_WRITTEN_BY_TEXTUAL.items() if sequence in raw]
    for mark in marks:
        if hostile(mark).encode() in raw:
            found.append(f"the payload after {mark!r}, byte for byte")
    return found
