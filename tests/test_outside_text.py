"""The rule for text from outside (`tui.dashboard.kit.outside_text`): shown as text, every control visibly replaced."""

from __future__ import annotations

import pytest
from rich.text import Span, Text
from textual.content import Content

from tui.dashboard.kit.outside_text import plain, safe_cell, shown, visible
from tui.dashboard.kit.widgets.hyperlink import link
from tui.dashboard.kit.widgets.outside_markdown import outside_parser

# What a terminal obeys: C0 controls, DEL, C1 controls. Bidi overrides and isolates reorder
# what is shown; lone surrogates cannot even be written out.
OBEYED = {*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)}
REORDERING = {*range(0x202A, 0x202F), *range(0x2066, 0x206A)}
SURROGATES = range(0xD800, 0xE000)

HOSTILE = {
    "OSC 52 clipboard write": "\x1b]52;c;aGVsbG8=\x07",
    "OSC 0 title": "\x1b]0;pwned\x07",
    "clear screen": "\x1b[2J",
    "C1 CSI": "\u009b2J",
    "C1 OSC": "\u009d0;pwned\u009c",
    "right-to-left override": "\u202egnp.exe",
    "lone surrogate": "\ud800",
}


@pytest.mark.parametrize("lines", [False, True])
def test_no_character_a_terminal_obeys_survives(lines: bool) -> None:
    everything = "".join(chr(code) for code in (*range(0x3000), *SURROGATES, 0xFEFF, 0xFFFD))
    shown_text = visible(everything, lines=lines)
    kept = {ord("\n"), ord("\t")} if lines else set()
    left = {ord(char) for char in shown_text} & (OBEYED | REORDERING | set(SURROGATES))
    assert left == kept
    shown_text.encode("utf-8")  # no lone surrogate: the terminal's encoder would raise


@pytest.mark.parametrize("payload", HOSTILE.values(), ids=HOSTILE.keys())
def test_each_hostile_sequence_is_shown_by_stand_ins(payload: str) -> None:
    shown_text = visible(f"before{payload}after")
    assert shown_text.startswith("before") and shown_text.endswith("after")
    assert not any(ord(char) in OBEYED | REORDERING for char in shown_text)
    assert len(shown_text) == len(payload) + len("beforeafter")  # one stand-in per character: nothing hidden


def test_the_stand_ins_say_what_was_there() -> None:
    assert visible("a\x1b[2Jb") == "a␛[2Jb"
    assert visible("\x00\x07\x08\x7f") == "␀␇␈␡"
    assert visible("p\u009bq\u202er") == "p�q�r"  # no pictures exist for C1 and bidi controls
    assert visible("one\ntwo\r\tthree\u2028") == "one␤two␍ three␤"
    assert visible("one\r\ntwo\tthree\rfour\u2028five", lines=True) == "one\ntwo\tthree␍four\nfive"


def test_text_without_controls_is_left_as_it_is() -> None:
    title = "Ünïcode · 日本語 · עברית\u200f · [bold]not markup[/]"  # a right-to-left mark stays
    assert visible(title) is title
    assert visible(title, lines=True) is title


def test_plain_never_reads_markup() -> None:
    for value in ("https://lumen-labs.io/a[/b]", "[@click=app.quit]quit[/]", "crawl.page[/oops]", "[bold]x"):
        text = plain(value)
        assert text.plain == value and not text.spans
        content = shown(value)
        assert isinstance(content, Content) and content.plain == value and not content.spans


def test_shown_keeps_the_styles_of_our_text_around_outside_words() -> None:
    ours = Text("✓ done · ", style="green")
    ours.append("a\x1b]0;x\x1b\\b", style="bold")  # (Rich itself drops a BEL, not an ESC)
    ours.append(" · end")
    safe = shown(ours)
    assert isinstance(safe, Text)
    assert safe.plain == "✓ done · a␛]0;x␛\\b · end"
    assert safe.spans == ours.spans and safe.style == "green"
    assert ours.plain.count("\x1b") == 2  # the original is left alone

    content = Content.assemble(("title\x9b", "bold"), " ", ("url", "underline"))
    safe_content = shown(content)
    assert isinstance(safe_content, Content)
    assert safe_content.plain == "title� url" and list(safe_content.spans) == list(content.spans)


def test_a_table_cell_is_always_text() -> None:
    cell = safe_cell("a[/b]\x1b")
    assert isinstance(cell, Text) and cell.plain == "a[/b]␛"
    styled = Text("✗ failed", style="red")
    assert safe_cell(styled) is styled  # nothing to replace: the same object, no copy per poll
    assert safe_cell(Text("✗ \x9b", style="red")).style == "red"


def test_a_link_never_carries_a_control_into_osc_8() -> None:
    hostile = link("docs", "https://a.example/\x1b]52;c;aGk=\x07", enabled=True)
    assert not hostile.spans  # no link at all: it is shown as text
    spaced = link("a [b]", "https://a.example/a b/ü?q=[1]", enabled=True)
    assert spaced.plain == "a [b]"
    [span] = spaced.spans
    assert span.style.link == "https://a.example/a%20b/%C3%BC?q=[1]"
    assert link("x\x1b", None, enabled=True).plain == "x␛"


def test_markdown_from_outside_is_parsed_to_visible_text() -> None:
    source = (
        "# Title \x1b]0;x\x07\n\npara &#x202E;rev [@click=app.quit]q[/] \u009b2J [l](http://a/)\n\n"
        "```py\nprint('\x1b[2J')\n\tindented\n```\n"
    )
    tokens = outside_parser().parse(source)
    texts = [child.content for token in tokens for child in (token.children or [])]
    fence = next(token for token in tokens if token.type == "fence")
    assert "Title ␛]0;x␇" in texts
    assert any(text.startswith("para �rev [@click=app.quit]q[/] �2J") for text in texts)
    assert fence.content == "print('␛[2J')\n\tindented\n"  # a code block keeps its lines and indentation


def test_a_text_with_nothing_to_replace_is_handed_back_as_it_is() -> None:
    text = Text("abc", spans=[Span(0, 1, "bold")])
    assert shown(text) is text  # no copy for each redraw of a pane
    content = Content("abc")
    assert shown(content) is content
