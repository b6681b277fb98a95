"""Syntax highlighting in the console's editor, where the installed tree-sitter allows it.

Highlighting needs Textual's `syntax` extra (tree-sitter and its grammars),
which Textual imports only when a language is first set on an editor: never
for the dashboard's first frame.
"""

from __future__ import annotations

import importlib.metadata

from textual.widgets import TextArea
from textual.widgets.text_area import LanguageDoesNotExist

from tui.contract.requests import Language

HIGHLIGHT_LANGUAGES: dict[Language, str] = {"node": "javascript", "python": "python", "bash": "bash"}
"""The tree-sitter grammar that highlights each execute language."""


def highlighting_available() -> bool:
    """True when tree-sitter is installed in a version Textual 8.2's TextArea can use.

    Highlighting needs Textual's `syntax` extra (tree-sitter and its grammars).
    tree-sitter 0.26 crashes the interpreter (a segfault on the first edit of a
    highlighted document, with Textual 8.2.8), which would take the typed code
    with it: plain text is the safe fallback there.
    """
    try:
        version = importlib.metadata.version("tree-sitter")
    except importlib.metadata.PackageNotFoundError:
        return False
    try:
        major, minor = (int(part) for part in version.split(".")[:2])
    except ValueError:
        return False
    return (major, minor) < (0, 26)


HIGHLIGHTING = highlighting_available()


def highlight(editor: TextArea, language: Language) -> None:
    """Highlight `editor` as `language`, or leave it plain text when that cannot be done safely."""
    if not HIGHLIGHTING:
        return  # without tree-sitter, setting a language only rebuilds the document
    try:
        editor.language = HIGHLIGHT_LANGUAGES[language]
    except LanguageDoesNotExist:
        editor.language = None  # tree-sitter without this grammar: plain text
