"""A desktop notification through the terminal, and its bell: the exact bytes, built by pure functions.

Terminals read one of three escape codes (OSC is ESC ], BEL is 0x07, ST is ESC \\):

- OSC 9 ; text BEL: iTerm2's "Post a notification" (iTerm2's proprietary escape
  codes, https://iterm2.com/documentation-escape-codes.html; ST there is BEL or
  ESC \\). One text, no title, so it is sent as "title: body". ConEmu and Windows
  Terminal read OSC 9 ; digit ; as a command of their own (progress, directory),
  so no `;` is sent in it at all.
- OSC 777 ; notify ; title ; body BEL: rxvt-unicode's notify extension, taken up
  by VTE (Fedora's patch), foot, Ghostty and WezTerm (and Windows Terminal's
  pull request 20012). `;` separates the fields, so none is sent in a title or body.
- OSC 99 ; metadata ; payload ESC \\: kitty's own protocol
  (https://sw.kovidgoyal.net/kitty/desktop-notifications/). Metadata is
  `key=value` pairs joined by `:`; the title goes with `d=0` (not done yet) and the
  body with `d=1:p=body` under the same id `i`, so kitty shows them as one
  notification; `u` is the urgency (0 low, 1 normal, 2 critical). A payload is
  plain UTF-8 with no C0 controls, at most 2048 bytes; the caps below keep both
  texts under that.

Inside tmux (`TMUX` is set) an escape code reaches the terminal outside only
through tmux's passthrough, DCS `ESC P tmux;` ... `ESC \\` with every ESC inside
doubled (tmux's change log, 2011: "Escape characters in the sequences must be
doubled"), and only with `set -g allow-passthrough on` (tmux 3.3 and later). The
bell needs no wrapping: tmux rings the outside terminal's bell itself.

Titles and bodies come from outside (a host name, an error the service gave):
every control character (C0 with ESC and BEL, DEL, C1 with ST and OSC, the bidi
overrides and isolates, line separators, lone surrogates) is taken out, so the text
can neither end the escape code nor start another one.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from enum import StrEnum

from tui.monitor.delivery.notice import AlertNotice

ESC = "\x1b"
BEL = "\x07"
ST = ESC + "\\"

TITLE_LIMIT = 100
"""Characters of a title sent at most (the rest becomes "…")."""
BODY_LIMIT = 400
"""Characters of a body sent at most: 400 characters are at most 1,600 bytes of UTF-8, under kitty's 2,048."""

URGENCY = {"info": 0, "warning": 1, "critical": 2}
"""OSC 99's `u` for each severity."""


class EscapeCode(StrEnum):
    """Which escape code the terminal reads; also the config values (`auto` chooses from the environment)."""

    OSC9 = "osc9"
    OSC777 = "osc777"
    OSC99 = "osc99"
    OFF = "off"
    AUTO = "auto"


# Whitespace controls become a space (two words stay two); every other control goes.
_SPACES = re.compile("[\t\n\v\f\r\u2028\u2029]+")
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def clean(text: str, limit: int, *, separator: str | None = None) -> str:
    """`text` with no control character (nor `separator`), on one line, at most `limit` characters."""
    text = _CONTROLS.sub("", _SPACES.sub(" ", text))
    if separator:
        text = text.replace(separator, ",")
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def choose(setting: str, env: Mapping[str, str]) -> EscapeCode:
    """The escape code to send: `setting` unless it is `auto`, else the one the terminal named in `env` reads.

    Inside tmux `TERM_PROGRAM` and `TERM` name tmux, so the variables a terminal sets
    for its own windows (and tmux inherits when started from it) are read too. A
    terminal not known to show notifications gets none (`off`): an unknown OSC is
    harmless in most terminals, but not in all.
    """
    chosen = EscapeCode(setting.strip().lower())
    if chosen is not EscapeCode.AUTO:
        return chosen
    program = env.get("TERM_PROGRAM", "").lower()
    term = env.get("TERM", "").lower()
    if env.get("KITTY_WINDOW_ID") or term == "xterm-kitty":
        return EscapeCode.OSC99
    if program == "iterm.app" or env.get("ITERM_SESSION_ID") or env.get("LC_TERMINAL", "").lower() == "iterm2":
        return EscapeCode.OSC9
    if program in ("wezterm", "ghostty") or env.get("WEZTERM_PANE") or env.get("GHOSTTY_RESOURCES_DIR"):
        return EscapeCode.OSC777
    if term.startswith(("foot", "xterm-ghostty", "rxvt-unicode")) or env.get("VTE_VERSION"):
        return EscapeCode.OSC777
    return EscapeCode.OFF


def osc9(title: str, body: str) -> str:
    """iTerm2's OSC 9: one text, "title: body"."""
    title, body = clean(title, TITLE_LIMIT, separator=";"), clean(body, BODY_LIMIT, separator=";")
    text = f"{title}: {body}" if title and body else title or body
    return f"{ESC}]9;{text}{BEL}"


def osc777(title: str, body: str) -> str:
    """OSC 777's notify: title and body, each without the `;` that separates them."""
    title, body = clean(title, TITLE_LIMIT, separator=";"), clean(body, BODY_LIMIT, separator=";")
    return f"{ESC}]777;notify;{title};{body}{BEL}"


def osc99(title: str, body: str, *, ident: str, urgency: int = 1) -> str:
    """kitty's OSC 99: the title (not done yet), then the body that completes notification `ident`."""
    ident = re.sub(r"[^A-Za-z0-9_+.\-]", "", ident) or "0"
    title, body = clean(title, TITLE_LIMIT), clean(body, BODY_LIMIT)
    meta = f"i={ident}:u={urgency}"
    return f"{ESC}]99;{meta}:d=0:p=title;{title}{ST}{ESC}]99;{meta}:d=1:p=body;{body}{ST}"


def tmux_passthrough(sequence: str) -> str:
    """`sequence` wrapped for tmux's passthrough: DCS tmux; with every ESC doubled, ended by ST."""
    return f"{ESC}Ptmux;{sequence.replace(ESC, ESC + ESC)}{ST}"


def notification(code: EscapeCode, title: str, body: str, *, ident: str = "0", urgency: int = 1) -> str:
    """The escape code `code` for one notification ("" for `off`), before any wrapping."""
    if code is EscapeCode.OSC9:
        return osc9(title, body)
    if code is EscapeCode.OSC777:
        return osc777(title, body)
    if code is EscapeCode.OSC99:
        return osc99(title, body, ident=ident, urgency=urgency)
    return ""


def notice_ident(notice: AlertNotice) -> str:
    """An OSC 99 id for one notice: the same alert's next state is another notification, not an update."""
    key = f"{notice.context}|{notice.rule}|{notice.subject}|{notice.state}|{notice.at.isoformat()}"
    return "wds-" + hashlib.sha256(key.encode()).hexdigest()[:12]


def notice_bytes(notice: AlertNotice, setting: str, env: Mapping[str, str], *, bell: bool = False) -> bytes:
    """What to write to the terminal for `notice`: its notification (wrapped inside tmux), then the bell if asked."""
    code = choose(setting, env)
    sequence = notification(
        code, notice.title, notice.body, ident=notice_ident(notice), urgency=URGENCY.get(notice.severity, 1)
    )
    if sequence and env.get("TMUX"):
        sequence = tmux_passthrough(sequence)
    return (sequence + (BEL if bell else "")).encode("utf-8")
