"""What a support question and its rationale are about, read by small keyword rules.

The agent has no model, so it listens through three tables, each readable on its own:
- `TOPIC_WORDS`: words that name a topic the diagnoses know (a parameter such as
  `maxAge`, or a symptom such as "403"). A diagnosis whose topics the question names
  ranks first; a rationale's topics count half as much.
- `OFF_TOPIC_WORDS`: subjects no job failure explains (billing, the account, features
  such as webhooks). A question about one of them is out of scope.
- `CONSTRAINTS`: what a rationale can rule out. A sentence of the rationale that names
  the constraint's words together with a need word ("we need lockdown for compliance")
  forbids the fixes the constraint's test matches (turning lockdown off).

Text is matched in lower case on word boundaries, with URLs taken out first (a path such
as `/pricing/enterprise` is not a question about prices).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

TOPIC_WORDS: dict[str, tuple[str, ...]] = {
    "lockdown": ("lockdown", "lock down", "zero data retention", "zdr"),
    "maxAge": ("maxage", "max age", "max_age", "stale", "older copy", "old copy", "cache age"),
    "minAge": ("minage", "min age", "min_age"),
    "cache": ("cache", "cached", "caching", "cache miss"),
    "timeout": ("timeout", "timed out", "time out", "times out", "slow", "too long", "takes long"),
    "waitFor": ("waitfor", "wait for", "wait action", "wait actions", "javascript", "js", "render", "rendered"),
    "proxy": ("proxy", "anti-bot", "antibot", "bot", "403", "forbidden", "captcha", "stealth"),
    "robots": ("robots", "robots.txt", "disallow", "disallowed", "ignorerobotstxt"),
    "paths": (
        "includepaths",
        "excludepaths",
        "include paths",
        "exclude paths",
        "only one page",
        "just one page",
        "only the start page",
        "regex",
        "crawlentiredomain",
    ),
    "url": ("404", "not found", "which page", "other page", "typo", "removed", "does not exist", "wrong url"),
    "site_error": ("500", "502", "503", "server error", "site is down", "site down"),
    "llm": ("llm", "language model", "extract"),
}
# Words deliberately left out, for being too common to name a topic: "wait", "url", "link",
# "instead", "retry", "blocked", "agent", "page".

OFF_TOPIC_WORDS: dict[str, tuple[str, ...]] = {
    "billing": ("billing", "bill", "billed", "invoice", "invoices", "refund", "payment", "pay", "subscription"),
    "your plan": ("plan", "upgrade", "downgrade", "credit card"),
    "the account": ("password", "login", "log in", "sign in", "api key", "account", "invite", "team member"),
    "webhooks": ("webhook", "webhooks", "signature"),
    "browser sessions": ("browser session", "cdp", "live view"),
    "screenshots": ("screenshot", "screenshots"),
}

# Words that make a question about the job in general ("Why did my scrape fail?").
JOB_WORDS = (
    "why",
    "fail",
    "failed",
    "fails",
    "failing",
    "failure",
    "error",
    "errors",
    "wrong",
    "broken",
    "fix",
    "work",
    "working",
    "problem",
    "issue",
    "happened",
    "scrape",
    "scraped",
    "crawl",
    "crawled",
    "batch",
    "job",
    "page",
    "pages",
    "empty",
    "missing",
)

NEED_WORDS = (
    "need",
    "needs",
    "must",
    "require",
    "required",
    "requires",
    "compliance",
    "mandatory",
    "policy",
    "have to",
    "has to",
    "keep",
    "only",
    "respect",
    "obey",
    "cannot",
    "can't",
    "not allowed",
    "at most",
)
NEGATIONS = ("don't need", "do not need", "no longer need", "not required", "doesn't matter", "optional")


@dataclass(frozen=True)
class Constraint:
    """A limit the caller states: which fixes it rules out, and how to say so."""

    name: str
    words: tuple[str, ...]
    forbids: Callable[[dict[str, Any]], bool]
    keeps: str  # "keeps lockdown on": how a fix that respects it is described


def _turns_lockdown_off(fix: dict[str, Any]) -> bool:
    return fix.get("lockdown") is False


def _contacts_the_site(fix: dict[str, Any]) -> bool:
    return fix.get("lockdown") is False or ("minAge" in fix and fix["minAge"] is None)


CONSTRAINTS: tuple[Constraint, ...] = (
    Constraint("lockdown", TOPIC_WORDS["lockdown"], _turns_lockdown_off, "keeps lockdown on"),
    Constraint(
        "no contact",
        ("contact", "contacting", "no requests", "never fetch", "not fetch", "offline"),
        _contacts_the_site,
        "never contacts the site",
    ),
    Constraint("robots", TOPIC_WORDS["robots"], lambda fix: fix.get("ignoreRobotsTxt") is True, "respects robots.txt"),
    Constraint(
        "credits",
        ("credit", "credits", "cost", "budget", "cheap", "expensive"),
        lambda fix: fix.get("proxy") in ("auto", "enhanced"),
        "stays at 1 credit a page",
    ),
    Constraint("timeout", ("timeout", "time out"), lambda fix: "timeout" in fix, "keeps the timeout you set"),
    Constraint("minAge", TOPIC_WORDS["minAge"], lambda fix: "minAge" in fix, "keeps your minAge"),
)


@dataclass(frozen=True)
class StatedConstraint:
    """A constraint and the caller's own sentence that states it, without its final stop (quoted in answers)."""

    constraint: Constraint
    sentence: str


