"""How ids and times read on screen, the same in every pane and screen."""

from __future__ import annotations

from datetime import datetime

SHORT_ID = 8
NO_VALUE = "—"


def short_id(value: str) -> str:
    """The first characters of an id (a UUID's first block): enough to tell jobs apart on screen."""
    return value[:SHORT_ID]


def local_time(moment: datetime | None, fmt: str = "%Y-%m-%d %H:%M:%S") -> str:
    """A timestamp in the viewer's local time zone, or "—" when unknown."""
    return moment.astimezone().strftime(fmt) if moment is not None else NO_VALUE


def clock_time(at: datetime | None, now: datetime) -> str:
    """Local clock time; with the date when it is not today."""
    if at is None:
        return NO_VALUE
    local = at.astimezone()
    return f"{local:%H:%M:%S}" if local.date() == now.astimezone().date() else f"{local:%m-%d %H:%M}"


def clip(text: str, width: int) -> str:
    """`text` cut to `width` characters, the cut marked with "…"."""
    return text if len(text) <= width else text[: width - 1] + "…"


def middle_clip(text: str, width: int) -> str:
    """`text` cut to `width` characters in the middle, so both ends stay ("example.com/…/page").

    For values whose ends carry the meaning (URLs, paths, ids); `clip` keeps the start.
    """
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    head = width // 2
    tail = width - 1 - head
    return text[:head] + "…" + (text[-tail:] if tail else "")


def bare_url(url: str) -> str:
    """A URL without its http(s) scheme, which says little and costs a narrow pane eight columns."""
    return url.removeprefix("https://").removeprefix("http://")
