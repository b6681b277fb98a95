"""`GET /openapi.json`: the emulator's contract as an OpenAPI 3.1 document.

The request bodies and queries are the JSON schemas of the very models the
routes validate with (`tui.contract.requests`, shared with the client), so the
document cannot promise a limit the emulator does not enforce. The list of
operations below is the one hand-kept part; a test compares it with the app's
routes, so an endpoint added without it fails the suite. The fuzz test
(`tests/emulator/test_fuzz.py`) generates its requests from this document.

No key is needed to read it: it is the public shape of the API and holds no
team's data (as the real service publishes its OpenAPI file). Only the `/v2`
REST endpoints are described; the CDP websocket and the live view pages are
reached through URLs the browser endpoints hand out.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from tui.contract.requests import (
    ActivityQuery,
    BatchScrapeRequest,
    BrowserCreateRequest,
    BrowserListQuery,
    CrawlParamsPreviewRequest,
    CrawlRequest,
    DocsSearchRequest,
    ExecuteRequest,
    InteractRequest,
    MapRequest,
    ScrapeRequest,
    SupportAskRequest,
    TokenUsageQuery,
)
from tui.emulator.http.routes_jobs import StatusPageQuery

OPENAPI_PATH = "/openapi.json"
_REF = "#/components/schemas/{model}"


@dataclass(frozen=True)
class Operation:
    """One endpoint: its method, path, what it reads, and the shape of its errors."""

    method: str
    path: str
    summary: str
    body: type[BaseModel] | None = None
    query: type[BaseModel] | None = None
    body_required: bool = True
    support: bool = False  # errors are `{"error": ...}` only
    # The 5xx the contract documents for this endpoint; any other is a bug (the fuzz test's rule).
    server_errors: tuple[int, ...] = ()


OPERATIONS: tuple[Operation, ...] = (
    Operation("GET", "/v2/team/activity", "Recent activity of the caller's team (24 h)", query=ActivityQuery),
    Operation("GET", "/v2/team/token-usage/historical", "Token usage per billing period", query=TokenUsageQuery),
    Operation("GET", "/v2/team/credit-usage/historical", "Credit usage per billing period", query=TokenUsageQuery),
    Operation("GET", "/v2/team/token-usage", "Remaining tokens this billing period"),
    Operation("GET", "/v2/team/credit-usage", "Remaining credits this billing period"),
    Operation("GET", "/v2/team/queue-status", "Pages of the team's running jobs queued and being scraped"),
    Operation("GET", "/v2/concurrency-check", "Workers of the team busy now, and how many it has"),
    Operation("POST", "/v2/browser", "Create a browser session", body=BrowserCreateRequest, body_required=False),
    Operation("GET", "/v2/browser", "List the team's browser sessions", query=BrowserListQuery),
    Operation("DELETE", "/v2/browser/{sessionId}", "Stop a browser session"),
    Operation("POST", "/v2/browser/{sessionId}/execute", "Run code in a browser session", body=ExecuteRequest),
    Operation(
        "POST",
        "/v2/scrape/{jobId}/interact",
        "Run code on a scraped page",
        body=InteractRequest,
        server_errors=(502, 503),
    ),
    Operation("DELETE", "/v2/scrape/{jobId}/interact", "Stop a scrape's interact session"),
    Operation("POST", "/v2/scrape", "Scrape one URL", body=ScrapeRequest),
    Operation("GET", "/v2/scrape/{jobId}", "A scrape's document"),
    Operation("POST", "/v2/crawl", "Start a crawl", body=CrawlRequest),
    Operation("GET", "/v2/crawl/active", "The team's crawls still running"),
    Operation(
        "POST", "/v2/crawl/params-preview", "Crawl parameters read from a prompt", body=CrawlParamsPreviewRequest
    ),
    Operation("GET", "/v2/crawl/{jobId}", "A crawl's status and documents", query=StatusPageQuery),
    Operation("DELETE", "/v2/crawl/{jobId}", "Cancel a crawl"),
    Operation("GET", "/v2/crawl/{jobId}/errors", "A crawl's failed pages"),
    Operation("POST", "/v2/batch/scrape", "Start a batch scrape", body=BatchScrapeRequest),
    Operation("GET", "/v2/batch/scrape/{jobId}", "A batch's status and documents", query=StatusPageQuery),
    Operation("DELETE", "/v2/batch/scrape/{jobId}", "Cancel a batch scrape"),
    Operation("GET", "/v2/batch/scrape/{jobId}/errors", "A batch's failed pages"),
    Operation("POST", "/v2/map", "The URLs of a site", body=MapRequest),
    Operation("GET", "/v2/extract/{jobId}", "An extract job's status"),
    Operation(
        "POST",
        "/v2/support/docs-search",
        "Search the documentation",
        body=DocsSearchRequest,
        support=True,
        server_errors=(502, 503, 504),
    ),
    Operation(
        "POST",
        "/v2/support/ask",
        "Ask support to diagnose a problem",
        body=SupportAskRequest,
        support=True,
        server_errors=(502, 503, 504),
    ),
)

# observed-behaviour.md, "Errors, all endpoints".
ERROR_BODY: dict[str, Any] = {
    "type": "object",
    "required": ["success", "error"],
    "properties": {"success": {"const": False}, "error": {"type": "string"}, "code": {"type": "string"}, "details": {}},
}
SUPPORT_ERROR_BODY: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "properties": {"error": {"type": "string"}},
    "additionalProperties": False,
}


@cache
def openapi_document() -> dict[str, Any]:
    """The whole document (built once: the models do not change while serving)."""
    models = sorted({m for op in OPERATIONS for m in (op.body, op.query) if m is not None}, key=lambda m: m.__name__)
    refs, defs = models_json_schema([(m, "validation") for m in models], ref_template=_REF)
    schemas = {**defs.get("$defs", {}), "ErrorBody": ERROR_BODY, "SupportErrorBody": SUPPORT_ERROR_BODY}
    paths: dict[str, dict[str, Any]] = {}
    for op in OPERATIONS:
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(op, refs, schemas)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "wds-tui emulator",
            "version": "2",
            "description": "The local emulator of the web-data API (v2), generated from its request models.",
        },
        "paths": paths,
        "components": {"schemas": schemas, "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
        "security": [{"bearer": []}],
    }


def _operation(op: Operation, refs: dict[Any, Any], schemas: dict[str, Any]) -> dict[str, Any]:
    error = {"$ref": _REF.format(model="SupportErrorBody" if op.support else "ErrorBody")}
    error_response = {"description": "Refused or failed", "content": {"application/json": {"schema": error}}}
    spec: dict[str, Any] = {
        "summary": op.summary,
        "operationId": f"{op.method.lower()} {op.path}",
        "responses": {
            "200": {"description": "OK", "content": {"application/json": {"schema": {"type": "object"}}}},
            "4XX": error_response,
            **{str(status): error_response for status in op.server_errors},
        },
    }
    parameters = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string", "format": "uuid"}}
        for name in _path_params(op.path)
    ]
    if op.query is not None:
        parameters.extend(_query_params(schemas[op.query.__name__]))
    if parameters:
        spec["parameters"] = parameters
    if op.body is not None:
        spec["requestBody"] = {
            "required": op.body_required,
            "content": {"application/json": {"schema": refs[(op.body, "validation")]}},
        }
    return spec


def _path_params(path: str) -> list[str]:
    return [part[1:-1] for part in path.split("/") if part.startswith("{")]


def _query_params(schema: dict[str, Any]) -> list[dict[str, Any]]:
    required = set(schema.get("required", ()))
    return [
        {"name": name, "in": "query", "required": name in required, "schema": _without_null(prop)}
        for name, prop in schema.get("properties", {}).items()
    ]


def _without_null(prop: dict[str, Any]) -> dict[str, Any]:
    """A query parameter is absent or a string: `null`, which optional fields allow in a body, is not sendable."""
    options = [o for o in prop.get("anyOf", ()) if o != {"type": "null"}]
    if not options:
        return prop
    rest = {k: v for k, v in prop.items() if k not in ("anyOf", "default")}
    return {**rest, **options[0]} if len(options) == 1 else {**rest, "anyOf": options}


def routes() -> list[BaseRoute]:
    """`GET /openapi.json` (outside `/v2`, so no key is asked for)."""

    async def document(request: Request) -> JSONResponse:
        return JSONResponse(openapi_document())

    return [Route(OPENAPI_PATH, document, methods=["GET"])]
