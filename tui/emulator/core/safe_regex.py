"""Regular expressions written by callers, compiled with a backtracking-safe engine.

Python's `re` backtracks: a pattern like `^(([a-z/-])+)+Z$` takes exponential
time on a path that almost matches, and it runs on the event loop, so one
crawl's `excludePaths` froze the whole emulator (issue 9). RE2 (`google-re2`)
matches in time linear in the text; what it cannot do in linear time
(backreferences, lookarounds) it refuses to compile, and the caller then gets
a 400 naming the pattern instead of a hang.

Our own patterns that read callers' free text (a crawl prompt) go through RE2
as well (`linear`): `re` searched a 10,000-digit prompt for a number in 13 s,
holding the GIL, so not even a worker thread would have helped.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import re2

# Not stated by the contract: far beyond any real path filter, small enough
# that compiling and matching a request's patterns stays in milliseconds.
PATTERN_MAX_CHARS = 1000
PATTERNS_MAX = 100


class UnsafePattern(ValueError):
    """A caller's pattern RE2 does not accept (or one past the size limits); says why."""


_OPTIONS = re2.Options()
# RE2 would also print every refused pattern to stderr through absl.
_OPTIONS.log_errors = False


def compile_user_pattern(pattern: str) -> Any:
    """`pattern` compiled by RE2, with `search` as `re.Pattern` has (raises `UnsafePattern`)."""
    if len(pattern) > PATTERN_MAX_CHARS:
        raise UnsafePattern(f"longer than {PATTERN_MAX_CHARS} characters")
    try:
        return re2.compile(pattern, _OPTIONS)
    except re2.error as exc:
        reason = exc.args[0] if exc.args else "not accepted"
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise UnsafePattern(f"{reason} (patterns use RE2 syntax: no backreferences or lookarounds)") from None
    except (TypeError, ValueError, UnicodeError) as exc:  # e.g. a lone surrogate cannot become UTF-8
        raise UnsafePattern(str(exc) or type(exc).__name__) from None


@lru_cache(maxsize=256)
def linear(pattern: str) -> Any:
    """One of our own patterns compiled once by RE2, to search callers' text in linear time."""
    return re2.compile(pattern, _OPTIONS)
