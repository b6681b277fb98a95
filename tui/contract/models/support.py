"""Support: `POST /v2/support/docs-search` and `POST /v2/support/ask`."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import Field

from tui.contract.models.common import OPEN, WdsModel


class Evidence(WdsModel):
    """A passage of the docs an answer is based on."""

    path_or_url: str
    reason: str | None = None


class TokenCounts(WdsModel):
    """Tokens an AI answer consumed."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None


class DocsSearchAnswer(WdsModel):
    """An answer from the public documentation, with the passages it rests on."""

    request_id: str | None = None
    answer: str
    evidence: list[Evidence] = Field(default_factory=list)
    usage: TokenCounts | None = None
    duration_ms: int | None = None


class Confidence(StrEnum):
    """How sure the support agent is of its diagnosis."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class ValidationOutcome(StrEnum):
    """How testing the proposed fix against the live API went."""

    SUCCESS = "success"
    FAILURE = "failure"
    SKIPPED = "skipped"


ValidationOutcomeValue = Annotated[ValidationOutcome | str, OPEN]
ConfidenceValue = Annotated[Confidence | str, OPEN]


class FixValidation(WdsModel):
    """Whether the agent tested its fix against the live API, and how that went."""

    tested: bool | None = None
    result: ValidationOutcomeValue | None = None
    evidence: str | None = None


class AgentFeedback(WdsModel):
    """Set when the agent is stuck: what blocked it and what it tried."""

    blocked_by: str | None = None
    attempted: list[str] = Field(default_factory=list)


class SupportAskPartial(WdsModel):
    """The envelope of support ask with every field optional.

    This is what a 504 carries when the agent's 60-second budget ran out: it
    may have some fields, or none. A full answer is a `SupportAnswer`.
    """

    request_id: str | None = None
    answer: str | None = None
    confidence: ConfidenceValue | None = None
    fix_parameters: dict[str, Any] | None = None
    validation: FixValidation | None = None
    feedback: AgentFeedback | None = None
    duration_ms: int | None = None

    @property
    def is_stuck(self) -> bool:
        """True when the agent gave up and explains why in `feedback`."""
        return self.feedback is not None


class SupportAnswer(SupportAskPartial):
    """A diagnosis from the support agent (answered, or stuck with `feedback`)."""

    answer: str
