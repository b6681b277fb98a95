"""A context's `[alerts]` table read into rules: defaults on, overrides, one clear line per bad entry."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.monitor.clock import Clock
from tui.monitor.alerts.config import DEFAULT_RULES, describe_rules, parse_alert_rules
from tui.monitor.alerts.engine import AlertEngine
from tui.monitor.alerts.rules import RULE_KINDS, CrawlStalledRule, CreditsRule, JobFailedRule

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_alerts_example() -> dict:
    """The `[contexts.prod.alerts]` table of the README's "Alert rules" example."""
    section = README.read_text().split("**Alert rules.**", 1)[1]
    toml = section.split("```toml\n", 1)[1].split("```", 1)[0]
    return tomllib.loads(toml)["contexts"]["prod"]["alerts"]


def by_name(rules: list) -> dict:
    return {rule.name: rule for rule in rules}


def test_no_table_means_every_kind_once_with_its_defaults_all_on() -> None:
    rules, warnings = parse_alert_rules({})
    assert warnings == []
    assert rules == list(DEFAULT_RULES)
    assert [rule.kind for rule in rules] == list(RULE_KINDS)
    assert all(rule.enabled for rule in rules)


def test_the_readme_example_reads_without_a_warning() -> None:
    rules, warnings = parse_alert_rules(readme_alerts_example())
    assert warnings == []
    named = by_name(rules)
    assert named["job_failed"] == JobFailedRule(count=3, window_minutes=10, by="host", statuses=(429, 503))
    assert named["credits"] == CreditsRule(budget=50000, min_remaining_percent=10)
    assert not named["webhook_unverified"].enabled
    assert len(rules) == len(RULE_KINDS)


def test_a_kind_given_as_tables_makes_a_rule_each_named_apart() -> None:
    table = {"crawl_stalled": [{"minutes": 20}, {"minutes": 5, "repeat_minutes": 10}, {"name": "slow", "minutes": 60}]}
    rules, warnings = parse_alert_rules(table)
    assert warnings == []
    stalled = [rule for rule in rules if isinstance(rule, CrawlStalledRule)]
    assert [(rule.name, rule.minutes) for rule in stalled] == [
        ("crawl_stalled", 20),
        ("crawl_stalled.2", 5),
        ("slow", 60),
    ]


def test_enabled_false_turns_every_rule_off() -> None:
    rules, warnings = parse_alert_rules({"enabled": False, "job_failed": {"count": 9}})
    assert warnings == []
    assert not any(rule.enabled for rule in rules)
    assert by_name(rules)["job_failed"].count == 9


@pytest.mark.parametrize(
    ("table", "line"),
    [
        (
            {"job_failed": {"count": 0}},
            "[alerts.job_failed] count: input should be greater than or equal to 1 (got 0); skipped, the default rule stays",
        ),
        (
            {"job_failed": {"by": "colour"}},
            "[alerts.job_failed] by: input should be 'host', 'kind' or 'status' (got 'colour'); skipped, the default rule stays",
        ),
        (
            {"crawl_stalled": {"minutes": "ten"}},
            "[alerts.crawl_stalled] minutes: input should be a valid number, unable to parse string as a number (got 'ten'); skipped, the default rule stays",
        ),
        (
            {"crawl_stalled": {"minuts": 5}},
            "[alerts.crawl_stalled] minuts: is not a setting of this kind; skipped, the default rule stays",
        ),
        (
            {"credits": {"min_remaining_percent": None}},
            "[alerts.credits] the table: give budget, min_remaining_percent or both; skipped, the default rule stays",
        ),
        (
            {"usage_spike": {"min_hours": 10, "history_hours": 5}},
            "[alerts.usage_spike] the table: history_hours must be at least min_hours; skipped, the default rule stays",
        ),
        ({"queue_saturated": 5}, "[alerts.queue_saturated] must be a table or tables, not 5; the default rule stays"),
        (
            {"disk_full": {"minutes": 1}},
            "[alerts] has no rule kind 'disk_full' (the kinds: job_failed, crawl_failed, crawl_stalled, batch_failed, session_expiring, credits, usage_spike, queue_saturated, service_down, webhook_unverified); skipped",
        ),
        ({"enabled": "yes"}, "[alerts] enabled must be true or false, not 'yes'; skipped"),
        (
            {"session_expiring": {"minutes": -1, "repeat_minutes": 0}},
            "[alerts.session_expiring] repeat_minutes: input should be greater than 0 (got 0) (and 1 more); skipped, the default rule stays",
        ),
    ],
)
def test_a_bad_entry_gives_one_clear_line_and_the_default_stays(table: dict, line: str) -> None:
    rules, warnings = parse_alert_rules(table)
    assert warnings == [line]
    assert rules == list(DEFAULT_RULES)


