"""Links a terminal can open (OSC 8 hyperlinks), or plain text where it cannot.

Textual writes a span styled with `link` as an OSC 8 hyperlink: the text
shows as usual and a terminal that knows OSC 8 lets you open it (usually
ctrl+click or cmd+click). Terminals that do not know it mostly ignore the
sequence, but a few print it as garbage: the Linux console, `dumb` and old
VT-style terminals. Those get plain text.

`WDS_HYPERLINKS=0` turns links off on any terminal (e.g. an old tmux that
mangles them), `WDS_HYPERLINKS=1` turns them on whatever `TERM` says. The
decision is made once, where screens are built (`tui.dashboard.shell.navigation`), and handed
to the widgets: nothing here reads the environment by itself.

Table cells (`tui.dashboard.kit.widgets.line_table`) link too: a list passes
`linked(cell, url)`, which carries the URL, made safe as `link` makes it, in
the cell's style; the table writes it only where the app decided links are
on (`links_on`), and draws the cell as text elsewhere. A cell cut to fit
("https://exa…/page") still links to the whole URL. Table links are not
underlined: a column of URLs would all be, and terminals that know OSC 8 mark
a link under the mouse themselves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import quote

from rich.style import Style as RichStyle
from rich.text import Text
from textual.content import Content
from textual.style import Style

from tui.dashboard.kit.outside_text import visible

HYPERLINKS_ENV = "WDS_HYPERLINKS"
# What a URL may hold as it is (RFC 3986's reserved and unreserved characters, and % of escapes).
_URL_SAFE = ":/?#[]@!$&'()*+,;=%~-._"
_OFF = frozenset({"0", "no", "off", "false"})
_ON = frozenset({"1", "yes", "on", "true"})
# TERM values of terminals that print OSC 8 instead of ignoring it.
_PLAIN_TERMS = frozenset({"dumb", "linux", "cons25", "ansi"})
_PLAIN_TERM_PREFIXES = ("vt", "cons")


def hyperlinks_supported(environ: Mapping[str, str]) -> bool:
    """Whether links should be written as OSC 8 hyperlinks on this terminal (see the module docstring)."""
    choice = environ.get(HYPERLINKS_ENV, "").strip().lower()
    if choice in _OFF:
        return False
    if choice in _ON:
        return True
    term = environ.get("TERM", "").strip().lower()
    if not term:  # no terminal description: only Windows Terminal is known to be fine without one
        return bool(environ.get("WT_SESSION"))
    return term not in _PLAIN_TERMS and not term.startswith(_PLAIN_TERM_PREFIXES)


def link_target(url: str | None) -> str | None:
    """What goes to the terminal for `url`: None for a URL holding a control character, else printable ASCII."""
    if url is None or visible(url) != url:  # an ESC would end the OSC 8 sequence and start one of its own
        return None
    return quote(url, safe=_URL_SAFE)


def web_address(url: str | None) -> str | None:
    """`url` when it is a full web address (http or https), else None: a query or a relative path links nowhere."""
    return url if url is not None and url.lower().startswith(("http://", "https://")) else None


def titled_link(title: str, url: str | None, *, enabled: bool) -> Content:
    """`title · url` for a screen's title line, the URL a link (`link`); `title` alone when there is no URL."""
    if not url:
        return Content(visible(title))
    return Content.assemble(visible(title), " · ", link(url, web_address(url), enabled=enabled))


def listed_links(items: Sequence[str], *, bullet: str, enabled: bool) -> Content:
    """One item a line after `bullet`, the full web addresses among them links (cited sources)."""
    lines = [Content.assemble(bullet, link(item, web_address(item), enabled=enabled)) for item in items]
    return Content("\n").join(lines)


def linked(cell: str | Text, url: str | None) -> str | Text:
    """A table cell that links to `url` where the app has links on (the cell unchanged when `url` cannot be one).

    Only a full web address (http or https) links: a search query or a relative
    path in the same column stays text. The cell is shown as before (a `str`
    as plain text, never markup); it may be cut to fit and still link to the
    whole URL.
    """
    target = link_target(web_address(url))
    if target is None:
        return cell
    text = Text(cell, end="") if isinstance(cell, str) else cell.copy()
    style = RichStyle.parse(text.style) if isinstance(text.style, str) else text.style
    text.style = style + RichStyle(link=target)
    return text


def links_on(app: object) -> bool:
    """Whether `app` decided to write links (`hyperlinks`, set from its navigator); an app that did not: no."""
    return getattr(app, "hyperlinks", False) is True


def link(text: str, url: str | None, *, enabled: bool) -> Content:
    """`text` as a hyperlink to `url` (underlined), or plain text when links are off or there is no URL.

    Both usually come from outside. The text is shown as text; the URL goes to the
    terminal inside an OSC 8 sequence, as it is, so a URL holding a control character
    (an ESC would end the sequence and start one of its own) is no link at all, and
    anything else not printable ASCII (spaces, non-ASCII letters) is percent-encoded.
    """
    target = link_target(url)
    if target is None or not enabled:
        return Content(visible(text))
    return Content.assemble((visible(text), Style(link=target, underline=True)))
