"""Extract and agent jobs (`GET /v2/extract/{id}`); the contract shows no shape."""

from __future__ import annotations

from typing import Any

from pydantic import AliasChoices, Field

from tui.contract.models.common import JobStateValue, Timestamp, WdsModel


class ExtractStatus(WdsModel):
    """Status of an extract or agent job; typed where the real service is known."""

    success: bool = True
    status: JobStateValue | None = None
    data: Any = None
    error: str | None = None
    expires_at: Timestamp | None = None
    credits_used: int | None = None
    tokens_used: int | None = Field(None, validation_alias=AliasChoices("tokensUsed", "totalTokens", "tokens_used"))