@dataclass(frozen=True)
class Reading:
    """What the question and rationale name: topics, off-topic subjects, stated constraints."""

    question_topics: frozenset[str]
    rationale_topics: frozenset[str]
    off_topic: tuple[str, ...]
    about_the_job: bool  # names the job in general words ("why", "failed", "scrape", ...)
    constraints: tuple[StatedConstraint, ...]

    def ruling_out(self, fix: dict[str, Any] | None) -> StatedConstraint | None:
        """The first stated constraint that `fix` breaks (page options read flat), or None."""
        if fix is None:
            return None
        flat = {**{k: v for k, v in fix.items() if k != "scrapeOptions"}, **fix.get("scrapeOptions", {})}
        return next((stated for stated in self.constraints if stated.constraint.forbids(flat)), None)


_URL = re.compile(r"https?://\S+")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")


def _plain(text: str) -> str:
    return _URL.sub(" ", text.lower())


def mentions(text: str, word: str) -> bool:
    """Whether `word` (already lower case) occurs in `text` on word boundaries."""
    return re.search(rf"(?<![a-z0-9_]){re.escape(word)}(?![a-z0-9_])", text) is not None


def _topics(text: str) -> frozenset[str]:
    return frozenset(topic for topic, words in TOPIC_WORDS.items() if any(mentions(text, w) for w in words))


def _constraints(rationale: str) -> tuple[StatedConstraint, ...]:
    stated: list[StatedConstraint] = []
    for sentence in (s.strip() for s in _SENTENCE_END.split(rationale) if s.strip()):
        plain = _plain(sentence)
        if any(negation in plain for negation in NEGATIONS) or not any(mentions(plain, w) for w in NEED_WORDS):
            continue
        for constraint in CONSTRAINTS:
            if any(mentions(plain, w) for w in constraint.words):
                stated.append(StatedConstraint(constraint, sentence.rstrip(".;!")))
    return tuple(stated)


def read(question: str, rationale: str | None, *, job_id: str = "", url: str = "") -> Reading:
    """Read `question` and `rationale`; naming the job's id or URL counts as asking about the job."""
    asked = _plain(question)
    names_the_job = bool(job_id and job_id.lower() in question.lower()) or bool(url and url in question)
    return Reading(
        question_topics=_topics(asked),
        rationale_topics=_topics(_plain(rationale or "")),
        off_topic=tuple(
            subject for subject, words in OFF_TOPIC_WORDS.items() if any(mentions(asked, w) for w in words)
        ),
        about_the_job=names_the_job or any(mentions(asked, w) for w in JOB_WORDS),
        constraints=_constraints(rationale or ""),
    )
