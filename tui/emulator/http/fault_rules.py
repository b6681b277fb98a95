"""Fault rules: which requests the emulator answers badly on purpose, and how.

A rule matches a request by method, path pattern and (optionally) the caller's team, fires with
a probability, and may be limited to its next `times` firings ("fail twice, then succeed"). When
it fires it carries one or more effects: a `status` with the service's error body, added
`latency`, a connection `reset`, a body `cut` mid-way, or a body sent `slow`ly. Rules are made
from one set of fields whoever gives them: the admin route's JSON body and the `--fault` one-line
spec (`fault_spec`) both end in `rule_from_fields`, so both refuse the same mistakes with the
same words. Requests are matched in the order rules were added; the first that fires applies.

Randomness comes from a `random.Random` seeded by the emulator's seed: the same requests meet
the same faults on every run.
"""

from __future__ import annotations

import fnmatch
import math
import random
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from tui.emulator.admin.guard import ADMIN_PREFIX, is_admin_path

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
STATUSES = (429, 500, 502, 503, 504)
# Statuses whose answer may carry a `Retry-After` (429 always does).
RETRY_AFTER_STATUSES = (429, 503)
DEFAULT_RETRY_AFTER = 1
MAX_LATENCY_MS = 120_000
MAX_RETRY_AFTER = 3_600
MAX_TIMES = 1_000_000
MAX_CUT_BYTES = 1_000_000_000
MAX_SLOW_RATE = 10_000_000
PATTERN_MAX_LENGTH = 300
FIELDS = ("method", "path", "team", "p", "times", "status", "retry_after", "latency", "reset", "cut", "slow")
EFFECTS = ("status", "latency", "reset", "cut", "slow")

_RANGE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:ms)?\s*(?:-\s*(\d+(?:\.\d+)?)\s*(?:ms)?)?\s*$")
# Digit counts are bounded so that no written number is too long for int() (Python refuses past 4300 digits).
_CUT = re.compile(r"^\s*(?:(\d{1,3}(?:\.\d{1,6})?)\s*%|(\d{1,12})\s*(?:B)?)\s*$", re.IGNORECASE)
_RATE = re.compile(r"^\s*(\d{1,12})\s*(?:B?/s|B)?\s*$", re.IGNORECASE)
SHOWN_MAX_LENGTH = 40


class FaultRuleError(ValueError):
    """A rule's field is wrong; the message names the field, what was given and what is accepted."""


@dataclass
class FaultRule:
    """One fault rule: what it matches, what it does, and how often it has fired.

    `latency` is a (min, max) range in milliseconds (equal ends: a fixed delay); `cut` keeps
    `cut_bytes` of the body, or `cut_fraction` of it when that is set; `slow` is bytes per second.
    """

    method: str = "*"
    path: str = "*"
    team: str | None = None
    p: float = 1.0
    times: int | None = None
    status: int | None = None
    retry_after: int | None = None
    latency: tuple[float, float] | None = None
    reset: bool = False
    cut_bytes: int | None = None
    cut_fraction: float | None = None
    slow: int | None = None
    id: int = 0
    fired: int = 0

    @property
    def spent(self) -> bool:
        """Whether a rule limited to `times` firings has fired them all."""
        return self.times is not None and self.fired >= self.times

    @property
    def cut(self) -> str | int | None:
        """The cut as it is written: `"50%"` or a byte count."""
        if self.cut_fraction is not None:
            return f"{self.cut_fraction * 100:g}%"
        return self.cut_bytes

    def matches(self, method: str, path: str, team: str | None) -> bool:
        """Whether a request is this rule's (the admin prefix never is)."""
        if is_admin_path(path) or self.spent:
            return False
        if self.method != "*" and self.method != method.upper():
            return False
        if self.team is not None and self.team != team:
            return False
        return self.path == "*" or fnmatch.fnmatchcase(path, self.path)

    def as_json(self) -> dict[str, Any]:
        """The rule as the admin routes list it: the fields it was given, its id and firings."""
        shown: dict[str, Any] = {"id": self.id, "method": self.method, "path": self.path}
        optional = {
            "team": self.team,
            "times": self.times,
            "status": self.status,
            "retry_after": self.retry_after,
            "latency": list(self.latency) if self.latency is not None else None,
            "cut": self.cut,
            "slow": self.slow,
        }
        shown["p"] = self.p
        shown.update({name: value for name, value in optional.items() if value is not None})
        if self.reset:
            shown["reset"] = True
        shown["fired"] = self.fired
        shown["spent"] = self.spent
        return shown


