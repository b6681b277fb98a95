"""`client.extract`: status of extract and agent jobs."""

from __future__ import annotations

from tui.api.body_reader import DOCUMENTS_ANSWER_MAX_BYTES as DOCUMENTS
from tui.api.resources._base import Resource, job_id_segment
from tui.contract.models.extract import ExtractStatus


class ExtractResource(Resource):
    """Follow extract and agent jobs (activity entries of kind `agent` map here)."""

    async def get(self, job_id: str) -> ExtractStatus:
        """Status and data of an extract or agent job (`GET /v2/extract/{id}`)."""
        path = f"/v2/extract/{job_id_segment(job_id)}"
        return await self._client.request("GET", path, ExtractStatus, max_bytes=DOCUMENTS)
