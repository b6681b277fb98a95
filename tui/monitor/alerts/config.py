"""The `[alerts]` table of a context in the config file, read into rules; and the rules in words.

    [contexts.prod.alerts]
    enabled = true                  # false: no alert in this context

    [contexts.prod.alerts.job_failed]
    count = 5
    window_minutes = 15

    [[contexts.prod.alerts.crawl_stalled]]   # a kind may be listed more than once
    minutes = 20

Every kind runs with its defaults (`DEFAULT_RULES`) unless its table says
otherwise; `enabled = false` in a kind's table turns that kind off. A bad entry
(an unknown kind, a field that is not the kind's, a value out of its limits)
gives one line in the warnings and is skipped: the kind then keeps its default
rule. Nothing here raises on what a person wrote.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from tui.monitor.alerts.rules import RULE_KINDS, Rule

DEFAULT_RULES: tuple[Rule, ...] = tuple(kind() for kind in RULE_KINDS.values())
"""One rule of every kind with its default limits, all on: what a context without `[alerts]` runs."""


def parse_alert_rules(table: object) -> tuple[list[Rule], list[str]]:
    """The rules an `[alerts]` table asks for (disabled ones included, for `describe_rules`), and one warning a bad entry."""
    if not isinstance(table, Mapping):
        return list(DEFAULT_RULES), [f"[alerts] must be a table, not {_shown(table)}; the default rules stay"]
    warnings: list[str] = []
    for key in table:
        if key != "enabled" and key not in RULE_KINDS:
            warnings.append(f"[alerts] has no rule kind {key!r} (the kinds: {', '.join(RULE_KINDS)}); skipped")
    rules: list[Rule] = []
    names: set[str] = set()
    for kind, model in RULE_KINDS.items():
        chosen = [rule for rule in _read_kind(kind, model, table.get(kind), warnings) if _unique(rule, names, warnings)]
        rules.extend(chosen or [model()])
        names.update(rule.name for rule in chosen or [model()])
    everything_on = table.get("enabled", True)
    if not isinstance(everything_on, bool):
        warnings.append(f"[alerts] enabled must be true or false, not {_shown(everything_on)}; skipped")
    elif not everything_on:
        rules = [rule.model_copy(update={"enabled": False}) for rule in rules]
    return rules, warnings


def describe_rules(rules: Iterable[Rule]) -> list[str]:
    """One line a rule: its name, on or off, its limits and how often it repeats, then what its kind means."""
    lines = []
    for rule in rules:
        name = rule.name if rule.name == rule.kind else f"{rule.name} ({rule.kind})"
        state = "on " if rule.enabled else "off"
        lines.append(
            f"{name}: {state} {rule.settings()}; repeats every {rule.repeat_minutes:g} min. {rule.description[0].upper()}{rule.description[1:]}."
        )
    return lines


def _read_kind(kind: str, model: type[Rule], entries: object, warnings: list[str]) -> list[Rule]:
    """The valid rules of one kind's table (or array of tables); [] when it is absent or all bad."""
    if entries is None:
        return []
    if isinstance(entries, Mapping):
        entries = [entries]
    if not isinstance(entries, list) or not all(isinstance(entry, Mapping) for entry in entries):
        warnings.append(f"[alerts.{kind}] must be a table or tables, not {_shown(entries)}; the default rule stays")
        return []
    rules = []
    for number, entry in enumerate(entries, start=1):
        named = dict(entry) if "name" in entry or number == 1 else {**entry, "name": f"{kind}.{number}"}
        try:
            rules.append(model.model_validate(named))
        except ValidationError as error:
            warnings.append(f"[alerts.{kind}] {_first_error(error)}; skipped")
    if not rules:
        warnings[-1] += ", the default rule stays"
    return rules


def _unique(rule: Rule, names: set[str], warnings: list[str]) -> bool:
    if rule.name != rule.kind and rule.name in RULE_KINDS:  # the name another kind's default rule goes by
        warnings.append(f"[alerts.{rule.kind}] name {rule.name!r} is a rule kind's; skipped")
        return False
    if rule.name in names:
        warnings.append(f"[alerts.{rule.kind}] name {rule.name!r} is taken by another rule; skipped")
        return False
    names.add(rule.name)
    return True


def _first_error(error: ValidationError) -> str:
    first, *others = error.errors()
    where = ".".join(str(part) for part in first["loc"]) or "the table"
    message = first["msg"].removeprefix("Value error, ")
    message = message[0].lower() + message[1:]
    if first["type"] == "extra_forbidden":
        message = "is not a setting of this kind"
    whole_table = not first["loc"] or first["type"] in ("extra_forbidden", "missing")
    got = "" if whole_table else f" (got {_shown(first['input'])})"
    more = f" (and {len(others)} more)" if others else ""
    return f"{where}: {message}{got}{more}"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
