"""The one-line form of a fault rule, for `--fault` and `$WDS_EMULATOR_FAULTS`.

    [METHOD] PATH [key=value | flag ...]

e.g. `POST /v2/crawl status=429 retry_after=2 p=0.5 team=acme times=3`,
`GET /v2/team/* latency=200-800`, `* /v2/scrape reset`, `/v2/map cut=50%`,
`GET /v2/crawl/* slow=64B/s`. METHOD is optional (default `*`, any method);
PATH is a glob (`*` matches any characters, `/` included) or `*`. The keys are
the JSON fields of `POST /_emulator/faults` (`fault_rules.FIELDS`); `reset` and
`cut` may stand alone (`cut` alone keeps half the body). Each spec is turned
into those fields and checked by `fault_rules.rule_from_fields`, as a JSON body is.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

from tui.emulator.http.fault_rules import FIELDS, METHODS, FaultRule, FaultRuleError, rule_from_fields

FAULTS_VARIABLE = "WDS_EMULATOR_FAULTS"
"""Fault rules for an emulator started without a command line of one's own (the embedded one):
one-line specs separated by `;` or newlines."""

_FLAGS = ("reset", "cut")


def fields_of_spec(spec: str) -> dict[str, Any]:
    """The fields a one-line spec gives (values as written); `FaultRuleError` when it cannot be read."""
    words = spec.split()
    if not words:
        raise FaultRuleError(
            "the rule is empty: write [METHOD] PATH and at least one effect, e.g. GET /v2/* status=503"
        )
    fields: dict[str, Any] = {}
    if words[0].upper() in METHODS or (words[0] == "*" and len(words) > 1 and words[1].startswith(("/", "*"))):
        fields["method"] = words.pop(0)
    if not words or "=" in words[0] or words[0] in _FLAGS:
        raise FaultRuleError("the path is missing: write [METHOD] PATH, e.g. /v2/crawl or /v2/crawl/* or *")
    fields["path"] = words.pop(0)
    for word in words:
        key, equals, value = word.partition("=")
        if not equals:
            if word not in _FLAGS:
                raise FaultRuleError(f"{word!r} is not key=value: the keys are {', '.join(FIELDS[2:])}")
            fields[word] = True
            continue
        if key in ("method", "path"):
            raise FaultRuleError(f"{key} is written first, not as {key}=: [METHOD] PATH key=value ...")
        if key not in FIELDS:
            raise FaultRuleError(f"unknown key {key!r}: the keys are {', '.join(FIELDS[2:])}")
        if key in fields:
            raise FaultRuleError(f"{key} is given twice")
        fields[key] = {"true": True, "false": False}.get(value.lower(), value) if key == "reset" else value
    return fields


def rule_from_spec(spec: str, team_names: Collection[str] | None = None) -> FaultRule:
    """The rule a one-line spec describes (checked like the JSON body of the admin route)."""
    return rule_from_fields(fields_of_spec(spec), team_names)


def specs_of_variable(value: str) -> list[str]:
    """The specs in `$WDS_EMULATOR_FAULTS`: separated by `;` or newlines, blank ones skipped."""
    return [spec.strip() for spec in re.split(r"[;\n]", value) if spec.strip()]


def spec_of_rule(rule: FaultRule) -> str:
    """A rule in its one-line form (for the banner): what `rule_from_spec` reads back as the same rule."""
    words = [rule.method, rule.path]
    if rule.status is not None:
        words.append(f"status={rule.status}")
    if rule.retry_after is not None:
        words.append(f"retry_after={rule.retry_after}")
    if rule.latency is not None:
        low, high = rule.latency
        words.append(f"latency={low:g}" if low == high else f"latency={low:g}-{high:g}")
    if rule.reset:
        words.append("reset")
    if rule.cut is not None:
        words.append(f"cut={rule.cut}")
    if rule.slow is not None:
        words.append(f"slow={rule.slow}B/s")
    if rule.p < 1:
        words.append(f"p={rule.p:g}")
    if rule.team is not None:
        words.append(f"team={rule.team}")
    if rule.times is not None:
        words.append(f"times={rule.times}")
    return " ".join(words)


def fault_rules_of(given: Sequence[str], variable: str | None, team_names: Collection[str]) -> list[FaultRule]:
    """The rules of `--fault` specs and of `$WDS_EMULATOR_FAULTS`; `FaultRuleError` names the bad spec."""
    specs = [("--fault", spec) for spec in given]
    specs += [(FAULTS_VARIABLE, spec) for spec in specs_of_variable(variable or "")]
    rules = []
    for source, spec in specs:
        try:
            rules.append(rule_from_spec(spec, team_names))
        except FaultRuleError as exc:
            raise FaultRuleError(f"{source} {spec!r}: {exc}") from None
    return rules
