"""`/_emulator/faults`: add, list and remove the fault rules requests meet (`http.fault_rules`).

- `GET /_emulator/faults`: every rule, in the order they apply, each with how often it `fired`;
- `POST /_emulator/faults`: add one rule (a JSON object of `fault_rules.FIELDS`): 201 with it;
- `DELETE /_emulator/faults/{id}`: remove one (404 for an id that is not a rule);
- `DELETE /_emulator/faults`: remove them all.

`/_emulator/faults/` (a slash, no id) answers 404 to every method and changes nothing: left to
Starlette it was redirected to `/_emulator/faults`, so a client following redirects that sent
`DELETE /_emulator/faults/` with an empty id removed every rule.
"""

from __future__ import annotations

from typing import Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from tui.emulator.admin.guard import ADMIN_PREFIX
from tui.emulator.core.teams import TeamDirectory
from tui.emulator.http.errors import bad_request, not_found
from tui.emulator.http.fault_rules import METHODS, FaultRuleError, FaultRules, rule_from_fields
from tui.emulator.http.parsing import read_json_object

FAULTS_PATH = ADMIN_PREFIX + "/faults"

INDEX = {
    f"GET {FAULTS_PATH}": "the fault rules, in the order they apply, with how many times each fired",
    f"POST {FAULTS_PATH}": "add a fault rule: {method, path, team, p, times, status, retry_after, latency, "
    "reset, cut, slow}",
    f"DELETE {FAULTS_PATH}/{{id}}": "remove one fault rule",
    f"DELETE {FAULTS_PATH}": "remove every fault rule",
}


class FaultParts(Protocol):
    """What the fault routes reach of the emulator."""

    @property
    def faults(self) -> FaultRules: ...
    @property
    def teams(self) -> TeamDirectory: ...


def routes(service: FaultParts) -> list[BaseRoute]:
    """The fault rules' admin routes over `service`."""

    async def listed(request: Request) -> JSONResponse:
        return JSONResponse({"success": True, "rules": [rule.as_json() for rule in service.faults]})

    async def added(request: Request) -> JSONResponse:
        fields = await read_json_object(request)
        names = [team.name for team in service.teams.values()]
        try:
            rule = service.faults.add(rule_from_fields(fields, names))
        except FaultRuleError as exc:
            raise bad_request(f"Invalid fault rule: {exc}") from None
        return JSONResponse({"success": True, "rule": rule.as_json()}, status_code=201)

    async def removed(request: Request) -> JSONResponse:
        text = request.path_params["rule_id"]
        rule = service.faults.remove(int(text)) if text.isdigit() and len(text) < 10 else None
        if rule is None:
            raise not_found(f"No fault rule {text!r}: GET {FAULTS_PATH} lists them.", "FAULT_RULE_NOT_FOUND")
        return JSONResponse({"success": True, "removed": rule.as_json()})

    async def cleared(request: Request) -> JSONResponse:
        return JSONResponse({"success": True, "removed": service.faults.clear()})

    async def no_id(request: Request) -> JSONResponse:
        raise not_found(
            f"No fault rule id after {FAULTS_PATH}/, and nothing was changed: {FAULTS_PATH}/{{id}} removes one "
            f"rule; {FAULTS_PATH} (no trailing slash) lists them, adds one, or removes them all.",
            "FAULT_RULE_NOT_FOUND",
        )

    return [
        Route(FAULTS_PATH, listed, methods=["GET"]),
        Route(FAULTS_PATH, added, methods=["POST"]),
        Route(FAULTS_PATH, cleared, methods=["DELETE"]),
        Route(FAULTS_PATH + "/{rule_id}", removed, methods=["DELETE"]),
        Route(FAULTS_PATH + "/", no_id, methods=list(METHODS)),  # no redirect to the path without the slash
    ]
