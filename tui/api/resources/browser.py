"""`client.browser`: standalone browser sessions."""

from __future__ import annotations

from typing import Any

from tui.api.body_reader import DOCUMENTS_ANSWER_MAX_BYTES as DOCUMENTS
from tui.api.resources._base import READ_MARGIN, Resource, build_request, session_id_segment
from tui.contract.limits import EXECUTE_TIMEOUT_DEFAULT
from tui.contract.models.browser import BrowserSessionCreated, BrowserSessionDeleted, BrowserSessionList, ExecuteResult
from tui.contract.requests import (
    BrowserCreateRequest,
    BrowserListQuery,
    BrowserProfile,
    BrowserStatus,
    ExecuteRequest,
    Language,
)


class BrowserResource(Resource):
    """Create, list and delete remote browser sessions, and run code in them."""

    async def create(
        self,
        *,
        ttl: int | None = None,
        activity_ttl: int | None = None,
        stream_web_view: bool | None = None,
        profile: BrowserProfile | dict[str, Any] | None = None,
        request: BrowserCreateRequest | None = None,
    ) -> BrowserSessionCreated:
        """Start a session (`POST /v2/browser`).

        `ttl` 30-3600 s of total life, `activity_ttl` 10-3600 s of idleness
        (server default 300); pass `ttl` explicitly, the contract's default is
        ambiguous. `profile` (`name` 1-128 chars, `save_changes`) shares storage
        between sessions of the same name; a second saver is refused with 409.
        """
        body = build_request(
            BrowserCreateRequest,
            request,
            ttl=ttl,
            activity_ttl=activity_ttl,
            stream_web_view=stream_web_view,
            profile=profile,
        )
        return await self._client.request("POST", "/v2/browser", BrowserSessionCreated, json=body.to_wire())

    async def list(
        self, status: BrowserStatus | None = None, *, request: BrowserListQuery | None = None
    ) -> BrowserSessionList:
        """The team's sessions, optionally only `active` or `destroyed` ones (`GET /v2/browser`)."""
        query = build_request(BrowserListQuery, request, status=status)
        return await self._client.request("GET", "/v2/browser", BrowserSessionList, params=query.to_wire())

    async def delete(self, session_id: str) -> BrowserSessionDeleted:
        """Stop a session (`DELETE /v2/browser/{id}`); stopping a destroyed one is not an error."""
        path = f"/v2/browser/{session_id_segment(session_id)}"
        return await self._client.request("DELETE", path, BrowserSessionDeleted)

    async def execute(
        self,
        session_id: str,
        code: str | None = None,
        language: Language | None = None,
        timeout: int | None = None,
        *,
        request: ExecuteRequest | None = None,
    ) -> ExecuteResult:
        """Run `code` in a session (`POST /v2/browser/{id}/execute`).

        `language` is `node` (default), `python` or `bash` (agent-browser CLI);
        `timeout` 1-300 s. An exception in the code comes back in `error` with
        `success` still true: check `ExecuteResult.failed`. Never retried.
        """
        path = f"/v2/browser/{session_id_segment(session_id)}/execute"
        body = build_request(ExecuteRequest, request, code=code, language=language, timeout=timeout)
        budget = (body.timeout or EXECUTE_TIMEOUT_DEFAULT) + READ_MARGIN
        return await self._client.request(
            "POST", path, ExecuteResult, json=body.to_wire(), read_timeout=budget, max_bytes=DOCUMENTS
        )
