"""`GET /openapi.json`: the emulator's contract, generated from the request models, for every endpoint."""

from __future__ import annotations

import httpx
from starlette.routing import Route

from tui.contract.requests import CrawlRequest, ScrapeRequest
from tui.emulator.http.app import create_app
from tui.emulator.http.openapi import OPERATIONS
from tui.emulator.service import Emulator


async def test_the_document_is_served_without_a_key(client: httpx.AsyncClient) -> None:
    r = await client.get("/openapi.json")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    doc = r.json()
    assert doc["openapi"].startswith("3.1") and doc["security"] == [{"bearer": []}]
    assert doc["components"]["securitySchemes"]["bearer"] == {"type": "http", "scheme": "bearer"}


async def test_every_v2_route_of_the_app_is_described_and_nothing_else(
    client: httpx.AsyncClient, emulator: Emulator
) -> None:
    app = create_app(emulator)
    served = {
        (method, route.path)
        for route in app.routes
        if isinstance(route, Route) and route.path.startswith("/v2/")
        for method in (route.methods or ()) - {"HEAD"}
    }
    doc = (await client.get("/openapi.json")).json()
    described = {(method.upper(), path) for path, item in doc["paths"].items() for method in item}
    assert described == served
    assert len(OPERATIONS) == len(served)


async def test_bodies_are_the_request_models_schemas(client: httpx.AsyncClient) -> None:
    doc = (await client.get("/openapi.json")).json()
    schemas = doc["components"]["schemas"]
    crawl = doc["paths"]["/v2/crawl"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert crawl == {"$ref": "#/components/schemas/CrawlRequest"}
    own = CrawlRequest.model_json_schema(ref_template="#/components/schemas/{model}")
    assert schemas["CrawlRequest"] == {k: v for k, v in own.items() if k != "$defs"}
    # Wire names and the limits the emulator enforces.
    delay = next(o for o in schemas["CrawlRequest"]["properties"]["delay"]["anyOf"] if o.get("type") == "number")
    assert delay["minimum"] == 0 and delay["maximum"] == 3600
    assert "scrapeOptions" in schemas["CrawlRequest"]["properties"]
    assert schemas["ScrapeRequest"]["properties"]["url"] == ScrapeRequest.model_json_schema()["properties"]["url"]
    assert schemas["ScrapeRequest"]["properties"]["url"]["format"] == "uri"


async def test_parameters_and_error_bodies(client: httpx.AsyncClient) -> None:
    doc = (await client.get("/openapi.json")).json()
    status = doc["paths"]["/v2/crawl/{jobId}"]["get"]
    params = {p["name"]: p for p in status["parameters"]}
    assert params["jobId"] == {
        "name": "jobId",
        "in": "path",
        "required": True,
        "schema": {"type": "string", "format": "uuid"},
    }
    assert params["limit"]["in"] == "query" and params["limit"]["schema"]["maximum"] == 1000
    activity = {p["name"]: p for p in doc["paths"]["/v2/team/activity"]["get"]["parameters"]}
    assert activity["limit"]["schema"]["maximum"] == 100
    assert {"type": "null"} not in activity["cursor"]["schema"].get("anyOf", [])
    error = status["responses"]["4XX"]["content"]["application/json"]["schema"]
    assert error == {"$ref": "#/components/schemas/ErrorBody"}
    ask = doc["paths"]["/v2/support/ask"]["post"]["responses"]["4XX"]["content"]["application/json"]["schema"]
    assert ask == {"$ref": "#/components/schemas/SupportErrorBody"}
