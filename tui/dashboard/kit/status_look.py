"""How a job's state reads on screen: a symbol and a colour, the same in every pane and screen.

The symbol carries the meaning on its own (16 colours, `NO_COLOR`, a
colour-blind reader); the colour only makes it faster to spot. Colours are
the 16 ANSI names, so a 16-colour terminal shows them as meant.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from tui.dashboard.kit.outside_text import visible


@dataclass(frozen=True)
class Look:
    """A state's symbol and Rich style."""

    symbol: str
    style: str


SUCCESS = Look("✓", "green")
FAILURE = Look("✗", "bold red")
STOPPED = Look("⊘", "yellow")
RUNNING = Look("◌", "cyan")
UNKNOWN = Look("?", "")

LOOKS: dict[str, Look] = {
    "completed": SUCCESS,
    "scraped": SUCCESS,
    "success": SUCCESS,
    "failed": FAILURE,
    "error": FAILURE,
    "cancelled": STOPPED,
    "scraping": RUNNING,
    "processing": RUNNING,
    "pending": RUNNING,
    "running": RUNNING,
}
"""Known states; any other string reads as UNKNOWN (the service may add states)."""


def look_of(state: str | None) -> Look:
    """The look of a job state (case-insensitive); UNKNOWN for None or a state not known here."""
    return LOOKS.get((state or "").lower(), UNKNOWN)


def is_failure(state: str | None, http_status: int | None = None) -> bool:
    """Whether a job in `state` (with a page answering `http_status`) failed."""
    return look_of(state) is FAILURE or (http_status is not None and http_status >= 400)


def state_text(state: str | None, http_status: int | None = None) -> Text:
    """`✓ completed`, `✗ failed`, `◌ scraping`; a page's error status is shown instead, as `✗ HTTP 404`.

    A job can finish its work and still bring back an error page: that is a
    failure for the reader, so it is shown as one.
    """
    if http_status is not None and http_status >= 400:
        return Text(f"{FAILURE.symbol} HTTP {http_status}", style=FAILURE.style)
    look = look_of(state)
    # A state not known here is the service's word.
    return Text(f"{look.symbol} {visible(state or 'unknown')}", style=look.style)