def test_a_bad_table_among_good_ones_is_the_only_one_skipped() -> None:
    rules, warnings = parse_alert_rules({"crawl_stalled": [{"minutes": 20}, {"minutes": 0}]})
    assert warnings == ["[alerts.crawl_stalled] minutes: input should be greater than 0 (got 0); skipped"]
    assert [rule.minutes for rule in rules if isinstance(rule, CrawlStalledRule)] == [20]


def test_a_name_used_twice_is_skipped_the_second_time() -> None:
    rules, warnings = parse_alert_rules({"job_failed": [{"name": "x"}], "crawl_stalled": [{"name": "x"}]})
    assert warnings == ["[alerts.crawl_stalled] name 'x' is taken by another rule; skipped"]
    assert [rule.name for rule in rules if isinstance(rule, CrawlStalledRule)] == ["crawl_stalled"]


def test_not_a_table_at_all_keeps_the_defaults() -> None:
    rules, warnings = parse_alert_rules(["job_failed"])
    assert warnings == ["[alerts] must be a table, not ['job_failed']; the default rules stay"]
    assert rules == list(DEFAULT_RULES)


def test_the_defaults_are_described_one_line_a_rule() -> None:
    lines = describe_rules(DEFAULT_RULES)
    assert lines[0] == (
        "job_failed: on  3 in 10 min, by host; repeats every 30 min. "
        "Jobs failed: a count of failures within a window, by host, kind or status."
    )
    assert (
        lines[5]
        == "credits: on  under 10% left; repeats every 30 min. Credits this period projected over a budget, or remaining under X%."
    )
    assert len(lines) == len(RULE_KINDS)
    for line, rule in zip(lines, DEFAULT_RULES, strict=True):
        assert line.startswith(f"{rule.kind}: on ") and rule.description[1:] in line


def test_a_described_rule_shows_its_own_name_kind_filters_and_state() -> None:
    rule = JobFailedRule(name="scrapes", enabled=False, count=5, job_kinds=("scrape",), statuses=(404, 410))
    assert describe_rules([rule]) == [
        "scrapes (job_failed): off 5 in 10 min, by host; only kinds scrape; only statuses 404, 410; "
        "repeats every 30 min. Jobs failed: a count of failures within a window, by host, kind or status."
    ]


def test_a_rule_may_not_take_the_name_of_another_kind() -> None:
    rules, warnings = parse_alert_rules({"job_failed": [{}, {"name": "credits", "count": 1}]})
    assert warnings == ["[alerts.job_failed] name 'credits' is a rule kind's; skipped"]
    assert sorted(rule.name for rule in rules) == sorted(RULE_KINDS)


def test_the_readme_example_runs_in_an_engine_without_its_disabled_rule() -> None:
    rules, _ = parse_alert_rules(readme_alerts_example())
    engine = AlertEngine(rules, Clock())
    assert [rule.kind for rule in engine.rules] == [kind for kind in RULE_KINDS if kind != "webhook_unverified"]
