"""What a value must be to travel as JSON both ways: the check every request body passes.

A body that Python's JSON reader accepts can still hold values no response can
carry back: a lone surrogate (`"\\ud800"`) decodes to a `str` that cannot be
encoded as UTF-8, `Infinity` and `NaN` are no JSON, an integer past 2**53 is
rounded by half the JSON readers in use, and a value nested ten thousand deep
exhausts the recursion of the reader and the writer. The emulator once stored
such values and then failed (500) on every listing that showed them; the
request models refuse them up front instead (`tui.contract.requests.WireModel`),
so the client refuses them locally and the emulator answers 400.

Plain functions of plain values: this module imports only the limits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from tui.contract.limits import JSON_DEPTH_MAX, JSON_INT_MAX


def encodes_as_utf8(text: str) -> bool:
    """False when `text` holds a lone surrogate (which no UTF-8 encoder accepts)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True)
class JsonProblem:
    """Where in a body (`("metadata", "tags", 2)`) a value cannot travel as JSON, and why."""

    path: tuple[str | int, ...]
    message: str

    def __str__(self) -> str:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{_segment(p)}" for p in self.path).lstrip(".")
        return f"{where}: {self.message}" if where else self.message


def json_problem(value: Any) -> JsonProblem | None:
    """The first value in `value` that cannot be sent back as JSON, or None.

    Walks dicts and lists without recursion and stops at the first problem, so
    a value nested far past `JSON_DEPTH_MAX` costs no more than one that is not.
    Values of other types (a model the client built, a date) are left to their own validation.
    """
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        problem = _scalar_problem(item)
        if problem is not None:
            return JsonProblem(path, problem)
        if isinstance(item, dict | list):
            if len(path) >= JSON_DEPTH_MAX:
                return JsonProblem(path, f"nests deeper than {JSON_DEPTH_MAX} levels")
            if isinstance(item, dict):
                for key, child in item.items():
                    if isinstance(key, str) and not encodes_as_utf8(key):
                        return JsonProblem(path, f"{_SURROGATE} in a key")
                    stack.append((child, (*path, key)))
            else:
                stack.extend((child, (*path, i)) for i, child in enumerate(item))
    return None


def _segment(key: str) -> str:
    # A key may be a megabyte long; the message names it, not repeats it.
    return key if len(key) <= 40 else key[:40] + "..."


_SURROGATE = "holds a lone surrogate, which cannot be encoded as UTF-8"


def _scalar_problem(item: Any) -> str | None:
    if isinstance(item, str):
        return None if encodes_as_utf8(item) else _SURROGATE
    if isinstance(item, bool):
        return None
    if isinstance(item, int):
        return None if -JSON_INT_MAX <= item <= JSON_INT_MAX else f"must be between -{JSON_INT_MAX} and {JSON_INT_MAX}"
    if isinstance(item, float):
        return None if math.isfinite(item) else "must be a finite number"
    return None
