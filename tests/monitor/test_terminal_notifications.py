"""The exact bytes a terminal gets for a desktop notification: per terminal, inside tmux, and with hostile text."""

from __future__ import annotations

import pytest

from tests.monitor.notices import notice
from tui.monitor.delivery.terminal import (
    BODY_LIMIT,
    TITLE_LIMIT,
    EscapeCode,
    choose,
    notice_bytes,
    notice_ident,
    osc9,
    osc99,
    osc777,
    tmux_passthrough,
)

IDENT = notice_ident(notice())


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        (
            {"TERM_PROGRAM": "iTerm.app", "TERM": "xterm-256color"},
            b"\x1b]9;3 scrapes failed: example.com: 503 within 10 min\x07",
        ),
        (
            {"TERM_PROGRAM": "WezTerm", "WEZTERM_PANE": "0"},
            b"\x1b]777;notify;3 scrapes failed;example.com: 503 within 10 min\x07",
        ),
        (
            {"TERM_PROGRAM": "ghostty", "TERM": "xterm-ghostty"},
            b"\x1b]777;notify;3 scrapes failed;example.com: 503 within 10 min\x07",
        ),
        ({"TERM": "foot"}, b"\x1b]777;notify;3 scrapes failed;example.com: 503 within 10 min\x07"),
        (
            {"TERM": "xterm-256color", "VTE_VERSION": "7600"},
            b"\x1b]777;notify;3 scrapes failed;example.com: 503 within 10 min\x07",
        ),
        (
            {"TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"},
            f"\x1b]99;i={IDENT}:u=1:d=0:p=title;3 scrapes failed\x1b\\"
            f"\x1b]99;i={IDENT}:u=1:d=1:p=body;example.com: 503 within 10 min\x1b\\".encode(),
        ),
        ({"TERM": "xterm-256color"}, b""),  # a terminal not known to show them gets nothing
        ({"TERM": "linux"}, b""),
    ],
    ids=["iterm2", "wezterm", "ghostty", "foot", "vte", "kitty", "xterm", "console"],
)
def test_each_terminal_gets_its_own_escape_code(env: dict[str, str], expected: bytes) -> None:
    assert notice_bytes(notice(), "auto", env) == expected


def test_inside_tmux_the_code_is_wrapped_for_passthrough_with_every_esc_doubled() -> None:
    env = {"TERM_PROGRAM": "tmux", "TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0", "WEZTERM_PANE": "3"}
    assert notice_bytes(notice(), "auto", env) == (
        b"\x1bPtmux;\x1b\x1b]777;notify;3 scrapes failed;example.com: 503 within 10 min\x07\x1b\\"
    )
    kitty = notice_bytes(notice(), "auto", {"TMUX": "x", "KITTY_WINDOW_ID": "2", "TERM": "screen"})
    assert (
        kitty
        == (
            f"\x1bPtmux;\x1b\x1b]99;i={IDENT}:u=1:d=0:p=title;3 scrapes failed\x1b\x1b\\"
            f"\x1b\x1b]99;i={IDENT}:u=1:d=1:p=body;example.com: 503 within 10 min\x1b\x1b\\\x1b\\"
        ).encode()
    )
    assert tmux_passthrough("\x1b]9;hi\x07") == "\x1bPtmux;\x1b\x1b]9;hi\x07\x1b\\"


def test_the_config_value_overrides_what_the_environment_says() -> None:
    iterm = {"TERM_PROGRAM": "iTerm.app"}
    assert choose("osc777", iterm) is EscapeCode.OSC777
    assert choose("OSC99", iterm) is EscapeCode.OSC99
    assert choose("off", iterm) is EscapeCode.OFF
    assert notice_bytes(notice(), "off", iterm) == b""
    assert notice_bytes(notice(), "osc9", {}) == b"\x1b]9;3 scrapes failed: example.com: 503 within 10 min\x07"
    with pytest.raises(ValueError):
        choose("growl", iterm)


def test_the_bell_follows_the_notification_and_is_never_wrapped() -> None:
    assert notice_bytes(notice(), "off", {"TMUX": "x"}, bell=True) == b"\x07"
    assert notice_bytes(notice(), "osc9", {"TMUX": "x"}, bell=True).endswith(b"\x1b\\\x07")


HOSTILE = "a\x1b]52;c;ZXZpbA==\x07b\x9d0;title\x9c\x1b\\c\x00d\x7fe\u202egnp.exe\nnext\tline\r"


def controls(text: str) -> list[str]:
    return [ch for ch in text if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 or ch in "\u202e\u2028"]


def test_control_characters_never_reach_the_terminal() -> None:
    for sequence in (osc9(HOSTILE, HOSTILE), osc777(HOSTILE, HOSTILE)):
        assert controls(sequence.removeprefix("\x1b]").removesuffix("\x07")) == []
    title, body = osc99(HOSTILE, HOSTILE, ident="x").removeprefix("\x1b]").removesuffix("\x1b\\").split("\x1b\\\x1b]")
    assert controls(title) == controls(body) == []
    assert osc777(HOSTILE, "x") == "\x1b]777;notify;a]52,c,ZXZpbA==b0,title\\cdegnp.exe next line;x\x07"
    assert osc9("t;1", "b;2") == "\x1b]9;t,1: b,2\x07"  # OSC 9;4; is a progress bar in ConEmu and Windows Terminal
    # OSC 99's payload is its last field: a semicolon in it is text
    assert (
        osc99("a;b", "c;d", ident="n/1")
        == "\x1b]99;i=n1:u=1:d=0:p=title;a;b\x1b\\\x1b]99;i=n1:u=1:d=1:p=body;c;d\x1b\\"
    )


def test_long_texts_are_cut_with_an_ellipsis() -> None:
    sent = osc777("t" * 500, "b" * 5000)
    title, body = sent.removeprefix("\x1b]777;notify;").removesuffix("\x07").split(";")
    assert (len(title), len(body)) == (TITLE_LIMIT, BODY_LIMIT)
    assert title.endswith("t…") and body.endswith("b…")
    # kitty takes at most 2048 bytes of payload, before any encoding
    body99 = osc99("t", "€" * 5000, ident="1").split("p=body;")[1]
    assert len(body99.encode()) <= 2048