def rule_from_fields(fields: Mapping[str, Any], team_names: Collection[str] | None = None) -> FaultRule:
    """A rule from its fields (JSON values, or the strings of a one-line spec).

    `team_names`: the emulator's teams; a rule's `team` must be one of them (None: not checked).
    Raises `FaultRuleError` naming the first field that is wrong.
    """
    unknown = [name for name in fields if name not in FIELDS]
    if unknown:
        raise FaultRuleError(f"unknown field {unknown[0]!r}: a rule takes {', '.join(FIELDS)}")
    rule = FaultRule(
        method=_method(fields.get("method", "*")),
        path=_pattern(fields.get("path", "*")),
        team=_team(fields.get("team"), team_names),
        p=_probability(fields.get("p", 1)),
        times=_times(fields.get("times")),
        status=_status(fields.get("status")),
        latency=_latency(fields.get("latency")),
        reset=_flag("reset", fields.get("reset", False)),
        slow=_rate(fields.get("slow")),
    )
    rule.cut_bytes, rule.cut_fraction = _cut(fields.get("cut"))
    rule.retry_after = _retry_after(fields.get("retry_after"), rule.status)
    _check_effects(rule)
    return rule


def _check_effects(rule: FaultRule) -> None:
    body_effects = rule.status is not None or rule.cut is not None or rule.slow is not None
    if not (body_effects or rule.latency is not None or rule.reset):
        raise FaultRuleError(
            "no effect given: a rule needs at least one of status (429, 500, 502, 503, 504), "
            "latency (ms or min-max ms), reset, cut (bytes or a percentage) or slow (bytes per second)"
        )
    if rule.reset and body_effects:
        raise FaultRuleError("reset ends the connection before any answer: it goes with latency only")


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise FaultRuleError(f"{name} must be a string, not {_shown(value)}")
    return value.strip()


def _method(value: Any) -> str:
    method = _text("method", value).upper()
    if method != "*" and method not in METHODS:
        raise FaultRuleError(f"method {_shown(value)} is not a method: use * or one of {', '.join(METHODS)}")
    return method


def _pattern(value: Any) -> str:
    pattern = _text("path", value)
    if pattern != "*" and not pattern.startswith("/"):
        raise FaultRuleError(
            f"path {_shown(value)} must start with / (a glob such as /v2/crawl/*) or be * (every path)"
        )
    if len(pattern) > PATTERN_MAX_LENGTH or any(ch.isspace() or not ch.isprintable() for ch in pattern):
        raise FaultRuleError(
            f"path {_shown(value)} must be at most {PATTERN_MAX_LENGTH} printable characters without spaces"
        )
    if pattern.startswith(ADMIN_PREFIX):
        raise FaultRuleError(f"path {_shown(value)} is under {ADMIN_PREFIX}/: faults never touch the admin prefix")
    return pattern


def _team(value: Any, team_names: Collection[str] | None) -> str | None:
    if value is None:
        return None
    name = _text("team", value)
    if team_names is not None and name not in team_names:
        known = ", ".join(sorted(team_names)) or "none"
        raise FaultRuleError(f"team {name!r} is not a team of this emulator (its teams: {known})")
    return name


