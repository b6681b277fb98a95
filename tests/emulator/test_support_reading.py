"""The support agent's keyword rules: what a question and a rationale are about, and what they rule out."""

from __future__ import annotations

import pytest

from tui.emulator.jobs.scrape_engine import FailureKind
from tui.emulator.support.diagnoses import KIND_TOPICS, Diagnosis
from tui.emulator.support.ranking import decide, out_of_scope, rank
from tui.emulator.support.reading import read


@pytest.mark.parametrize(
    ("question", "topics"),
    [
        ("Why did lockdown miss?", {"lockdown"}),
        ("Would a larger maxAge help, or max age at all?", {"maxAge"}),
        ("It timed out after 30 s", {"timeout"}),
        ("I get a 403 Forbidden", {"proxy"}),
        # A path in a URL is not a question about it: /pricing is no billing question, /robots no robots one.
        ("Why did https://x.com/robots/pricing fail?", set()),
        ("robotstxt", set()),  # words on boundaries only
        ("Wait, why did the agent fail on this url instead?", set()),  # too common to name a topic
    ],
)
def test_question_topics(question: str, topics: set[str]) -> None:
    assert read(question, None).question_topics == topics


@pytest.mark.parametrize(
    ("rationale", "ruled_out", "allowed"),
    [
        ("We need lockdown for compliance.", {"lockdown": False}, {"maxAge": 10}),
        ("Keep lockdown on; the user wants the report.", {"scrapeOptions": {"lockdown": False}}, {"timeout": 90000}),
        ("We must never contact the site.", {"minAge": None}, {"minAge": 1000}),
        ("We can only spend 1 credit a page.", {"proxy": "auto"}, {"waitFor": 4000}),
        ("Our policy is to respect robots.txt.", {"ignoreRobotsTxt": True}, {"includePaths": []}),
        ("Lockdown must stay on.", {"lockdown": False}, {"maxAge": 10}),
        ("Policy requires lockdown.", {"lockdown": False}, {"maxAge": 10}),
        ("We must keep lockdown.", {"lockdown": False}, {"maxAge": 10}),
        ("Lockdown is not optional.", {"lockdown": False}, {"maxAge": 10}),
        # A clause that waives something else leaves the rest of the sentence standing.
        ("We don't need fresh data, but lockdown must stay on.", {"lockdown": False}, {"maxAge": 10}),
    ],
)
def test_rationale_constraints(rationale: str, ruled_out: dict[str, object], allowed: dict[str, object]) -> None:
    reading = read("Why?", rationale)
    stated = reading.ruling_out(ruled_out)
    assert stated is not None and stated.sentence == rationale.split(";")[0].rstrip(".")
    assert reading.ruling_out(allowed) is None


@pytest.mark.parametrize(
    "rationale",
    [
        "We don't need lockdown any more.",
        "Lockdown was on when it failed.",
        "The user wants the about page.",
        # Negated: the rationale waives lockdown, in any of the usual words.
        "Lockdown isn't required for us, we just want fresh data.",
        "Lockdown is not required.",
        "Lockdown is not needed here.",
        "Lockdown isn\u2019t needed.",  # a typographic apostrophe reads the same
        "There's no need for lockdown.",
        "Lockdown doesn't matter to us.",
        "Lockdown is optional.",
        "We turned lockdown on by mistake.",
        # "only" and "keep" are no need words on their own.
        "We only turned lockdown on by accident.",
        "We only use lockdown to try it out.",
        "Lockdown is on; we keep the report short.",
    ],
)
def test_a_rationale_that_states_no_constraint(rationale: str) -> None:
    reading = read("Why?", rationale)
    assert reading.constraints == () and reading.ruling_out({"lockdown": False}) is None


@pytest.mark.parametrize(
    ("question", "outside"),
    [
        ("Why did my scrape fail?", None),
        ("Why only one page? Is it includePaths?", None),
        ("Why was I charged? I want a refund", "about billing"),
        ("How do I set up a webhook?", "about webhooks"),
        ("Is the 403 from the proxy?", "about the proxy, which played no part in this failure"),
        ("lorem ipsum dolor", "not one I can read as being about this job"),
        # A failure question that mentions an off-topic subject is still about the failure.
        ("Why did my scrape fail? I'm on the free plan.", None),
        ("Why did my scrape fail? My account is new.", None),
        ("Why did it fail? I'm on the free plan.", None),
        ("Did my crawl fail because of my plan?", None),
        # Off-topic words decide when no sentence asks about the job or its failure.
        ("How much does this cost?", "about billing"),
        ("How do I change my plan?", "about your plan"),
        ("Why did my payment fail?", "about billing"),
        ("Can I scrape more pages on a bigger plan?", "about your plan"),
        # A topic of another failure still decides, whatever else is said.
        ("Why did my scrape fail? Is it the proxy?", "about the proxy, which played no part in this failure"),
    ],
)
def test_scope(question: str, outside: str | None) -> None:
    assert out_of_scope(read(question, None), KIND_TOPICS[FailureKind.NOTHING_MATCHED]) == outside


def diagnosis(key: str, *topics: str, fix: dict[str, object] | None = None) -> Diagnosis:
    return Diagnosis(key, frozenset(topics), f"{key} answer.", "high", fix, f"{key} fix")


def test_rank_question_over_rationale_over_the_rules_order() -> None:
    first, second, third = diagnosis("a", "timeout"), diagnosis("b", "waitFor"), diagnosis("c", "proxy")
    assert rank([first, second, third], read("Why?", None)) == [first, second, third]
    assert rank([first, second, third], read("Is it waitFor?", "We use the enhanced proxy")) == [second, third, first]
    assert rank([first, second, third], read("Why?", "We use the enhanced proxy")) == [third, first, second]


def test_decide_goes_to_the_next_best_fix_that_keeps_the_constraint() -> None:
    off = diagnosis("off", "lockdown", fix={"lockdown": False})
    age = diagnosis("age", "maxAge", fix={"maxAge": 7200000})
    verdict = decide([off, age], read("Why?", "Lockdown is required."), facts="facts.")
    assert verdict.fix == {"maxAge": 7200000} and verdict.validation is None
    assert verdict.answer == (
        'off fix would fix it, but you said "Lockdown is required", so I do not recommend it. '
        "The next-best fix, which keeps lockdown on: age answer."
    )
