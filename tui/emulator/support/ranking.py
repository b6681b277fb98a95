"""Choosing among a failure's diagnoses for the question asked, and saying why.

The rules, in order:
1. Scope: a question that names one of the failure's topics is in scope. Otherwise one
   that names an off-topic subject (billing, webhooks, ...) is out of scope unless it
   also asks about the job or its failure ("Why did my scrape fail? I'm on the free
   plan."); one that names only topics of other failures is out of scope, and so is one
   that names neither the job nor a failure in general words (gibberish): the agent says
   it cannot diagnose that from this job.
2. Rank: each topic of a diagnosis that the question names scores 2, each one the
   rationale names scores 1; the highest score comes first, ties keep the rule's order.
3. Rule out: a diagnosis whose fix breaks a constraint the rationale states is never
   recommended; the answer names it, quotes the sentence that rules it out, and goes on
   to the best fix that keeps the constraint, or says that none does.
4. Recommend the first diagnosis left that has a fix (it is the one the agent tests);
   without one, the first diagnosis left, whose own check (if any) is the validation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tui.emulator.support.diagnoses import Diagnosis
from tui.emulator.support.reading import Reading, StatedConstraint

# How the answer names a topic when it lists what it can help with.
TOPIC_NAMES = {
    "lockdown": "lockdown",
    "maxAge": "maxAge",
    "minAge": "minAge",
    "cache": "the cache",
    "timeout": "timeout",
    "waitFor": "waitFor",
    "proxy": "the proxy",
    "robots": "robots.txt",
    "paths": "includePaths and excludePaths",
    "url": "the URL",
    "site_error": "the site's own errors",
    "llm": "the LLM it needs",
}


def out_of_scope(reading: Reading, kind_topics: frozenset[str]) -> str | None:
    """Why the question is outside what this failure explains (words after "your question is"), or None."""
    if reading.question_topics & kind_topics:
        return None
    if reading.off_topic and not reading.asks_about_the_job:
        return "about " + " and ".join(reading.off_topic)
    other = sorted(reading.question_topics - kind_topics)
    if other:
        return f"about {' and '.join(TOPIC_NAMES[t] for t in other)}, which played no part in this failure"
    if reading.about_the_job:
        return None
    return "not one I can read as being about this job"


def helpable(kind_topics: frozenset[str]) -> str:
    """The topics this failure's diagnoses cover, as the answer lists them."""
    names = [TOPIC_NAMES[t] for t in TOPIC_NAMES if t in kind_topics]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def rank(diagnoses: list[Diagnosis], reading: Reading) -> list[Diagnosis]:
    """`diagnoses` best first for this question and rationale (rule 2)."""

    def score(diagnosis: Diagnosis) -> int:
        asked = len(diagnosis.topics & reading.question_topics)
        meant = len(diagnosis.topics & reading.rationale_topics)
        return 2 * asked + meant

    return sorted(diagnoses, key=lambda d: -score(d))  # sorted is stable: ties keep the rule's order


@dataclass
class Verdict:
    """The answer chosen for this question: text, the fix to test (if any), what is already known."""

    answer: str
    confidence: str
    fix: dict[str, Any] | None
    validation: dict[str, Any] | None  # set when there is no fix to test
    steps: list[str] = field(default_factory=list)


def _ruled_out_sentence(diagnosis: Diagnosis, stated: StatedConstraint) -> str:
    return f'{diagnosis.fix_words} would fix it, but you said "{stated.sentence}", so I do not recommend it.'


def decide(diagnoses: list[Diagnosis], reading: Reading, facts: str) -> Verdict:
    """Rules 2 to 4 over the failure's `diagnoses`; `facts` states the failure when no diagnosis is left."""
    order = rank(diagnoses, reading)
    ruling = {d.key: reading.ruling_out(d.fix) for d in order}
    allowed = [d for d in order if ruling[d.key] is None]
    with_fix = [d for d in allowed if d.fix is not None]
    chosen = with_fix[0] if with_fix else (allowed[0] if allowed else None)
    steps = ["ranked the diagnoses against the question and the rationale: " + ", ".join(d.key for d in order)]
    # The ruled-out diagnoses the caller would otherwise have been given first.
    above = order if chosen is None or chosen.fix is None else order[: order.index(chosen)]
    ruled_out = [(d, stated) for d in above if (stated := ruling[d.key]) is not None]
    for diagnosis, stated in ruled_out:
        steps.append(f"ruled out {diagnosis.key}: the rationale says {stated.sentence!r}")

    parts: list[str] = []
    asked = order[0] if order and reading.question_topics & order[0].topics else None
    if asked is not None and asked is not chosen and ruling[asked.key] is None:
        parts.append(asked.answer)  # what the question is about, and why it is not the fix
    if chosen is None:
        parts.append(facts)
    parts.extend(_ruled_out_sentence(d, stated) for d, stated in ruled_out)
    keeps = " and ".join(dict.fromkeys(stated.constraint.keeps for _, stated in ruled_out))
    if chosen is not None and chosen.fix is not None:
        if ruled_out:
            parts.append(f"The next-best fix, which {keeps}: {chosen.answer}")
        elif parts:
            parts.append(f"What fixes it: {chosen.answer}")
        else:
            parts.append(chosen.answer)
        return Verdict(" ".join(parts), chosen.confidence, chosen.fix, None, steps)
    if chosen is not None:
        parts.insert(0, chosen.answer)  # a diagnosis without a fix (the question's own, or the only one left)
    if ruled_out:
        parts.append(f"No other fix I know {keeps}.")
        skipped = "Nothing was re-run for this question: no fix is left that respects what you said."
    else:
        skipped = "Nothing was re-run for this question: no parameter change applies."
    known = chosen.check if chosen is not None else None
    confidence = "medium" if ruled_out or chosen is None else chosen.confidence
    validation = known or {"tested": False, "result": "skipped", "evidence": skipped}
    return Verdict(" ".join(parts), confidence, None, validation, steps)
