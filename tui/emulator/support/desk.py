"""The support desk: docs-search and the diagnosis agent behind `/v2/support/*`.

Both answer with the contract's envelopes. Docs-search quotes the bundled
documentation ranked by BM25 (`docs_search`); ask applies the diagnosis rules
of `ask` to the caller's own jobs. Neither involves a model, and both say so
where it matters rather than inventing prose.

Ask has a hard time budget (60 s, as the contract states). The budget and the
timer are constructor parameters so a test can make the budget run out and see
the 504 with the partial envelope.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tui.contract.limits import ASK_BUDGET_SECONDS
from tui.contract.requests import DocsSearchRequest, SupportAskRequest
from tui.emulator.core.clock import Clock
from tui.emulator.core.ids import NewId
from tui.emulator.core.teams import Team
from tui.emulator.jobs.store import JobStore
from tui.emulator.sites.site import SiteSource
from tui.emulator.support.ask import Diagnostician, Draft
from tui.emulator.support.docs_search import search_docs


class BudgetExceeded(Exception):
    """The diagnosis ran out of time; carries the envelope as far as it got."""

    def __init__(self, draft: Draft) -> None:
        super().__init__("support agent budget exceeded")
        self.draft = draft


class SupportDesk:
    """Answers docs-search and ask requests for the emulator's teams."""

    def __init__(
        self,
        *,
        jobs: JobStore,
        sites: SiteSource,
        clock: Clock,
        new_id: NewId,
        budget_seconds: float = ASK_BUDGET_SECONDS,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        self._jobs = jobs
        self._sites = sites
        self._clock = clock
        self._new_id = new_id
        # Public so a test can make the budget run out.
        self.budget_seconds = budget_seconds
        self.timer = timer

    def docs_search(self, request: DocsSearchRequest) -> dict[str, Any]:
        """The docs-search envelope for `request`."""
        started = self.timer()
        found = search_docs(request.question)
        return {
            "requestId": self._new_id(),
            "answer": found.answer,
            "evidence": found.evidence,
            "usage": {
                "inputTokens": found.input_tokens,
                "outputTokens": found.output_tokens,
                "totalTokens": found.input_tokens + found.output_tokens,
            },
            "durationMs": self._elapsed_ms(started),
        }

    def ask(self, team: Team, request: SupportAskRequest) -> tuple[int, dict[str, Any]]:
        """(status, envelope) for an ask request: 200, or 504 with a partial envelope."""
        started = self.timer()
        request_id = self._new_id()

        def checkpoint(draft: Draft) -> None:
            if self.timer() - started >= self.budget_seconds:
                raise BudgetExceeded(draft)

        draft = Draft()
        try:
            Diagnostician(self._jobs, self._sites, self._clock, checkpoint).diagnose(team, request, draft)
        except BudgetExceeded as exc:
            partial = exc.draft
            envelope = self._envelope(request_id, partial, started)
            envelope["answer"] = partial.answer or "The diagnosis did not finish within its time budget."
            envelope["validation"] = partial.validation
            envelope["feedback"] = {
                "blockedBy": f"The {self.budget_seconds:g} s budget ran out before the diagnosis finished.",
                "attempted": list(partial.attempted),
            }
            envelope["error"] = f"Support agent timed out after {self.budget_seconds:g} s."
            return 504, envelope
        return 200, self._envelope(request_id, draft, started)

    def _envelope(self, request_id: str, draft: Draft, started: float) -> dict[str, Any]:
        return {
            "requestId": request_id,
            "answer": draft.answer,
            "confidence": draft.confidence,
            "fixParameters": draft.fix_parameters,
            "validation": draft.validation,
            "feedback": draft.feedback,
            "durationMs": self._elapsed_ms(started),
        }

    def _elapsed_ms(self, started: float) -> int:
        return max(0, int((self.timer() - started) * 1000))
