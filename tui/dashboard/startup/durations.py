"""Durations as an operator writes them in the config file or the environment: `30m`, `1h`, `2h30m`, `90s`.

A bare number is seconds, as every other setting in seconds (`timeout`, `refresh`).
"""

from __future__ import annotations

import re
from datetime import timedelta

_UNITS = {"h": 3600, "m": 60, "min": 60, "s": 1}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(h|min|m|s)", re.IGNORECASE)
_WHOLE = re.compile(r"(?:\s*\d+(?:\.\d+)?\s*(?:h|min|m|s)\s*)+", re.IGNORECASE)
EXAMPLES = "30m, 1h, 2h30m or a number of seconds"


def parse_duration(value: object) -> timedelta:
    """`value` as a duration; ValueError saying how to write one when it is not."""
    if isinstance(value, timedelta):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return timedelta(seconds=value)
    text = str(value).strip()
    try:
        return timedelta(seconds=float(text))
    except ValueError:
        pass
    if not text or not _WHOLE.fullmatch(text):
        raise ValueError(f"{text!r} is not a duration: write it as {EXAMPLES}")
    seconds = sum(float(number) * _UNITS[unit.lower()] for number, unit in _PART.findall(text))
    return timedelta(seconds=seconds)


def duration_words(value: timedelta) -> str:
    """`1 h`, `30 min`, `2 h 30 min`, `45 s`: a duration as `describe` and the messages say it."""
    seconds = round(value.total_seconds())
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = [f"{hours} h" if hours else "", f"{minutes} min" if minutes else "", f"{seconds} s" if seconds else ""]
    return " ".join(part for part in parts if part) or "0 s"
