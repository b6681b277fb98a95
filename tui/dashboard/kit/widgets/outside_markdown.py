"""Markdown someone else wrote (a scraped page, the support agent's answer, the docs), shown as Markdown only.

Textual's `Markdown` never reads its text as markup, but it passes on every
character: a page's `ESC ] 52` would reach the terminal, and so would an
entity the parser decodes (`&#x202E;` is a right-to-left override). So the
parser here runs one more step after its own: every text, code span, code
block, link target and image description of the parsed document goes
through `tui.dashboard.kit.outside_text.visible` (newlines kept in code blocks), and the
blocks are built from that.

A link is only a link: clicking one posts `Markdown.LinkClicked`, and with
`open_links=False` (the default here) nothing opens unless the screen says
so (the docs search opens http(s) addresses only).
"""

from __future__ import annotations

from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from textual.widgets import Markdown

from tui.dashboard.kit.outside_text import visible

__all__ = ["OutsideMarkdown", "outside_parser"]


def _make_visible(tokens: list[Token]) -> None:
    for token in tokens:
        token.content = visible(token.content, lines=token.block)  # a code block keeps its lines
        token.info = visible(token.info)  # a fence's language, which picks the highlighting
        for name, value in list(token.attrs.items()):
            if isinstance(value, str):
                token.attrs[name] = visible(value)
        if token.children:
            _make_visible(token.children)


def _visible_rule(state: StateCore) -> None:
    _make_visible(state.tokens)


def outside_parser() -> MarkdownIt:
    """Textual's own parser ("gfm-like"), with every text of the parsed document made visible."""
    parser = MarkdownIt("gfm-like")
    parser.core.ruler.push("outside_text", _visible_rule)
    return parser


class OutsideMarkdown(Markdown):
    """A `Markdown` widget for text from outside (see the module docstring); links open nothing by default."""

    def __init__(self, markdown: str | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("open_links", False)
        super().__init__(markdown, parser_factory=outside_parser, **kwargs)