def _shown(value: Any) -> str:
    """`value` as a message quotes it: short (a huge int has no decimal form Python will write)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a {value.bit_length()}-bit number"
    shown = repr(value)
    return shown if len(shown) <= SHOWN_MAX_LENGTH else shown[: SHOWN_MAX_LENGTH - 3] + "..."


def _number(name: str, value: Any, accepted: str) -> float:
    """`value` as a finite float; inf, nan and numbers too large for a float are refused, the
    message saying what is `accepted`."""
    number: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
    elif isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            pass
    if number is None or not math.isfinite(number):
        raise FaultRuleError(f"{name} must be {accepted}, not {_shown(value)}")
    return number


def _whole(name: str, value: Any, low: int, high: int, meaning: str) -> int:
    accepted = f"a whole number from {low} to {high} ({meaning})"
    number = _number(name, value, accepted)
    if not low <= number <= high or not number.is_integer():
        raise FaultRuleError(f"{name} must be {accepted}, not {_shown(value)}")
    return int(number)


def _probability(value: Any) -> float:
    accepted = "above 0 and at most 1 (the chance a matching request meets the fault)"
    p = _number("p", value, accepted)
    if not 0 < p <= 1:
        raise FaultRuleError(f"p must be {accepted}, not {_shown(value)}")
    return p


def _times(value: Any) -> int | None:
    if value is None:
        return None
    return _whole("times", value, 1, MAX_TIMES, "the rule applies to that many matching requests, then is spent")


def _status(value: Any) -> int | None:
    if value is None:
        return None
    status = _number("status", value, f"one of {', '.join(map(str, STATUSES))}")
    if status not in STATUSES:
        raise FaultRuleError(
            f"status {_shown(value)} is not one a rule answers: use one of {', '.join(map(str, STATUSES))}"
        )
    return int(status)


def _retry_after(value: Any, status: int | None) -> int | None:
    if value is None:
        return DEFAULT_RETRY_AFTER if status == 429 else None
    if status not in RETRY_AFTER_STATUSES:
        raise FaultRuleError("retry_after goes with status 429 or 503 (the answers that say when to come back)")
    return _whole("retry_after", value, 0, MAX_RETRY_AFTER, "seconds, sent as Retry-After")


def _latency(value: Any) -> tuple[float, float] | None:
    if value is None:
        return None
    low: Any
    high: Any
    if isinstance(value, list) and len(value) == 2:
        low, high = value
    elif isinstance(value, str) and (found := _RANGE.match(value)):
        low, high = found.group(1), found.group(2) or found.group(1)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        low = high = value
    else:
        raise FaultRuleError(
            f"latency {_shown(value)} must be milliseconds: 200, or a range 200-800 ([200, 800] in JSON)"
        )
    accepted = f"milliseconds from 0 to {MAX_LATENCY_MS}"
    ends = (_number("latency", low, accepted), _number("latency", high, accepted))
    if not 0 <= ends[0] <= ends[1] <= MAX_LATENCY_MS:
        raise FaultRuleError(f"latency {_shown(value)} must be from 0 to {MAX_LATENCY_MS} ms, the smaller end first")
    return ends


def _flag(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise FaultRuleError(f"{name} must be true or false, not {_shown(value)}")


def _cut(value: Any) -> tuple[int | None, float | None]:
    if value is None:
        return None, None
    if value is True:
        return None, 0.5
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    found = _CUT.match(text) if isinstance(text, str) else None
    if found is None or (found.group(2) is not None and int(found.group(2)) > MAX_CUT_BYTES):
        raise FaultRuleError(
            f"cut {_shown(value)} must be the bytes of the body to send, from 0 to {MAX_CUT_BYTES} (100), "
            "or a share of it (50%)"
        )
    if found.group(1) is not None:
        fraction = float(found.group(1)) / 100
        if not 0 <= fraction < 1:
            raise FaultRuleError(f"cut {_shown(value)} must keep less than 100% of the body")
        return None, fraction
    return int(found.group(2)), None


def _rate(value: Any) -> int | None:
    if value is None:
        return None
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    found = _RATE.match(text) if isinstance(text, str) else None
    if found is None or not 1 <= int(found.group(1)) <= MAX_SLOW_RATE:
        raise FaultRuleError(f"slow {_shown(value)} must be bytes per second from 1 to {MAX_SLOW_RATE} (64, or 64B/s)")
    return int(found.group(1))


@dataclass
class FaultRules:
    """The emulator's fault rules, in the order they were added, with the seeded dice they roll."""

    rng: random.Random
    _rules: dict[int, FaultRule] = field(default_factory=dict)
    _next_id: int = 1

    @classmethod
    def seeded(cls, seed: int) -> FaultRules:
        return cls(random.Random(f"wds-emulator-faults:{seed}"))

    def add(self, rule: FaultRule) -> FaultRule:
        """Install `rule` with the next id (ids are never reused while the emulator runs)."""
        rule.id, rule.fired = self._next_id, 0
        self._next_id += 1
        self._rules[rule.id] = rule
        return rule

    def remove(self, rule_id: int) -> FaultRule | None:
        return self._rules.pop(rule_id, None)

    def clear(self) -> int:
        """Remove every rule; how many there were."""
        count = len(self._rules)
        self._rules.clear()
        return count

    def __iter__(self) -> Iterator[FaultRule]:
        return iter(list(self._rules.values()))

    def __len__(self) -> int:
        return len(self._rules)

    def firing(self, method: str, path: str, team: str | None) -> FaultRule | None:
        """The first rule that matches the request and wins its roll, counted as fired; else None."""
        for rule in list(self._rules.values()):
            if rule.matches(method, path, team) and (rule.p >= 1 or self.rng.random() < rule.p):
                rule.fired += 1
                return rule
        return None

    def latency_seconds(self, rule: FaultRule) -> float:
        """The delay `rule` adds this time, in seconds (drawn from its range)."""
        if rule.latency is None:
            return 0.0
        low, high = rule.latency
        return (low if low == high else self.rng.uniform(low, high)) / 1000
