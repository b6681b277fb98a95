"""`client.support`: docs search and the diagnosing support agent."""

from __future__ import annotations

from typing import Any

from tui.api.resources._base import READ_MARGIN, Resource, build_request
from tui.contract.limits import ASK_BUDGET_SECONDS
from tui.contract.models.support import DocsSearchAnswer, SupportAnswer, SupportAskPartial
from tui.contract.requests import DocsSearchRequest, SupportAskRequest


class SupportResource(Resource):
    """Question answering over the public docs, and diagnosis of the team's jobs."""

    async def docs_search(
        self, question: str | None = None, *, request: DocsSearchRequest | None = None
    ) -> DocsSearchAnswer:
        """Answer `question` (1 to 8000 chars) from the docs (`POST /v2/support/docs-search`)."""
        body = build_request(DocsSearchRequest, request, question=question)
        return await self._client.request(
            "POST", "/v2/support/docs-search", DocsSearchAnswer, json=body.to_wire(), read_timeout=ASK_BUDGET_SECONDS
        )

    async def ask(
        self,
        question: str | None = None,
        rationale: str | None = None,
        job_id: str | None = None,
        context: dict[str, Any] | None = None,
        *,
        request: SupportAskRequest | None = None,
    ) -> SupportAnswer:
        """Ask the support agent to diagnose a problem (`POST /v2/support/ask`).

        Takes 15 to 30 s, at most 60 s. When the budget runs out the service
        answers 504: `GatewayTimeoutError.partial` holds what it had. A stuck
        agent answers 200 with `feedback` set (`SupportAnswer.is_stuck`).
        """
        body = build_request(
            SupportAskRequest, request, question=question, rationale=rationale, job_id=job_id, context=context
        )
        return await self._client.request(
            "POST",
            "/v2/support/ask",
            SupportAnswer,
            json=body.to_wire(),
            read_timeout=ASK_BUDGET_SECONDS + READ_MARGIN,
            partial_model=SupportAskPartial,
        )
