"""What a support question and its rationale are about, read by small keyword rules.

The agent has no model, so it listens through three tables, each readable on its own:
- `TOPIC_WORDS`: words that name a topic the diagnoses know (a parameter such as
  `maxAge`, or a symptom such as "403"). A diagnosis whose topics the question names
  ranks first; a rationale's topics count half as much.
- `OFF_TOPIC_WORDS`: subjects no job failure explains (billing, the account, features
  such as webhooks). A question about one of them is out of scope, unless one of its
  sentences asks about the job's failure without naming such a subject ("Why did my
  scrape fail? I'm on the free plan." asks about the scrape).
- `CONSTRAINTS`: what a rationale can rule out. A sentence of the rationale that names
  the constraint's words together with a need word ("we need lockdown for compliance",
  "keep lockdown on") forbids the fixes the constraint's test matches (turning lockdown
  off). A clause that waives it ("lockdown isn't required", "we turned lockdown on by
  accident") states no constraint, so a rationale is read clause by clause.

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
    "billing": (
        "billing",
        "bill",
        "billed",
        "invoice",
        "invoices",
        "refund",
        "payment",
        "pay",
        "subscription",
        "charge",
        "charged",
        "charges",
        "cost",
        "costs",
        "price",
        "prices",
        "pricing",
        "how much",
    ),
    "your plan": ("plan", "upgrade", "downgrade", "credit card"),
    "the account": ("password", "login", "log in", "sign in", "api key", "account", "invite", "team member"),
    "webhooks": ("webhook", "webhooks", "signature"),
    "browser sessions": ("browser session", "cdp", "live view"),
    "screenshots": ("screenshot", "screenshots"),
}

# Words that name the job itself, or its failure; a sentence that names either without an
# off-topic subject, or names both, asks about the job whatever else the question says.
JOB_NOUNS = ("scrape", "scraped", "scrapes", "crawl", "crawled", "crawls", "batch", "job", "jobs", "page", "pages")
FAILURE_WORDS = ("fail", "failed", "fails", "failing", "failure", "error", "errors", "broken", "empty", "missing")
# Words that make a question about the job in general ("Why?") when it names no off-topic subject.
GENERAL_WORDS = ("why", "wrong", "fix", "work", "working", "problem", "issue", "happened")

NEED_WORDS = (
    "need",
    "needs",
    "must",
    "require",
    "required",
    "requires",
    "compliance",
    "mandatory",
    "not optional",
    "isn't optional",
    "policy",
    "have to",
    "has to",
    "can only",
    "may only",
    "respect",
    "obey",
    "cannot",
    "can't",
    "not allowed",
    "at most",
)
# "keep" is a need word only right before what is kept ("keep lockdown on", "keep our timeout").
_KEEP = r"(?<![a-z])keep(?:s|ing)?\s+(?:the\s+|our\s+|using\s+)?"
# Phrases that waive whatever their clause names ("lockdown isn't required", "on by accident").
WAIVERS = (
    "don't need",
    "do not need",
    "doesn't need",
    "does not need",
    "no longer need",
    "needn't",
    "no need",
    "not needed",
    "isn't needed",
    "aren't needed",
    "not required",
    "isn't required",
    "aren't required",
    "not necessary",
    "isn't necessary",
    "unnecessary",
    "not a requirement",
    "isn't a requirement",
    "don't have to",
    "do not have to",
    "doesn't have to",
    "does not have to",
    "don't care",
    "do not care",
    "doesn't matter",
    "does not matter",
    "not important",
    "by accident",
    "accidentally",
    "by mistake",
    "optional",
)
# A waiver said with "not" before it says the opposite ("lockdown is not optional").
_WAIVER = re.compile(
    r"(?<!not )(?<!n't )(?<!never )(?<![a-z0-9_])(?:" + "|".join(map(re.escape, WAIVERS)) + r")(?![a-z0-9_])"
)


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
    asks_about_the_job: bool  # a sentence asks about the job or its failure, off-topic subjects aside
    constraints: tuple[StatedConstraint, ...]

    def ruling_out(self, fix: dict[str, Any] | None) -> StatedConstraint | None:
        """The first stated constraint that `fix` breaks (page options read flat), or None."""
        if fix is None:
            return None
        flat = {**{k: v for k, v in fix.items() if k != "scrapeOptions"}, **fix.get("scrapeOptions", {})}
        return next((stated for stated in self.constraints if stated.constraint.forbids(flat)), None)


_URL = re.compile(r"https?://\S+")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_CLAUSE_END = re.compile(r",\s*|\s+(?:but|though|although|however|whereas)\s+")


def _plain(text: str) -> str:
    return _URL.sub(" ", text.lower().replace("\u2019", "'"))


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def mentions(text: str, word: str) -> bool:
    """Whether `word` (already lower case) occurs in `text` on word boundaries."""
    return re.search(rf"(?<![a-z0-9_]){re.escape(word)}(?![a-z0-9_])", text) is not None


def _topics(text: str) -> frozenset[str]:
    return frozenset(topic for topic, words in TOPIC_WORDS.items() if any(mentions(text, w) for w in words))


def _needs(text: str, constraint: Constraint) -> bool:
    """Whether `text` says the constraint is needed: a need word, or "keep" right before its words."""
    return any(mentions(text, w) for w in NEED_WORDS) or any(
        re.search(_KEEP + re.escape(w) + r"(?![a-z0-9_])", text) for w in constraint.words
    )


def _constraints(rationale: str) -> tuple[StatedConstraint, ...]:
    stated: list[StatedConstraint] = []
    for sentence in _sentences(rationale):
        # The clauses that waive what they name are left out; the rest of the sentence still counts.
        plain = " , ".join(c for c in _CLAUSE_END.split(_plain(sentence)) if not _WAIVER.search(c))
        for constraint in CONSTRAINTS:
            if any(mentions(plain, w) for w in constraint.words) and _needs(plain, constraint):
                stated.append(StatedConstraint(constraint, sentence.rstrip(".;!")))
    return tuple(stated)


def _asks_about_the_job(sentence: str, names_the_job: bool) -> bool:
    """Whether one sentence asks about the job: it names the job and its failure, or either without
    an off-topic subject ("Why did my payment fail?" asks about billing)."""
    job = names_the_job or any(mentions(sentence, w) for w in JOB_NOUNS)
    failure = any(mentions(sentence, w) for w in FAILURE_WORDS)
    off_topic = any(mentions(sentence, w) for words in OFF_TOPIC_WORDS.values() for w in words)
    return (job and failure) or ((job or failure) and not off_topic)


def read(question: str, rationale: str | None, *, job_id: str = "", url: str = "") -> Reading:
    """Read `question` and `rationale`; naming the job's id or URL counts as asking about the job."""
    asked = _plain(question)
    named = [
        (_plain(sentence), bool(job_id and job_id.lower() in sentence.lower()) or bool(url and url in sentence))
        for sentence in _sentences(question)
    ]
    job_words = (*JOB_NOUNS, *FAILURE_WORDS, *GENERAL_WORDS)
    return Reading(
        question_topics=_topics(asked),
        rationale_topics=_topics(_plain(rationale or "")),
        off_topic=tuple(
            subject for subject, words in OFF_TOPIC_WORDS.items() if any(mentions(asked, w) for w in words)
        ),
        about_the_job=any(names for _, names in named) or any(mentions(asked, w) for w in job_words),
        asks_about_the_job=any(_asks_about_the_job(sentence, names) for sentence, names in named),
        constraints=_constraints(rationale or ""),
    )
